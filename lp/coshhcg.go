package lp

import (
	"fmt"
	"math"
	"runtime"
	"sort"
	"time"

	"github.com/schedplan/schedplan/internal/par"
)

// coshhTrace, when set (by tests and benchmarks), receives a line per
// column generation step.
var coshhTrace func(format string, a ...any)

func (c *coshhLP) trace(format string, a ...any) {
	if coshhTrace != nil {
		coshhTrace(format, a...)
	}
}

// coshhLP is the COSHH LP on a restricted master, in the scaled form
//
//	maximise λ  s.t.  Σ_t r_it f_it − λ ≥ 0 (class rows),  Σ_i f_it ≤ 1 (type rows),  f ≥ 0
//
// with f_it = δ_it / n_t and r_it = μ_it n_t / α_i (the number of times type
// t alone could serve class i's arrivals). Phase 1 maximises λ by column
// generation: with class-row duals u_i ≥ 0 (Σ u_i = 1) and type-row duals
// w_t ≥ 0, column f_it improves λ when its reduced cost r_it u_i − w_t is
// positive, and λ* ≤ λ + Σ_t max(0, max_i r_it u_i − w_t), so the loop
// stops with a certified optimum when no column prices out. Phase 2 (the
// canonical allocation, see canonical) keeps the master and its basis,
// bounds λ below by λ_lo and minimises Σ c_it f_it, pricing columns in the
// same way with the phase 2 costs. With full set every column is in the
// master from the start and nothing is priced.
type coshhLP struct {
	p      *COSHHProblem
	active []int
	na, nt int
	// Column idx = k*nt+t (active class k, type t) has r(idx) in its class
	// row and, in phase 2, cost(idx) in the objective; both are computed
	// from p when needed (at 20,000 classes × 5,000 types a dense copy
	// would take 800 MB each).
	fastest []float64 // per active class: max μ over types with machines (phase 2 costs)
	phase2  bool      // the objective is the canonical cost
	in      colSet    // the columns idx in the master (and, folded, in λ's column)
	cols    []int     // k*nt+t of the master's columns after λ, in master order
	ms      master
	full    bool
	rounds  int // solves in the current phase
	// priceTol, if set, replaces phase 1's pricing tolerance (1e-11 λ) by
	// priceTol λ.
	priceTol float64
	// classTop, if set, replaces priceClassTop (at most priceClassTop).
	classTop int
	// priceBound is the dual bound of the last phase 1 pricing round's
	// duals (see price; +Inf in phase 2).
	priceBound float64
}

// coshhColumn names a master column by class and type, so that a later
// solve of a re-classified problem can start from it (COSHHOptions.Warm).
type coshhColumn struct{ class, typ string }

// maxRounds bounds column generation (each round adds at least one column).
const maxRounds = 10000

// initialTop is how many of each class's fastest types the first master
// holds.
const initialTop = 5

// newCOSHHLP builds the master: every column when full, else each class's
// two best types, each type's best class (relative to that class's best
// type) and the columns of warm that exist in p.
func newCOSHHLP(p *COSHHProblem, active []int, s Solver, full bool, warm []coshhColumn) (*coshhLP, error) {
	c, err := newCOSHHLPEmpty(p, active, s)
	if err != nil {
		return nil, err
	}
	c.full = full
	t0 := time.Now()
	if full {
		c.add(c.allColumns())
	} else {
		c.add(append(c.initialColumns(), c.warmColumns(warm)...))
	}
	c.trace("first master: %d columns in %v", len(c.cols), time.Since(t0))
	return c, nil
}

// newCOSHHLPEmpty builds the master's rows and λ's column.
func newCOSHHLPEmpty(p *COSHHProblem, active []int, s Solver) (*coshhLP, error) {
	c := &coshhLP{p: p, active: active, na: len(active), nt: len(p.Counts)}
	c.in = newColSet(c.na * c.nt)
	m := NewModel("coshh-master", Maximize)
	for k := 0; k < c.na; k++ {
		m.AddRow("", GE(0))
	}
	for t := 0; t < c.nt; t++ {
		m.AddRow("", LE(1))
	}
	lam := m.AddCol("lambda", 1, NonNeg())
	for k := 0; k < c.na; k++ {
		m.Set(k, lam, -1)
	}
	ms, err := newMaster(m, s)
	if err != nil {
		return nil, err
	}
	c.ms = ms
	return c, nil
}

// newCOSHHLPColumns builds the master with the given columns (idx =
// k*nt+t) only: the canonical LP after the folded master's phase 1.
func newCOSHHLPColumns(p *COSHHProblem, active []int, s Solver, cols []int) (*coshhLP, error) {
	c, err := newCOSHHLPEmpty(p, active, s)
	if err != nil {
		return nil, err
	}
	c.add(cols)
	return c, nil
}

func (c *coshhLP) close() { c.ms.close() }

// column appends master column idx to nc: r in its class row, 1 in its
// type row, its phase 2 cost once there is one.
func (c *coshhLP) column(nc *newColumns, idx int) {
	k, t := idx/c.nt, idx%c.nt
	obj := 0.0
	if c.phase2 {
		obj = c.cost(idx)
	}
	nc.append(obj, 0, math.Inf(1), []int32{int32(k), int32(c.na + t)}, []float64{c.r(idx), 1})
}

// r is column idx's coefficient in its class row: μ_it n_t / α_i, the
// number of times type t alone could serve class i's arrivals (0: no such
// column).
func (c *coshhLP) r(idx int) float64 { return c.rAt(idx/c.nt, idx%c.nt) }

// rAt is r of active class k on type t (loops over k and t call it, not r:
// an integer division per pair costs more than the rest at 10⁸ pairs).
func (c *coshhLP) rAt(k, t int) float64 {
	i := c.active[k]
	if mu, n := c.p.Mu[i][t], c.p.Counts[t]; mu > 0 && n > 0 {
		return mu * n / c.p.Alpha[i]
	}
	return 0
}

// allColumns lists every existing column.
func (c *coshhLP) allColumns() []int {
	var out []int
	for idx := 0; idx < c.na*c.nt; idx++ {
		if c.r(idx) > 0 {
			out = append(out, idx)
		}
	}
	return out
}

// initialColumns are each class's two best types by r, its fastest types
// (by μ, the best at equal prices per machine: initialTop of them, and more
// for a class that needs a large share of the cluster, see initialCounts)
// and, for each type, the class it serves best relative to that class's
// best type.
func (c *coshhLP) initialColumns() []int {
	var out []int
	best := make([]float64, c.na)
	_, fast := c.classBests()
	want := c.initialCounts(fast)
	var top []int
	for k, i := range c.active {
		b1, b2 := c.twoBest(k)
		best[k] = c.rAt(k, b1)
		out = append(out, k*c.nt+b1)
		if b2 >= 0 {
			out = append(out, k*c.nt+b2)
		}
		top = c.fastestTypes(i, want[k], top[:0])
		for _, t := range top {
			out = append(out, k*c.nt+t)
		}
	}
	for t := 0; t < c.nt; t++ {
		bk, bv := -1, 0.0
		for k := 0; k < c.na; k++ {
			if v := c.rAt(k, t) / best[k]; v > bv {
				bk, bv = k, v
			}
		}
		if bk >= 0 {
			out = append(out, bk*c.nt+t)
		}
	}
	return out
}

// initialCounts returns how many of its fastest types each active class
// starts with: initialTop, plus twice the number of types the class would
// fill if every class ran on its fastest type at the λ that then uses the
// whole cluster (its share α_i / max_t μ_it of the machines that demand
// needs, times the number of types). A class that needs much of the
// cluster (heavy, slow jobs) so starts with many columns instead of
// gaining a few per round.
func (c *coshhLP) initialCounts(fast []float64) []int {
	need := make([]float64, c.na)
	sum := 0.0
	for k, i := range c.active {
		need[k] = c.p.Alpha[i] / fast[k]
		sum += need[k]
	}
	out := make([]int, c.na)
	for k := range out {
		out[k] = min(c.nt, initialTop+int(math.Ceil(2*need[k]/sum*float64(c.nt))))
	}
	return out
}

// classBests returns each active class's largest r over the types (its
// best type's) and largest μ over the types with machines (fastest), in
// one pass over μ on up to priceWorkers goroutines. The largest r is
// max_t μ_it n_t / α_i: division by α_i is monotone, so it equals the
// largest rAt to the bit.
func (c *coshhLP) classBests() (bestR, fastMu []float64) {
	bestR, fastMu = make([]float64, c.na), make([]float64, c.na)
	counts := c.p.Counts[:c.nt]
	par.For(c.na, min(runtime.GOMAXPROCS(0), priceWorkers), func(k int) {
		i := c.active[k]
		br, fm := 0.0, 0.0
		for t, m := range c.p.Mu[i][:c.nt] {
			if m > 0 && counts[t] > 0 {
				br = math.Max(br, m*counts[t])
				fm = math.Max(fm, m)
			}
		}
		bestR[k], fastMu[k] = br/c.p.Alpha[i], fm
	})
	return bestR, fastMu
}

// fastestTypes appends to top the n types with machines where class i
// runs fastest, fastest first.
func (c *coshhLP) fastestTypes(i, n int, top []int) []int {
	mu := c.p.Mu[i]
	for t := 0; t < c.nt; t++ {
		if mu[t] <= 0 || c.p.Counts[t] <= 0 || (len(top) == n && mu[t] <= mu[top[n-1]]) {
			continue
		}
		at := len(top)
		for at > 0 && mu[top[at-1]] < mu[t] {
			at--
		}
		top = append(top, 0)
		copy(top[at+1:], top[at:])
		top[at] = t
		if len(top) > n {
			top = top[:n]
		}
	}
	return top
}

// twoBest returns active class k's types with the largest and second
// largest r (b2 = -1 when it runs on one type only).
func (c *coshhLP) twoBest(k int) (b1, b2 int) {
	b1, b2 = -1, -1
	for t := 0; t < c.nt; t++ {
		v := c.rAt(k, t)
		if v <= 0 {
			continue
		}
		switch {
		case b1 < 0 || v > c.rAt(k, b1):
			b1, b2 = t, b1
		case b2 < 0 || v > c.rAt(k, b2):
			b2 = t
		}
	}
	return b1, b2
}

// warmColumns maps a previous solve's columns onto this problem by class
// and type name, keeping those that exist here.
func (c *coshhLP) warmColumns(warm []coshhColumn) []int {
	if len(warm) == 0 {
		return nil
	}
	class := make(map[string]int, c.na)
	for k, i := range c.active {
		class[c.p.ClassNames[i]] = k
	}
	typ := make(map[string]int, c.nt)
	for t, name := range c.p.TypeNames {
		typ[name] = t
	}
	var out []int
	for _, w := range warm {
		k, ok1 := class[w.class]
		t, ok2 := typ[w.typ]
		if ok1 && ok2 && c.rAt(k, t) > 0 {
			out = append(out, k*c.nt+t)
		}
	}
	return out
}

// columnNames names the master's columns (for a later warm start).
func (c *coshhLP) columnNames() []coshhColumn {
	out := make([]coshhColumn, len(c.cols))
	for n, idx := range c.cols {
		out[n] = coshhColumn{c.p.ClassNames[c.active[idx/c.nt]], c.p.TypeNames[idx%c.nt]}
	}
	return out
}

// add puts columns (sorted, possibly repeated) into the master.
func (c *coshhLP) add(idx []int) int {
	sort.Ints(idx)
	nc := &newColumns{}
	for n, j := range idx {
		if n > 0 && idx[n-1] == j {
			continue
		}
		if !c.in.add(j) {
			continue
		}
		c.cols = append(c.cols, j)
		c.column(nc, j)
	}
	if len(nc.obj) > 0 {
		c.ms.add(nc)
	}
	return len(nc.obj)
}

// solveRounds solves the master and prices columns in until none improves
// the current phase's objective (once, when full). It returns errNoDuals
// when the backend gives no duals to price with.
func (c *coshhLP) solveRounds() (*Solution, error) {
	for {
		if c.rounds >= maxRounds {
			return nil, fmt.Errorf("coshh: column generation did not converge in %d rounds", maxRounds)
		}
		t0 := time.Now()
		ls, err := c.ms.solve()
		if err != nil {
			return nil, err
		}
		c.rounds++
		c.trace("round %d: master %d columns, solve %v (%d iterations), objective %.15g", c.rounds, len(c.cols), time.Since(t0), ls.Iterations, ls.Objective)
		if ls.Status != Optimal {
			return nil, fmt.Errorf("coshh: the restricted LP ended %v in round %d", ls.Status, c.rounds)
		}
		if c.full {
			return ls, nil
		}
		if !ls.DualsAvailable {
			return nil, fmt.Errorf("%w: the %s solver gave no duals in round %d: %s", errNoDuals, ls.Solver, c.rounds, ls.Note)
		}
		t0 = time.Now()
		n := c.add(c.price(ls))
		c.trace("round %d: priced and added %d columns in %v", c.rounds, n, time.Since(t0))
		if n == 0 {
			return ls, nil
		}
	}
}

// fractions returns f[k][t] from a master solution.
func (c *coshhLP) fractions(ls *Solution) [][]float64 {
	f := make([][]float64, c.na)
	for k := range f {
		f[k] = make([]float64, c.nt)
	}
	for n, idx := range c.cols {
		f[idx/c.nt][idx%c.nt] = ls.X[1+n]
	}
	return f
}

// solvePhase runs solveRounds; when the backend gives no duals (gonum's
// dense simplex can fail to on badly scaled instances) it puts every
// column in and solves once more, and says so.
func (c *coshhLP) solvePhase(sol *COSHHSolution) (*Solution, error) {
	ls, err := c.solveRounds()
	if err == nil || c.full || !isNoDuals(err) {
		return ls, err
	}
	sol.Messages = append(sol.Messages, fmt.Sprintf("column generation stopped (%v); solved with every column instead", err))
	sol.Method = Full
	c.full = true
	c.add(c.allColumns())
	return c.solveRounds()
}
