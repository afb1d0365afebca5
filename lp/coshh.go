package lp

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"strings"
	"time"

	"github.com/schedplan/schedplan/internal/par"
)

// COSHHProblem is the input of the COSHH capacity LP (seed 003, §3.2, eq.
// 1–3 and 4–6) with identical machines merged into types:
//
//	maximise λ
//	s.t.  Σ_t μ_it δ_it ≥ λ α_i   for every class i
//	      Σ_i δ_it ≤ n_t          for every machine type t
//	      δ ≥ 0
//
// where α_i is class i's arrival rate (jobs/s), μ_it the rate at which one
// machine of type t serves class i when it serves nothing else (jobs/s), n_t
// the number of machines of type t, and δ_it the machines of type t given to
// class i. λ is the capacity answer: the cluster sustains λ × today's
// arrival rates.
type COSHHProblem struct {
	ClassNames []string
	Alpha      []float64 // per class, jobs/s
	TypeNames  []string
	Counts     []float64   // per type, machines
	Mu         [][]float64 // Mu[i][t], jobs/s of one machine of type t on class i
}

// Method is how the COSHH LP is solved.
type Method int

const (
	// ColumnGeneration (the default) solves a restricted LP over a few δ
	// columns per class and prices the others in with the duals until none
	// improves λ. A basic optimum has at most classes + types non-zero δ, so
	// the restricted LP stays small even when classes × types is large.
	ColumnGeneration Method = iota
	// Full solves the LP with every δ_it column in from the start (no
	// pricing).
	Full
)

func (m Method) String() string {
	if m == Full {
		return "full"
	}
	return "column generation"
}

// COSHHOptions tune SolveCOSHH. The zero value is the default.
type COSHHOptions struct {
	Solver Solver
	Method Method
	// Eps is the threshold above which a fraction δ_it/n_t puts class i in
	// type t's suggested set (default 1e-9).
	Eps float64
	// MPSFile, if set, receives the full textbook model in MPS format (CLP).
	MPSFile string
	// LambdaOnly skips the canonical allocation (what-ifs and targets need
	// λ alone); Delta is then one of the optimal allocations.
	LambdaOnly bool
	// Warm, a previous solution, starts column generation from its final
	// columns (matched by class and type name; the others are ignored): a
	// re-solve after re-classification, or after the rates or counts
	// changed, then needs few pricing rounds.
	Warm *COSHHSolution
}

// TypeLoad is what one machine type carries in the allocation.
type TypeLoad struct {
	Name  string
	Count float64
	// Allocated is the fraction of the type's machines the LP allocates
	// (Σ_i δ_it / n_t; 1 for a type that limits λ).
	Allocated float64
	// Utilisation is the fraction of the type's machines busy at today's
	// arrival rates when each class's jobs are routed in proportion to the
	// throughput the allocation gives it on each type (≤ 1/λ).
	Utilisation float64
	// Throughput is the jobs/s the type serves at today's arrival rates
	// under that routing.
	Throughput float64
	// Dual is the dual price of the type's capacity row (phase 1 LP, the
	// scaled form): dλ per unit of the type's whole capacity (all its
	// machines). The duals sum to λ (strong duality), so Dual/λ is the share
	// of λ the type accounts for; a type with Dual > 0 is a bottleneck
	// (Bottleneck: Dual > 1e-9 λ). Set when COSHHSolution.HasDuals.
	Dual       float64
	Bottleneck bool
	// Marginal is dλ/dn_t = Dual / n_t: how much λ grows per machine added
	// to the type, for a small addition (the shadow price per machine). At
	// a degenerate optimum the duals are not unique: then Dual is one valid
	// price (a supergradient of λ(n)), and the what-ifs give the one-sided
	// changes.
	Marginal float64
}

// COSHHSolution is the answer to the COSHH LP.
type COSHHSolution struct {
	Lambda float64
	// Delta[i][t] is δ_it as a fraction of type t's machines (Σ_i ≤ 1).
	Delta [][]float64
	// Machines[i][t] is δ_it in machines (Delta × n_t).
	Machines [][]float64
	// Suggested[t] lists the classes i with Delta[i][t] > Eps (SC_t).
	Suggested [][]int
	Types     []TypeLoad
	// Ignored lists classes with α = 0 (they need no capacity and get none).
	Ignored []int
	// Unservable lists classes with α > 0 that no machine can run (μ = 0 on
	// every type with machines): λ is 0.
	Unservable []int
	// Messages explain ignored and unservable classes in words.
	Messages []string
	Solver   Solver
	Method   Method
	// Columns is the number of δ columns in the final LP; Rounds the column
	// generation rounds (1 for Full).
	Columns, Rounds int
	// Bound is an upper bound on the optimal λ certified by the final duals
	// of column generation (weak duality over every δ column); Bound − λ is
	// the remaining gap. 0 for Full (solved to CLP's or gonum's optimality).
	Bound float64
	// HasDuals says the types' Dual and Marginal are set (the gonum backend
	// can fail to recover duals on a large full solve).
	HasDuals bool
	// Canonical says Delta is the canonical allocation (see the package
	// documentation); CanonicalRounds is the solves of its LP. False with
	// COSHHOptions.LambdaOnly, or when that LP failed (said in Messages).
	Canonical       bool
	CanonicalRounds int
	// CanonicalSlack is the relative slack of λ the canonical LP was solved
	// at (CanonicalTol unless the instance is too badly scaled for it).
	CanonicalSlack float64
	// Polished says the canonical vertex was recomputed from its support
	// (see coshhpolish.go), so it carries no solver rounding.
	Polished bool
	// CanonicalTime is the time the canonical LP took (its solves and
	// pricing), LPTime the whole LP work (both phases).
	CanonicalTime, LPTime time.Duration

	columns []coshhColumn // the final master's columns, for Warm
}

// Check validates the problem's shape and numbers; errors name the class or
// type.
func (p *COSHHProblem) Check() error {
	nc, nt := len(p.Alpha), len(p.Counts)
	if len(p.ClassNames) != nc {
		return fmt.Errorf("coshh: %d class names for %d arrival rates", len(p.ClassNames), nc)
	}
	if len(p.TypeNames) != nt {
		return fmt.Errorf("coshh: %d machine type names for %d counts", len(p.TypeNames), nt)
	}
	if len(p.Mu) != nc {
		return fmt.Errorf("coshh: μ has %d rows for %d classes", len(p.Mu), nc)
	}
	for t, n := range p.Counts {
		if math.IsNaN(n) || math.IsInf(n, 0) || n < 0 {
			return fmt.Errorf("coshh: machine type %s: count %v is not a non-negative number", p.TypeNames[t], n)
		}
	}
	for i, a := range p.Alpha {
		if math.IsNaN(a) || math.IsInf(a, 0) || a < 0 {
			return fmt.Errorf("coshh: class %s: arrival rate α = %v is not a non-negative number", p.ClassNames[i], a)
		}
		if len(p.Mu[i]) != nt {
			return fmt.Errorf("coshh: class %s: μ has %d entries for %d machine types", p.ClassNames[i], len(p.Mu[i]), nt)
		}
		for t, v := range p.Mu[i] {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				return fmt.Errorf("coshh: class %s on machine type %s: execution rate μ = %v is not a non-negative number", p.ClassNames[i], p.TypeNames[t], v)
			}
		}
	}
	return nil
}

// ErrNoMachines is returned for a cluster without machines.
var ErrNoMachines = errors.New("coshh: the cluster has no machines (no machine type with a positive count)")

// ErrNoDemand is returned when no class has a positive arrival rate: every
// λ is sustainable.
var ErrNoDemand = errors.New("coshh: no class has a positive arrival rate, so λ is unbounded")

// SolveCOSHH solves the COSHH LP. Degenerate inputs are answered, not
// failed: classes with α = 0 are ignored (and listed), a class with α > 0
// that no machine can run makes λ = 0 (and is named). A cluster without
// machines and a problem without demand are errors.
func SolveCOSHH(p *COSHHProblem, opt COSHHOptions) (*COSHHSolution, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	s, err := opt.Solver.Resolve()
	if err != nil {
		return nil, err
	}
	if opt.Eps == 0 {
		opt.Eps = 1e-9
	}
	nc, nt := len(p.Alpha), len(p.Counts)
	sol := &COSHHSolution{Solver: s, Method: opt.Method}
	sol.Delta = make([][]float64, nc)
	sol.Machines = make([][]float64, nc)
	for i := range sol.Delta {
		sol.Delta[i] = make([]float64, nt)
		sol.Machines[i] = make([]float64, nt)
	}
	sol.Suggested = make([][]int, nt)
	sol.Types = make([]TypeLoad, nt)
	machines := 0.0
	for t := range sol.Types {
		sol.Types[t] = TypeLoad{Name: p.TypeNames[t], Count: p.Counts[t]}
		machines += p.Counts[t]
	}
	if machines == 0 {
		return nil, ErrNoMachines
	}
	var active []int
	for i, a := range p.Alpha {
		if a == 0 {
			sol.Ignored = append(sol.Ignored, i)
			continue
		}
		runnable := false
		for t, v := range p.Mu[i] {
			if v > 0 && p.Counts[t] > 0 {
				runnable = true
				break
			}
		}
		if !runnable {
			sol.Unservable = append(sol.Unservable, i)
			continue
		}
		active = append(active, i)
	}
	if len(sol.Ignored) > 0 {
		sol.Messages = append(sol.Messages, fmt.Sprintf("ignored %s: arrival rate α = 0, so %s no capacity", classList(p, sol.Ignored), verb(len(sol.Ignored), "needs", "need")))
	}
	if len(sol.Unservable) > 0 {
		sol.Messages = append(sol.Messages, fmt.Sprintf("λ = 0: %s %s arriving jobs (α > 0) but no machine type with machines can run %s (μ = 0 on every such type)",
			classList(p, sol.Unservable), verb(len(sol.Unservable), "has", "have"), verb(len(sol.Unservable), "it", "them")))
		return sol, nil
	}
	if len(active) == 0 {
		return nil, ErrNoDemand
	}
	if opt.MPSFile != "" {
		m, _ := coshhFullModel(p, active)
		if err := WriteMPS(m, opt.MPSFile); err != nil {
			return nil, err
		}
	}
	if err := solveCOSHHLP(p, active, s, opt, sol); err != nil {
		return nil, err
	}
	return sol, nil
}

// solveCOSHHLP solves phase 1 (λ*, the type rows' duals) and, unless
// opt.LambdaOnly, phase 2 (the canonical allocation) on one master, and
// fills sol. A phase 2 that fails leaves phase 1's allocation, with a
// message.
func solveCOSHHLP(p *COSHHProblem, active []int, s Solver, opt COSHHOptions, sol *COSHHSolution) error {
	start := time.Now()
	defer func() { sol.LPTime = time.Since(start) }()
	if opt.Method == Full && opt.LambdaOnly {
		return solveCOSHHTextbook(p, active, s, opt.Eps, sol)
	}
	if s == CLP && opt.Method == ColumnGeneration {
		return solveCOSHHFolded(p, active, opt, sol)
	}
	var warm []coshhColumn
	if opt.Warm != nil {
		warm = opt.Warm.columns
	}
	c, err := newCOSHHLP(p, active, s, opt.Method == Full, warm)
	if err != nil {
		return err
	}
	defer c.close()
	ls, err := c.solvePhase(sol)
	if err != nil {
		return err
	}
	sol.Lambda = ls.X[0]
	sol.Rounds = c.rounds
	if sol.Method != Full {
		sol.Bound = c.dualBound(ls.Duals[:c.na])
	}
	var duals []float64
	if ls.DualsAvailable {
		duals = append([]float64(nil), ls.Duals[c.na:]...)
	}
	f := c.fractions(ls)
	if !opt.LambdaOnly {
		f = c.canonicalOr(f, sol)
	}
	sol.Columns = len(c.cols)
	sol.columns = c.columnNames()
	sol.fill(p, active, f, duals, opt.Eps)
	return nil
}

// solveCOSHHTextbook solves the textbook model (coshhFullModel: δ in
// machines, the rows as in the problem, the model MPSFile writes) in one
// solve, for Full with LambdaOnly, and fills sol. CLP takes a quarter of
// the CPU on it that it takes on the scaled form of the master (2,000 ×
// 500: 15 s against 64 s, both from the same MPS writer), so λ alone is
// not computed on the master. Its type-row duals are per machine; the
// scaled form's, which fill takes, are per type (× n_t).
func solveCOSHHTextbook(p *COSHHProblem, active []int, s Solver, eps float64, sol *COSHHSolution) error {
	m, col := coshhFullModel(p, active)
	ls, err := Solve(m, Options{Solver: s})
	if err != nil {
		return err
	}
	if ls.Status != Optimal {
		return fmt.Errorf("coshh: the full LP ended %v", ls.Status)
	}
	sol.Lambda, sol.Rounds, sol.Columns = ls.X[0], 1, m.NumCols()-1
	nt := len(p.Counts)
	f := make([][]float64, len(active))
	for k, i := range active {
		f[k] = make([]float64, nt)
		for t := 0; t < nt; t++ {
			if v := ls.X[col[k][t]]; v > 0 && p.Counts[t] > 0 {
				f[k][t] = v / p.Counts[t]
				sol.columns = append(sol.columns, coshhColumn{p.ClassNames[i], p.TypeNames[t]})
			}
		}
	}
	var duals []float64
	if ls.DualsAvailable {
		duals = make([]float64, nt)
		for t := range duals {
			duals[t] = ls.Duals[len(active)+t] * p.Counts[t]
		}
	}
	sol.fill(p, active, f, duals, eps)
	return nil
}

func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func classList(p *COSHHProblem, idx []int) string {
	names := make([]string, len(idx))
	for k, i := range idx {
		names[k] = p.ClassNames[i]
	}
	if len(names) == 1 {
		return "class " + names[0]
	}
	return "classes " + strings.Join(names, ", ")
}

// fill derives δ, the suggested sets and the per-type loads from the
// fractions f of the active classes and the type-row duals (dλ/dn_t in
// the f formulation's units: per fraction of the type).
func (sol *COSHHSolution) fill(p *COSHHProblem, active []int, f [][]float64, typeDual []float64, eps float64) {
	// Row by row, touching only the non-zero δ (at 20,000 × 5,000 the
	// matrices hold 10⁸ entries, a few thousand of them non-zero); the sums
	// are over the classes in order, as a column-wise pass would add them.
	var nz []int
	for k, i := range active {
		served := 0.0 // Σ_t μ_it δ_it, jobs/s at λ
		nz = nz[:0]
		for t, v := range f[k] {
			if v <= 0 || p.Mu[i][t]*v*p.Counts[t] < deltaZero*sol.Lambda*p.Alpha[i] {
				continue // 0, or solver noise: serves < 1e-12 of the class's λα_i
			}
			sol.Delta[i][t] = v
			sol.Machines[i][t] = v * p.Counts[t]
			served += p.Mu[i][t] * sol.Machines[i][t]
			nz = append(nz, t)
		}
		for _, t := range nz {
			if sol.Delta[i][t] > eps {
				sol.Suggested[t] = append(sol.Suggested[t], i)
			}
			sol.Types[t].Allocated += sol.Delta[i][t]
			if served > 0 && sol.Machines[i][t] > 0 {
				share := p.Mu[i][t] * sol.Machines[i][t] / served // of class i's throughput
				sol.Types[t].Throughput += p.Alpha[i] * share
				sol.Types[t].Utilisation += p.Alpha[i] * share / p.Mu[i][t]
			}
		}
	}
	for t := range sol.Types {
		tl := &sol.Types[t]
		if tl.Count > 0 {
			tl.Utilisation /= tl.Count
		}
		if typeDual != nil {
			tl.Dual = math.Max(typeDual[t], 0)
			if tl.Count > 0 {
				tl.Marginal = tl.Dual / tl.Count
			}
			tl.Bottleneck = tl.Dual > 1e-9*sol.Lambda
		}
	}
	sol.HasDuals = typeDual != nil
}

// coshhFullModel builds the textbook model: rows for the active classes
// then the types, column λ, then δ_it in machines for every active class
// and type (col[k][t] is the column of active class k on type t).
func coshhFullModel(p *COSHHProblem, active []int) (m *Model, col [][]int) {
	nt := len(p.Counts)
	m = NewModel("coshh", Maximize)
	for _, i := range active {
		m.AddRow("class_"+p.ClassNames[i], GE(0))
	}
	for t := 0; t < nt; t++ {
		m.AddRow("type_"+p.TypeNames[t], LE(p.Counts[t]))
	}
	lam := m.AddCol("lambda", 1, NonNeg())
	for k, i := range active {
		m.Set(k, lam, -p.Alpha[i])
	}
	col = make([][]int, len(active))
	for k, i := range active {
		col[k] = make([]int, nt)
		for t := 0; t < nt; t++ {
			j := m.AddCol("d_"+p.ClassNames[i]+"_"+p.TypeNames[t], 0, NonNeg())
			col[k][t] = j
			m.Set(k, j, p.Mu[i][t])
			m.Set(len(active)+t, j, 1)
		}
	}
	return m, col
}

// dualBound returns an upper bound on λ* from class-row duals y (≤ 0): with
// u = −y / Σ(−y), the full problem's dual min Σ_t w_t s.t. Σ_i u_i ≥ 1,
// w_t ≥ r_it u_i is feasible with w_t = max_i r_it u_i, so λ* ≤ Σ_t max_i
// r_it u_i (weak duality). The classes are read row by row of μ on up to
// priceWorkers goroutines (r_it u_i as μ_it n_t (u_i/α_i): one division per
// class, not per pair), and the types' maxima are merged.
func (c *coshhLP) dualBound(y []float64) float64 {
	sum := 0.0
	for _, v := range y {
		sum += math.Max(-v, 0)
	}
	if !(sum > 0) {
		return math.Inf(1)
	}
	workers := min(runtime.GOMAXPROCS(0), priceWorkers, max(1, c.na/64))
	bests := make([][]float64, workers)
	counts := c.p.Counts[:c.nt]
	par.For(workers, workers, func(wk int) {
		best := make([]float64, c.nt)
		for k := wk * c.na / workers; k < (wk+1)*c.na/workers; k++ {
			u := math.Max(-y[k], 0) / sum
			if u == 0 {
				continue
			}
			i := c.active[k]
			s := u / c.p.Alpha[i]
			for t, m := range c.p.Mu[i][:c.nt] {
				if v := m * counts[t] * s; v > best[t] {
					best[t] = v
				}
			}
		}
		bests[wk] = best
	})
	ub := 0.0
	for t := 0; t < c.nt; t++ {
		b := 0.0
		for _, best := range bests {
			b = math.Max(b, best[t])
		}
		ub += b
	}
	return ub
}

var errNoDuals = errors.New("coshh: no duals for column generation")

func isNoDuals(err error) bool { return errors.Is(err, errNoDuals) }
