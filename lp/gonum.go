package lp

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
	glp "gonum.org/v1/gonum/optimize/convex/lp"
)

// The gonum backend: the model in standard form (toStdForm), gonum's dense
// Simplex, then row duals (gonumDuals). gonum does not return the optimal
// basis, so the duals are recovered: the columns positive at the optimum,
// completed to a basis with independent columns (slacks first), then made
// dual feasible by a few degenerate simplex pivots (crossover); y = B⁻ᵀ c_B.
// If that fails, the dual of the standard form, max b̂ᵀ y s.t. Âᵀ y ≤ ĉ, is
// solved with gonum too (y = y⁺ − y⁻), unless it exceeds maxDualEntries
// dense entries (then Solution.Note says why there are no duals). Any
// optimal dual solution is a valid set of shadow prices; when the primal is
// degenerate it may differ from CLP's.
//
// gonum's Simplex starts from a basis when given one: the slack basis when it
// is feasible, or (column generation) the previous optimal basis, which
// spares its phase 1.

// maxDualEntries bounds the dense dual LP the gonum backend builds for duals.
const maxDualEntries = 8 << 20

// gonumTol is the reduced-cost tolerance handed to gonum's Simplex.
const gonumTol = 1e-10

func solveGonum(m *Model, opt Options) (*Solution, error) {
	if opt.MPSFile != "" {
		if err := WriteMPS(m, opt.MPSFile); err != nil {
			return &Solution{Status: Error}, err
		}
	}
	f, feasible := toStdForm(m)
	if !feasible {
		return &Solution{Status: Infeasible}, nil
	}
	sol := &Solution{Solver: Gonum}
	var z []float64
	if len(f.rows) == 0 {
		// No rows: every z stays at 0 unless its cost is negative.
		z = make([]float64, f.columnsN())
		for _, v := range f.cz {
			if v < 0 {
				f.ray = true
			}
		}
	} else {
		c, A, b := f.dense()
		var err error
		initial := startBasis(opt.warm, f.nz, f.slacks, A, b)
		_, z, err = gonumSimplex(c, A, b, initial)
		if err != nil && initial != nil {
			// A start gonum refuses (it panics on a basis it finds
			// infeasible): solve from scratch.
			_, z, err = gonumSimplex(c, A, b, nil)
		}
		switch {
		case errors.Is(err, glp.ErrInfeasible):
			sol.Status = Infeasible
			return sol, nil
		case errors.Is(err, glp.ErrUnbounded):
			sol.Status = Unbounded
			return sol, nil
		case err != nil:
			sol.Status = Error
			return sol, fmt.Errorf("lp: gonum simplex failed on model %q: %w", m.Name, err)
		}
		if !opt.NoDuals {
			if y, basis, err := gonumDuals(c, A, b, z, opt.warm == nil); err != nil {
				sol.Note = "duals not computed: " + err.Error()
			} else {
				if opt.warm != nil {
					opt.warm.nz, opt.warm.basis = f.nz, basis
				}
				sol.Duals = f.rowDuals(y)
				sol.ReducedCosts = m.reducedCosts(sol.Duals)
				sol.DualsAvailable = true
			}
		}
	}
	if f.ray {
		sol.Status = Unbounded
		return sol, nil
	}
	sol.Status = Optimal
	sol.X = f.point(z)
	sol.RowActivity = m.activity(sol.X)
	sol.Objective = m.objective(sol.X)
	if !sol.DualsAvailable && !opt.NoDuals && len(f.rows) == 0 {
		sol.Duals = make([]float64, m.NumRows())
		sol.ReducedCosts = m.reducedCosts(sol.Duals)
		sol.DualsAvailable = true
	}
	return sol, nil
}

// dense returns ĉ, Â and b̂.
func (f *stdForm) dense() ([]float64, *mat.Dense, []float64) {
	n := f.columnsN()
	c := make([]float64, n)
	copy(c, f.cz)
	A := mat.NewDense(len(f.rows), n, nil)
	b := make([]float64, len(f.rows))
	for r, row := range f.rows {
		for _, e := range row.e {
			A.Set(r, e.col, A.At(r, e.col)+e.v)
		}
		b[r] = row.rhs
	}
	for k, sl := range f.slacks {
		for _, e := range sl {
			A.Set(e.col, f.nz+k, e.v)
		}
	}
	return c, A, b
}

// gonumSimplex calls gonum's Simplex, turning a panic into an error.
func gonumSimplex(c []float64, A *mat.Dense, b []float64, initial []int) (f float64, x []float64, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("gonum simplex panicked: %v", r)
		}
	}()
	return glp.Simplex(c, A, b, gonumTol, initial)
}

// gonumWarm carries an optimal basis from one solve of a model to the next
// solve of the same model with columns appended (the column-generation
// master): gonum's Simplex accepts a feasible initial basis, and the old
// optimal basis stays feasible when new columns enter at zero.
type gonumWarm struct {
	nz    int   // structural columns of the standard form the basis is for
	basis []int // standard-form column indices
}

// startBasis returns a feasible basis to start gonum's Simplex from, or nil
// (gonum then runs its own phase 1): the warm basis remapped to the current
// standard form (slack indices shift by the columns added since), else the
// slack basis when every row has a slack and it is feasible.
func startBasis(warm *gonumWarm, nz int, slacks [][]entry, A *mat.Dense, b []float64) []int {
	m, n := A.Dims()
	var basis []int
	if warm != nil && len(warm.basis) == m && nz >= warm.nz {
		basis = make([]int, m)
		for k, j := range warm.basis {
			if j >= warm.nz {
				j += nz - warm.nz
			}
			if j >= n {
				basis = nil
				break
			}
			basis[k] = j
		}
	}
	if basis == nil {
		// One slack per row: each slack's first entry is in its own row.
		own := make([]int, m)
		for i := range own {
			own[i] = -1
		}
		for k, sl := range slacks {
			if r := sl[0].col; own[r] < 0 {
				own[r] = nz + k
			}
		}
		for _, j := range own {
			if j < 0 {
				return nil
			}
		}
		basis = own
	}
	// Feasible: B x_B = b with x_B ≥ 0 (gonum panics otherwise).
	B := mat.NewDense(m, m, nil)
	col := make([]float64, m)
	for k, j := range basis {
		mat.Col(col, j, A)
		B.SetCol(k, col)
	}
	var x mat.VecDense
	if err := x.SolveVec(B, mat.NewVecDense(m, b)); err != nil {
		return nil
	}
	for _, v := range x.RawVector().Data {
		if v < -1e-13 || math.IsNaN(v) {
			return nil
		}
	}
	return basis
}
