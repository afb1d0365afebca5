//go:build cgo

package lp

import (
	"fmt"
	"math"
	"sort"
	"time"
)

// The folded master: λ alone (COSHHOptions.LambdaOnly) by column generation
// on CLP, with a master whose rows are the types and only those classes
// that need more than one type.
//
// A class k that the master serves on one type h alone ("folded" at home
// h) needs f_kh = λ / r_kh of it: the class row is dropped and the column
// folded into λ's, which then has Σ_{k folded at t} 1/r_kt in type row t:
//
//	maximise λ  s.t.  Σ_t r_kt f_kt − λ ≥ 0     (classes with a row)
//	                  Σ_k f_kt + a_t λ ≤ 1       (types; a_t from the folded classes)
//
// a restriction of the scaled LP (coshhLP), so its λ is feasible; its
// duals, with u_k = w_h / r_kh for a folded class (the folded column's
// reduced cost is 0), are duals of the whole LP, priced by the same code
// (price, dualBound). A folded class with an improving column gets its row
// back, with its home column basic and its row at its bound, so the
// previous optimum stays a basic feasible point and CLP's primal simplex
// continues from it.
//
// λ is held in several equal columns, each with the coefficients of about
// lambdaCopyRows type rows and its share of the class rows, joined by rows
// λ_j − λ_{j+1} = 0 (a single column with 10⁴ entries made CLP's
// factorisation walk it at every row it eliminated).
//
// Every class starts folded at the type greedyHomes gives it; after the
// first solve the heavy classes (those that need a large share of a type,
// see heavy) get their rows and their fastest types' columns. A priced
// folded class brings foldedTop columns (at most unfoldCap × types such
// classes a round, see limitFolded); a class with a row gets its
// foldClassTop best improving columns a round. After each solve,
// non-basic columns far from pricing in leave the master (drop), and a
// class that the master serves on one type alone, with no improving
// column, is folded back (foldBack). Rounds run at CLP's default
// tolerances (pricing at 1e-9 λ) until nothing improves, then at
// masterTol (pricing at 1e-11 λ) until nothing improves: the answer has
// the same certificate as coshhLP's.
//
// What it gains: CLP's iterations (steepest-edge pricing and the ratio
// test over the master, whose basis inverse is dense through λ's column,
// and refactorisation) are nearly all the CPU, and their cost grows
// faster than the master's rows. A basic optimum has at most types − 1
// classes on two or more types; with foldBack the master of 5,000 ×
// 1,250 keeps about 1,250 class rows instead of 5,000.
type coshhFold struct {
	c  *coshhLP // the problem, r, price and dualBound; c.in holds every master and folded column
	cm *clpModel
	// home[k] is folded class k's type, -1 once it has a row; row[k] is its
	// master row then (types are rows 0..nt-1).
	home, row []int
	// lamCoef[t] is λ's coefficient in type row t (a_t).
	lamCoef []float64
	// copies is the number of λ's columns (see lambdaCopies); the master's
	// columns start at column copies, its class rows at row nt+copies-1.
	copies int
	cols   []int // master columns after λ's (idx = k*nt+t)
	warm   []int // the warm columns, added in the first round
	// center is the duals (as duals returns them) with the least dual
	// bound so far, centerBound that bound (see priceStable).
	center      []float64
	centerBound float64
	tight       bool
	fresh       bool    // the master was solved afresh to certify λ
	objScale    float64 // λ's objective coefficient (duals divides by it)
	bound       float64 // the dual bound of the answer solveRounds returns
	// bestR and fastMu are each class's largest r and μ (classBests).
	bestR, fastMu []float64
	rounds        int
}

// foldClassTop is how many improving columns of a class with a row a
// round adds (priceClassTop on the explicit master).
const foldClassTop = 4

// certifiedGap is the relative gap between λ and the dual bound below
// which the folded master's answer is accepted without a fresh solve.
const certifiedGap = 1e-10

// foldRecertify, set by a test, takes the path of an uncertified answer.
var foldRecertify bool

// certifyScale is λ's objective coefficient in the last solve when the
// first answer at masterTol was not certified.
const certifyScale = 1e4

// looseTol is the pricing tolerance (relative to λ) while CLP runs at its
// default tolerances.
const looseTol = 1e-9

// solveCOSHHFolded solves phase 1 on the folded master (from opt.Warm's
// columns when set) and fills sol: λ, the type-row duals and the dual
// bound, which certifies λ. With opt.LambdaOnly the allocation is the
// folded master's (one of the optimal ones); else the canonical LP runs on
// an explicit master (coshhLP) that starts from the folded master's
// columns, at the certified λ.
func solveCOSHHFolded(p *COSHHProblem, active []int, opt COSHHOptions, sol *COSHHSolution) error {
	var warm []coshhColumn
	if opt.Warm != nil {
		warm = opt.Warm.columns
	}
	f := newCOSHHFold(p, active, warm)
	ls, duals, err := f.solveRounds()
	f.cm.free()
	if err != nil {
		return err
	}
	c := f.c
	sol.Lambda, sol.Rounds = ls.X[0], f.rounds
	sol.Bound = f.bound
	frac := f.fractions(ls)
	cols := f.columns()
	if !opt.LambdaOnly {
		cc, err := newCOSHHLPColumns(p, active, CLP, cols)
		if err != nil {
			return err
		}
		defer cc.close()
		frac = cc.canonicalOr(frac, sol)
		c = cc
	} else {
		c.cols = cols
	}
	sol.Columns = len(c.cols)
	sol.fill(p, active, frac, duals[c.na:], opt.Eps)
	sol.columns = sol.supportColumns(p, active)
	return nil
}

// supportColumns names the columns the allocation uses (a warm start from
// them, see newCOSHHFold, adds the previous allocation and no more).
func (sol *COSHHSolution) supportColumns(p *COSHHProblem, active []int) []coshhColumn {
	var out []coshhColumn
	for _, i := range active {
		for t, m := range sol.Machines[i] {
			if m > 0 {
				out = append(out, coshhColumn{p.ClassNames[i], p.TypeNames[t]})
			}
		}
	}
	return out
}

// fractions returns f[k][t] from the folded master's solution: a folded
// class takes λ / r of its home type.
func (f *coshhFold) fractions(ls *Solution) [][]float64 {
	c := f.c
	frac := make([][]float64, c.na)
	for k := range frac {
		frac[k] = make([]float64, c.nt)
		if h := f.home[k]; h >= 0 {
			frac[k][h] = ls.X[0] / c.rAt(k, h)
		}
	}
	for n, idx := range f.cols {
		frac[idx/c.nt][idx%c.nt] = ls.X[f.copies+n]
	}
	return frac
}

// columns lists the master's and the folded classes' columns, sorted.
func (f *coshhFold) columns() []int {
	return f.c.in.appendAll(make([]int, 0, f.c.in.len()))
}

// newCOSHHFold builds the master with every class folded at the type
// greedyHomes gives it. A warm start's columns (a previous solution's, see
// COSHHOptions.Warm) enter before the first solve: a class with one away
// from its home gets its row, so that the first solve can take the
// previous allocation or the greedy one, whichever serves more.
func newCOSHHFold(p *COSHHProblem, active []int, warm []coshhColumn) *coshhFold {
	c := &coshhLP{p: p, active: active, na: len(active), nt: len(p.Counts), in: newColSet(len(active) * len(p.Counts)), classTop: foldClassTop}
	f := &coshhFold{c: c, home: make([]int, c.na), row: make([]int, c.na), lamCoef: make([]float64, c.nt), centerBound: math.Inf(1), objScale: 1}
	f.bestR, f.fastMu = c.classBests()
	homes := c.greedyHomes(f.bestR)
	f.warm = c.warmColumns(warm)
	for k, h := range homes {
		f.home[k], f.row[k] = h, -1
		f.lamCoef[h] += 1 / c.rAt(k, h)
		c.in.add(k*c.nt + h)
	}
	m := NewModel("coshh-folded", Maximize)
	for t := 0; t < c.nt; t++ {
		m.AddRow("", LE(1))
	}
	f.copies = lambdaCopies(c.nt)
	for j := 0; j < f.copies; j++ {
		obj := 0.0
		if j == 0 {
			obj = 1
		}
		m.AddCol("lambda", obj, NonNeg())
	}
	for j := 0; j+1 < f.copies; j++ { // λ_j − λ_{j+1} = 0
		r := m.AddRow("", EQ(0))
		m.Set(r, j, 1)
		m.Set(r, j+1, -1)
	}
	for t, a := range f.lamCoef {
		if a != 0 {
			m.Set(t, f.typeCopy(t), a)
		}
	}
	f.cm = newCLP()
	f.cm.load(m)
	return f
}

// solveRounds solves the master and prices until no column improves at
// masterTol. It returns the last solution and the whole LP's duals
// (classes then types, CLP's signs).
func (f *coshhFold) solveRounds() (*Solution, []float64, error) {
	c := f.c
	how := clpInitial
	c.priceTol = looseTol
	f.grow(f.warm)
	for {
		if f.rounds >= maxRounds {
			return nil, nil, fmt.Errorf("coshh: column generation did not converge in %d rounds", maxRounds)
		}
		t0 := time.Now()
		ls, err := f.cm.solve(how)
		if err == nil && how == clpPrimal && ls.Status == Infeasible {
			ls, err = f.cm.solve(clpInitial) // as clpMaster.solve
		}
		if err != nil {
			return nil, nil, err
		}
		f.rounds++
		if ls.Status != Optimal {
			return nil, nil, fmt.Errorf("coshh: the folded restricted LP ended %v in round %d", ls.Status, f.rounds)
		}
		how = clpPrimal
		c.trace("round %d: %d class rows, %d columns, solve %v (%d iterations), λ %.15g", f.rounds, f.classRows(), len(f.cols), time.Since(t0), ls.Iterations, ls.X[0])
		duals := f.duals(ls)
		if !f.tight { // the last rounds run on a master that only grows
			f.drop(ls, duals)
			f.foldBack(ls, duals)
		}
		t0 = time.Now()
		add := f.priceStable(ls.X[0], duals)
		add = f.limitFolded(add, duals)
		if f.rounds == 1 {
			add = append(add, f.heavy()...)
		}
		n := f.grow(add)
		c.trace("round %d: priced %d columns, %d new, in %v; best bound λ + %.3g", f.rounds, len(add), n, time.Since(t0), f.centerBound-ls.X[0])
		if n > 0 {
			continue
		}
		if f.tight {
			f.bound = c.dualBound(duals[:c.na])
			gap := f.bound - ls.X[0]
			if (gap <= certifiedGap*ls.X[0] && !foldRecertify) || f.fresh {
				return ls, duals, nil
			}
			// The duals do not certify λ: CLP stopped at a basis whose
			// reduced costs are within its tolerance in the scaled model but
			// add up over thousands of types. Solve afresh once more with
			// λ's objective × certifyScale (every dual and reduced cost
			// grows by it, so the tolerance shrinks by it) and price every
			// improving column, however small its gain.
			c.trace("gap %.3g to the dual bound: solving the master afresh", gap)
			f.fresh, how = true, clpInitial
			f.objScale, c.priceTol = certifyScale, 1e-15
			f.cm.setObjectiveCoefficient(0, certifyScale)
			continue
		}
		// At masterTol, from a fresh solve: after the fold-backs, CLP's warm
		// primal has returned a basis whose duals did not certify λ.
		f.tight, how = true, clpInitial
		c.priceTol = 0
		f.cm.setTolerances(masterTol)
	}
}

// smoothAlpha is the weight of the best duals so far in the duals that
// priceStable prices with first.
const smoothAlpha = 0.5

// priceStable prices with smoothed duals (Wentges' dual smoothing): the
// master's duals swing from one extreme point to another between rounds
// (a type the master does not fill costs 0, so the types a class could
// move to look free), and the columns they price in improve λ little.
// Pricing at smoothAlpha × center + (1 − smoothAlpha) × the current duals,
// where center is the duals with the least dual bound so far, brings in
// columns of the allocation near the optimum instead. Of those, the ones
// that improve at the current duals are returned; when none does, the
// current duals are priced (and an empty answer there ends column
// generation as before). Every pricing's bound may become the center.
// The last rounds (tight) price at the current duals only: there each
// round moves λ by little, and the answer must be certified by them.
func (f *coshhFold) priceStable(lam float64, duals []float64) []int {
	c := f.c
	if f.center != nil && !f.tight {
		ps := make([]float64, len(duals))
		for i, d := range duals {
			ps[i] = smoothAlpha*f.center[i] + (1-smoothAlpha)*d
		}
		add := c.price(&Solution{Objective: lam, Duals: ps})
		f.moveCenter(ps)
		tol := c.priceTol
		if tol == 0 {
			tol = 1e-11
		}
		tol *= lam
		keep := add[:0]
		for _, idx := range add {
			if -c.r(idx)*duals[idx/c.nt]-duals[c.na+idx%c.nt] > tol {
				keep = append(keep, idx)
			}
		}
		if len(keep) > 0 {
			return keep
		}
	}
	add := c.price(&Solution{Objective: lam, Duals: duals})
	f.moveCenter(duals)
	return add
}

// moveCenter makes d the center if the last pricing's bound is the least.
func (f *coshhFold) moveCenter(d []float64) {
	if b := f.c.priceBound; b < f.centerBound {
		f.center = append(f.center[:0], d...)
		f.centerBound = b
	}
}

// duals returns the whole LP's row duals (classes then types) from the
// master's: a folded class's is its home type's divided by r.
func (f *coshhFold) duals(ls *Solution) []float64 {
	c := f.c
	d := make([]float64, c.na+c.nt)
	copy(d[c.na:], ls.Duals[:c.nt])
	for k := range f.home {
		if h := f.home[k]; h >= 0 {
			d[k] = -ls.Duals[h] / c.rAt(k, h)
		} else {
			d[k] = ls.Duals[f.row[k]]
		}
	}
	if f.objScale != 1 {
		for j := range d {
			d[j] /= f.objScale
		}
	}
	return d
}

// grow adds the priced columns: a folded class among them first gets its
// row and its home column (basic), and λ's coefficient in its home type
// loses its share. It returns the number of columns added.
func (f *coshhFold) grow(add []int) int {
	c := f.c
	sort.Ints(add)
	var rlo, rhi []float64
	var rstart, rindex []int32
	var rvalue []float64
	touched := map[int]bool{}
	nc := &newColumns{}
	basic := []int{}
	for n, idx := range add {
		if n > 0 && add[n-1] == idx {
			continue
		}
		if c.in.has(idx) {
			continue
		}
		k := idx / c.nt
		if h := f.home[k]; h >= 0 {
			f.row[k] = f.cm.nrows + len(rlo)
			rlo, rhi = append(rlo, 0), append(rhi, math.Inf(1))
			rstart = append(rstart, int32(len(rindex)))
			rindex, rvalue = append(rindex, int32(k%f.copies)), append(rvalue, -1)
			f.home[k] = -1
			touched[h] = true
			hidx := k*c.nt + h
			basic = append(basic, f.copies+len(f.cols))
			f.column(nc, hidx)
		}
		f.column(nc, idx)
	}
	if len(rlo) > 0 {
		rstart = append(rstart, int32(len(rindex)))
		first := f.cm.nrows
		f.cm.addRows(rlo, rhi, rstart, rindex, rvalue)
		for r := first; r < f.cm.nrows; r++ {
			f.cm.setRowStatus(r, clpAtLower)
		}
	}
	if len(touched) > 0 {
		f.setLambdaColumn()
	}
	if len(nc.obj) == 0 {
		return 0
	}
	first := f.cm.ncols
	f.cm.addColumns(nc.lo, nc.hi, nc.obj, nc.start, nc.index, nc.value)
	for j := first; j < f.cm.ncols; j++ {
		f.cm.setColumnStatus(j, clpAtLower)
	}
	for _, j := range basic {
		f.cm.setColumnStatus(j, clpBasic)
	}
	return len(nc.obj)
}

// setLambdaColumn recomputes λ's coefficient in every type row from the
// folded classes and changes those that differ in the master.
func (f *coshhFold) setLambdaColumn() {
	c := f.c
	a := make([]float64, c.nt)
	for k, h := range f.home {
		if h >= 0 {
			a[h] += 1 / c.rAt(k, h)
		}
	}
	rows := make([][]int, f.copies)
	vals := make([][]float64, f.copies)
	for t, v := range a {
		if v != f.lamCoef[t] {
			f.lamCoef[t] = v
			j := f.typeCopy(t)
			rows[j], vals[j] = append(rows[j], t), append(vals[j], v)
		}
	}
	for j := range rows {
		if len(rows[j]) > 0 {
			f.cm.setColumnCoefficients(j, rows[j], vals[j])
		}
	}
}

// column appends master column idx (r in its class's row, 1 in its type
// row) to nc and records it.
func (f *coshhFold) column(nc *newColumns, idx int) {
	c := f.c
	k, t := idx/c.nt, idx%c.nt
	c.in.add(idx)
	f.cols = append(f.cols, idx)
	nc.append(0, 0, math.Inf(1), []int32{int32(t), int32(f.row[k])}, []float64{1, c.r(idx)})
}

// greedyHomes assigns every class one type, greedily balancing the types'
// loads (the fraction of a type a class needs per unit of λ, 1/r): the
// classes that need the most go first, each to the type where the load
// after adding it is least. The folded master starts from this allocation,
// a feasible point whose λ is within a few per cent of λ* on random
// instances, instead of from the slack basis.
func (c *coshhLP) greedyHomes(bestR []float64) []int {
	need := make([]float64, c.na) // the least fraction of a type the class needs per unit of λ
	order := make([]int, c.na)
	for k := range order {
		order[k] = k
		need[k] = 1 / bestR[k]
	}
	sort.Slice(order, func(a, b int) bool { return need[order[a]] > need[order[b]] })
	load := make([]float64, c.nt)
	home := make([]int, c.na)
	for _, k := range order {
		i := c.active[k]
		mu, alpha := c.p.Mu[i][:c.nt], c.p.Alpha[i]
		bt, bl := -1, math.Inf(1)
		for t, m := range mu {
			if m <= 0 || c.p.Counts[t] <= 0 {
				continue
			}
			if l := load[t] + alpha/(m*c.p.Counts[t]); l < bl {
				bt, bl = t, l
			}
		}
		home[k] = bt // SolveCOSHH keeps only classes some type with machines runs
		load[bt] = bl
	}
	return home
}

// heavy returns the columns that give the heavy classes their rows at the
// start: a class that would fill more than heavyShare of a type at the λ
// the cluster would sustain if every class ran on its best type gets its
// initialCounts fastest types.
func (f *coshhFold) heavy() []int {
	c := f.c
	need := make([]float64, c.na)
	sum := 0.0
	for k := range need {
		need[k] = 1 / f.bestR[k]
		sum += need[k]
	}
	lamEst := float64(c.nt) / sum
	want := c.initialCounts(f.fastMu)
	var out, top []int
	for k, i := range c.active {
		if need[k]*lamEst <= heavyShare {
			continue
		}
		top = c.fastestTypes(i, want[k], top[:0])
		for _, t := range top {
			out = append(out, k*c.nt+t)
		}
	}
	return out
}

const heavyShare = 0.25

// foldedTop is how many priced columns a folded class brings when it gets
// its row (light classes run on one or two types at the optimum).
const foldedTop = 1

// limitFolded keeps, of the priced columns (price lists each type's best,
// then each class's best first), at most foldedTop per folded class, and
// columns of at most unfoldCap × types folded classes, those with the
// best gains: a round that would give most classes rows at once (when the
// prices move, many homes stop being the cheapest) makes a master as big
// as the explicit one; foldBack and later rounds move the rest.
func (f *coshhFold) limitFolded(add []int, duals []float64) []int {
	c := f.c
	gain := func(idx int) float64 { return -c.r(idx)*duals[idx/c.nt] - duals[c.na+idx%c.nt] }
	best := map[int]float64{} // folded class → its best priced gain
	for _, idx := range add {
		if k := idx / c.nt; f.home[k] >= 0 {
			if g, ok := best[k]; !ok || gain(idx) > g {
				best[k] = gain(idx)
			}
		}
	}
	capN := int(unfoldCap * float64(c.nt))
	allow := best
	if len(best) > capN {
		ks := make([]int, 0, len(best))
		for k := range best {
			ks = append(ks, k)
		}
		sort.Slice(ks, func(a, b int) bool {
			if best[ks[a]] != best[ks[b]] {
				return best[ks[a]] > best[ks[b]]
			}
			return ks[a] < ks[b]
		})
		allow = make(map[int]float64, capN)
		for _, k := range ks[:capN] {
			allow[k] = 0
		}
	}
	seen := map[int]int{}
	out := add[:0]
	for _, idx := range add {
		k := idx / c.nt
		if f.home[k] >= 0 {
			if _, ok := allow[k]; !ok || seen[k] >= foldedTop {
				continue
			}
			seen[k]++
		}
		out = append(out, idx)
	}
	return out
}

// unfoldCap bounds the folded classes a round gives rows, per type (0.5
// and foldBackKeep 1 took 12.2 CPU-s at 8,000 × 2,000; 1 and 0.5, 8.3).
const unfoldCap = 1

// dropGain: a non-basic column at 0 whose gain r u_k − w_t is below
// −dropGain w_t (its type costs it more than a tenth more than the
// type's price) leaves the master when the master has more than
// dropAbove columns per row; pricing brings it back if it improves again.
// CLP's iterations cost in proportion to the master's columns
// (steepest-edge pricing over them), and a round adds up to
// priceClassTop columns per class.
const (
	dropGain  = 0.1
	dropAbove = 2
)

// drop removes the master's columns that dropGain describes.
func (f *coshhFold) drop(ls *Solution, duals []float64) {
	c := f.c
	if len(f.cols) <= dropAbove*f.cm.nrows {
		return
	}
	n := f.removeColumns(func(n, idx int) bool {
		k, t := idx/c.nt, idx%c.nt
		w := duals[c.na+t]
		return ls.X[f.copies+n] == 0 && w > 0 && f.cm.columnStatus(f.copies+n) != clpBasic && -c.r(idx)*duals[k]-w < -dropGain*w
	})
	c.trace("dropped %d columns", n)
}

// removeColumns takes the master columns for which gone(position, idx)
// holds out of the master and c.in, and renumbers the others.
func (f *coshhFold) removeColumns(gone func(n, idx int) bool) int {
	c := f.c
	var which []int32
	keep := f.cols[:0]
	for n, idx := range f.cols {
		if gone(n, idx) {
			which = append(which, int32(f.copies+n))
			c.in.remove(idx)
			continue
		}
		keep = append(keep, idx)
	}
	f.cols = keep
	f.cm.deleteColumns(which)
	return len(which)
}

// foldBackMin: foldBack acts when at least this fraction of the class rows
// can go. foldBackKeep: it leaves foldBackKeep × types class rows (a
// master with too few rows moves a few classes a round, in many rounds).
const (
	foldBackMin  = 0.05
	foldBackKeep = 0.5
)

// foldBack folds classes with a row back into λ's column when the master
// serves them on one type alone, their row tight and that column basic,
// and none of their other columns improves: the row and the class's
// columns leave the master (the basis stays square: one row and one basic
// column go) and the point does not move. Pricing brings the class back
// if its other types improve again.
func (f *coshhFold) foldBack(ls *Solution, duals []float64) {
	c := f.c
	keep := int(foldBackKeep * float64(c.nt))
	if f.classRows() <= keep {
		return
	}
	const none, many = -1, -2
	only := make(map[int]int) // class with a row → its one serving column position, or many
	for n, idx := range f.cols {
		k := idx / c.nt
		if f.home[k] >= 0 {
			continue
		}
		if _, ok := only[k]; !ok {
			only[k] = none
		}
		basic := f.cm.columnStatus(f.copies+n) == clpBasic
		if ls.X[f.copies+n] > 0 || basic {
			if only[k] == none && basic && ls.X[f.copies+n] > 0 {
				only[k] = n
			} else {
				only[k] = many
			}
			continue
		}
		if gain := -c.r(idx)*duals[k] - duals[c.na+idx%c.nt]; gain > 0 {
			only[k] = many
		}
	}
	var fold []int
	for k, n := range only {
		if n >= 0 && f.cm.rowStatus(f.row[k]) != clpBasic {
			fold = append(fold, k)
		}
	}
	if float64(len(fold)) < foldBackMin*float64(f.classRows()) {
		return
	}
	sort.Ints(fold) // the same classes every run (map order is random)
	fold = fold[:min(len(fold), f.classRows()-keep)]
	rows := make([]int32, 0, len(fold))
	for _, k := range fold {
		n := only[k]
		f.home[k] = f.cols[n] % c.nt
		rows = append(rows, int32(f.row[k]))
		f.row[k] = -1
	}
	f.removeColumns(func(_, idx int) bool { return f.home[idx/c.nt] >= 0 })
	for _, k := range fold {
		c.in.add(k*c.nt + f.home[k])
	}
	f.cm.deleteRows(rows)
	// Renumber the remaining class rows (in their old order).
	sort.Slice(rows, func(a, b int) bool { return rows[a] < rows[b] })
	for k, r := range f.row {
		if r >= 0 {
			f.row[k] = r - sort.Search(len(rows), func(i int) bool { return int(rows[i]) >= r })
		}
	}
	f.setLambdaColumn()
	c.trace("folded back %d classes", len(fold))
}

// classRows is the number of class rows in the master.
func (f *coshhFold) classRows() int { return f.cm.nrows - f.c.nt - (f.copies - 1) }

// typeCopy is the λ column that holds type row t's a_t.
func (f *coshhFold) typeCopy(t int) int { return t * f.copies / f.c.nt }

// lambdaCopyRows is about how many type rows each of λ's columns holds.
// λ's coefficients (a_t in the type rows, −1 in the class rows) are spread
// over several columns held equal by rows λ_j − λ_{j+1} = 0: with one
// column of 10⁴ entries, CLP's factorisation (pivotOneOtherRow) walks that
// column at each row it eliminates, 15 % of the CPU at 20,000 × 5,000.
// Of 16, 64 and 256 rows a column, 256 took the least CPU there (CLP's
// solves 52.6, 48.1 and 46.8 CPU-s).
var lambdaCopyRows = 256

// lambdaCopies is the number of λ's columns for nt types.
func lambdaCopies(nt int) int {
	if lambdaCopyRows <= 0 {
		return 1
	}
	return max(1, (nt+lambdaCopyRows-1)/lambdaCopyRows)
}
