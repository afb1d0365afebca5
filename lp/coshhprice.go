package lp

import (
	"math"
	"runtime"
	"sync"
)

// Pricing for the COSHH column generation. A round reads every (class,
// type) pair once, row by row of μ (O(classes × types), no dense copy of
// the LP), on up to priceWorkers goroutines that each own a block of
// classes, and returns for every class its priceClassTop best improving
// columns and for every type its best one. At 20,000 × 5,000 (10⁸ pairs) a
// round costs about 0.2 s of CPU.

const (
	// priceClassTop is how many improving columns of each class a round
	// adds (the class's best types at the current prices).
	priceClassTop = 16
	// priceWorkers bounds the goroutines of a pricing round.
	priceWorkers = 4
)

// pricer holds one round's duals in the form of the gain of column idx,
//
//	g = r(idx) a_k + b_t − cost(idx),
//
// the improvement of the objective per unit of the column (its reduced
// cost signed so that positive improves): in phase 1 (maximise λ) a = −y,
// b = −w and no cost; in phase 2 (minimise the canonical cost) a = y,
// b = w. A column improves when g beats the tolerance: 1e-11 λ in phase
// 1, 1e-9 of the column's cost in phase 2.
type pricer struct {
	c    *coshhLP
	a, b []float64
	tol1 float64
	maxB float64
}

// priceBest is one worker's result: per type its best column and gain,
// and (phase 1) the largest r a_k of the columns that passed the filter,
// in the master or not (the dual bound, see price).
type priceBest struct {
	idx  []int
	gain []float64
	ra   []float64
}

// price returns the columns to add (none: the master is optimal for the
// whole LP). In phase 1 it also sets c.priceBound to the upper bound on λ*
// that the class duals u = −y give (weak duality, as dualBound):
// Σ_t max_k r_kt u_k / Σ_k u_k, where a type whose columns all fall below
// the pricing filter counts w_t plus the tolerance (≥ its max_k r_kt u_k).
func (c *coshhLP) price(ls *Solution) []int {
	pr := &pricer{c: c, a: make([]float64, c.na), b: make([]float64, c.nt), maxB: math.Inf(-1)}
	y, w := ls.Duals[:c.na], ls.Duals[c.na:]
	sign := -1.0
	if c.phase2 {
		sign = 1
	}
	for k := range pr.a {
		pr.a[k] = sign * y[k]
	}
	for t := range pr.b {
		pr.b[t] = sign * w[t]
		pr.maxB = math.Max(pr.maxB, pr.b[t])
	}
	rel := 1e-11
	if c.priceTol > 0 {
		rel = c.priceTol
	}
	pr.tol1 = rel * math.Max(ls.Objective, 1e-300)
	workers := min(runtime.GOMAXPROCS(0), priceWorkers, max(1, c.na/64))
	tops := make([][priceClassTop]int, c.na) // -1: none
	bests := make([]priceBest, workers)
	var wg sync.WaitGroup
	for wk := 0; wk < workers; wk++ {
		wg.Add(1)
		go func(wk int) {
			defer wg.Done()
			bests[wk] = pr.scan(wk*c.na/workers, (wk+1)*c.na/workers, tops)
		}(wk)
	}
	wg.Wait()
	var add []int
	ub, sumA := 0.0, 0.0
	for t := 0; t < c.nt; t++ {
		bi, bg := -1, 0.0
		ra := math.Max(0, pr.tol1-pr.b[t])
		for _, b := range bests {
			if b.idx[t] >= 0 && (bi < 0 || b.gain[t] > bg) {
				bi, bg = b.idx[t], b.gain[t]
			}
			ra = math.Max(ra, b.ra[t])
		}
		if bi >= 0 {
			add = append(add, bi)
		}
		ub += ra
	}
	for _, a := range pr.a {
		sumA += math.Max(a, 0)
	}
	c.priceBound = math.Inf(1)
	if !c.phase2 && sumA > 0 {
		c.priceBound = ub / sumA
	}
	for k := range tops {
		for _, idx := range tops[k] {
			if idx >= 0 {
				add = append(add, idx)
			}
		}
	}
	return add
}

// scan prices classes [k0, k1): it fills tops[k] with each class's best
// improving columns (by gain, best first) and returns the best column of
// each type among these classes.
func (pr *pricer) scan(k0, k1 int, tops [][priceClassTop]int) priceBest {
	c := pr.c
	best := priceBest{idx: make([]int, c.nt), gain: make([]float64, c.nt), ra: make([]float64, c.nt)}
	for t := range best.idx {
		best.idx[t] = -1
	}
	counts := c.p.Counts
	// thr[t]: r a_k must exceed it (phase 1), before the exact check.
	thr := make([]float64, c.nt)
	for t := range thr {
		thr[t] = pr.tol1 - pr.b[t]
		thr[t] -= 1e-9 * math.Abs(thr[t]) // a loose filter; gain decides
	}
	var gains [priceClassTop]float64
	for k := k0; k < k1; k++ {
		top := &tops[k]
		for n := range top {
			top[n] = -1
		}
		ak := pr.a[k]
		if ak <= 0 && pr.maxB <= pr.tol1 && (!c.phase2 || pr.maxB <= 0) {
			continue // no column of this class can improve
		}
		i := c.active[k]
		mu := c.p.Mu[i][:c.nt]
		s := ak / c.p.Alpha[i]
		if !c.phase2 {
			for t, m := range mu {
				if m*counts[t]*s <= thr[t] {
					continue
				}
				pr.consider(k*c.nt+t, top, &gains, &best)
			}
			continue
		}
		// Phase 2: cost ≥ n_t fastest_k / μ (the tie-break factor is ≥ 1),
		// so r a + b ≤ that bound (times μ > 0 on both sides) cannot improve.
		f := c.fastest[k] * (1 - 1e-9)
		for t, m := range mu {
			n := counts[t]
			if m*(m*n*s+pr.b[t]) <= n*f {
				continue
			}
			pr.consider(k*c.nt+t, top, &gains, &best)
		}
	}
	return best
}

// consider computes column idx's exact gain and, if it improves and is not
// in the master, enters it in its class's top list and its type's best.
func (pr *pricer) consider(idx int, top *[priceClassTop]int, gains *[priceClassTop]float64, best *priceBest) {
	c := pr.c
	k, t := idx/c.nt, idx%c.nt
	r := c.rAt(k, t)
	if r == 0 {
		return
	}
	g, tol := r*pr.a[k]+pr.b[t], pr.tol1
	if c.phase2 {
		cost := c.cost(idx)
		g, tol = g-cost, 1e-9*cost
	}
	if !(g > tol) {
		return
	}
	if !c.phase2 {
		best.ra[t] = math.Max(best.ra[t], r*pr.a[k])
	}
	// The class's top list is sorted by gain, best first: n is where the
	// column would enter it (lim: it would not).
	lim := priceClassTop
	if c.classTop > 0 {
		lim = c.classTop
	}
	n := 0
	for n < lim && top[n] >= 0 && gains[n] >= g {
		n++
	}
	bestT := best.idx[t] < 0 || g > best.gain[t]
	if n == lim && !bestT {
		return // (before the master look-up)
	}
	if c.in.has(idx) {
		return
	}
	if bestT {
		best.idx[t], best.gain[t] = idx, g
	}
	if n == lim {
		return
	}
	copy(top[n+1:lim], top[n:lim-1])
	copy(gains[n+1:lim], gains[n:lim-1])
	top[n], gains[n] = idx, g
}
