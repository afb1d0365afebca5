package lp

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Status is the outcome of a solve.
type Status int

const (
	// Error: the solve failed (bad model, numerical trouble, backend error).
	Error Status = iota
	// Optimal: an optimal solution was found.
	Optimal
	// Infeasible: no point satisfies the rows and bounds.
	Infeasible
	// Unbounded: the objective can be improved without limit.
	Unbounded
	// IterationLimit: the iteration or time limit stopped the solver.
	IterationLimit
)

func (s Status) String() string {
	switch s {
	case Optimal:
		return "optimal"
	case Infeasible:
		return "infeasible"
	case Unbounded:
		return "unbounded"
	case IterationLimit:
		return "iteration limit"
	}
	return "error"
}

// Solver names a backend.
type Solver string

const (
	// Auto is CLP when the binary was built with cgo, gonum otherwise.
	Auto Solver = ""
	// CLP is COIN-OR CLP through the package's cgo binding.
	CLP Solver = "clp"
	// Gonum is gonum's dense simplex (pure Go).
	Gonum Solver = "gonum"
)

// ParseSolver parses "clp", "gonum" or "" / "auto".
func ParseSolver(s string) (Solver, error) {
	switch s {
	case "", "auto":
		return Auto, nil
	case "clp", "CLP":
		return CLP, nil
	case "gonum":
		return Gonum, nil
	}
	return Auto, fmt.Errorf("lp: unknown solver %q (want clp or gonum)", s)
}

// Resolve returns the backend Auto stands for, or s itself; it fails when s
// is not available in this binary.
func (s Solver) Resolve() (Solver, error) {
	switch s {
	case Auto:
		if clpAvailable {
			return CLP, nil
		}
		return Gonum, nil
	case CLP:
		if !clpAvailable {
			return CLP, errNoCLP
		}
		return CLP, nil
	case Gonum:
		return Gonum, nil
	}
	return s, fmt.Errorf("lp: unknown solver %q", string(s))
}

// errNoCLP is returned when CLP is asked for in a binary built without cgo.
var errNoCLP = errors.New("lp: the CLP solver is not available: this binary was built without cgo (CGO_ENABLED=0); use the gonum solver")

// CLPAvailable reports whether this binary has the CLP backend (built with
// cgo).
func CLPAvailable() bool { return clpAvailable }

// Options tune a solve. The zero value is the default: the Auto solver, no
// limits.
type Options struct {
	Solver Solver
	// MaxIterations stops the solver after that many iterations (0: no limit).
	// It is honoured by CLP; gonum's simplex has no iteration limit.
	MaxIterations int
	// TimeLimit stops CLP after that long (0: no limit).
	TimeLimit time.Duration
	// MPSFile, if set, is where the model is written in MPS format before it
	// is solved (for debugging; written atomically).
	MPSFile string
	// NoDuals skips the row duals and reduced costs where they cost extra
	// work (the gonum backend recovers them from the basis or solves the
	// dual LP).
	NoDuals bool

	warm *gonumWarm // gonum: start basis in, optimal basis out (master only)
}

// Solution is the result of a solve. X, RowActivity, Duals and ReducedCosts
// are set when Status is Optimal (Duals and ReducedCosts only when
// DualsAvailable).
//
// Duals follow one convention for both backends and both senses: Duals[i]
// is the rate of change of the optimal objective per unit increase of row
// i's active bound (the shadow price), and ReducedCosts[j] = obj_j −
// Σ_i a_ij Duals[i]. For a maximisation, a binding "≤" row has a
// non-negative dual and a binding "≥" row a non-positive one.
type Solution struct {
	Status         Status
	Objective      float64
	X              []float64
	RowActivity    []float64
	Duals          []float64
	ReducedCosts   []float64
	DualsAvailable bool
	Iterations     int
	Solver         Solver
	// Note explains a missing piece (for example why duals are not
	// available).
	Note string
}

// Solve solves the model with the chosen backend. Infeasible, unbounded and
// stopped solves are reported in Status with a nil error; a model that does
// not pass Check or a backend failure gives Status Error and a non-nil error.
// Solve never panics on any model.
func Solve(m *Model, opt Options) (sol *Solution, err error) {
	s, err := opt.Solver.Resolve()
	if err != nil {
		return &Solution{Status: Error, Solver: opt.Solver}, err
	}
	if err := m.Check(); err != nil {
		return &Solution{Status: Error, Solver: s}, err
	}
	if opt.MaxIterations < 0 || opt.TimeLimit < 0 {
		return &Solution{Status: Error, Solver: s}, errors.New("lp: negative iteration or time limit")
	}
	defer func() {
		if r := recover(); r != nil {
			sol = &Solution{Status: Error, Solver: s}
			err = fmt.Errorf("lp: %s backend failed on model %q: %v", s, m.Name, r)
		}
	}()
	switch s {
	case CLP:
		sol, err = solveCLP(m, opt)
	default:
		sol, err = solveGonum(m, opt)
	}
	if sol == nil {
		sol = &Solution{Status: Error}
	}
	sol.Solver = s
	if err == nil && sol.Status == Optimal && !finite(sol.Objective) {
		sol.Status = Error
		err = fmt.Errorf("lp: %s returned a non-finite objective %g on model %q", s, sol.Objective, m.Name)
	}
	return sol, err
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// activity returns A x for the model.
func (m *Model) activity(x []float64) []float64 {
	act := make([]float64, m.NumRows())
	for k, v := range m.ev {
		act[m.ei[k]] += v * x[m.ej[k]]
	}
	return act
}

// reducedCosts returns obj − Aᵀ y.
func (m *Model) reducedCosts(y []float64) []float64 {
	d := append([]float64(nil), m.obj...)
	for k, v := range m.ev {
		d[m.ej[k]] -= v * y[m.ei[k]]
	}
	return d
}

// objective returns objᵀ x.
func (m *Model) objective(x []float64) float64 {
	f := 0.0
	for j, c := range m.obj {
		if c != 0 {
			f += c * x[j]
		}
	}
	return f
}
