package lp

import (
	"fmt"
	"math"
	"time"
)

// The canonical allocation. The COSHH LP's optimum λ* is unique, its
// allocation δ is not (with μ of rank one, for example, any split of every
// type among the classes that keeps each class at λ*α_i is optimal), so two
// solvers, or one solver from two starting bases, give different δ and
// suggested sets. SolveCOSHH therefore solves a second LP at λ held to its
// optimum,
//
//	minimise Σ_it c_it δ_it  s.t.  Σ_t μ_it δ_it ≥ λ_lo α_i,  Σ_i δ_it ≤ n_t,  δ ≥ 0,
//	λ_lo = λ* (see below for the slack),
//
// with the cost of a machine of type t given to class i
//
//	c_it = (max_t' μ_it' / μ_it) · (1 + TieBreak · h(i, t)),
//
// the machine weighted by how much slower class i runs there than on its
// fastest type, times a tie-break factor from a fixed hash h(i, t) ∈ [0, 1)
// of the class's and the type's positions in the problem. The first factor
// makes the allocation meaningful: every class gets exactly λ_lo α_i of
// service (no more: spare machines stay unallocated), each class as much as
// possible on the types where it runs fastest relative to its best one. The
// second makes the weights distinct and not of the form a_i + b_t, so that
// no two allocations (no edge of the optimal face) cost the same unless the
// data conspire with the hash: the optimum is then a unique vertex, found
// by CLP and gonum alike, with at most classes + types non-zero δ (so few
// classes per type). Solving it from the first LP's optimal basis (its
// point stays feasible at λ_lo ≤ λ*), by column generation with the same
// pricing, costs a few more simplex iterations.
//
// λ_lo is λ* itself first (the first LP's optimum is feasible there, so
// the second LP starts from a feasible basis); when a solver finds that
// infeasible, or its answer breaks a row by more than a relative 1e-9
// (badly scaled instances), λ_lo is lowered by a relative CanonicalTol =
// 1e-13, then 1e-10, 1e-9, 1e-8 (COSHHSolution.CanonicalSlack), and if all
// fail the allocation is the first LP's (with a message). A slack frees
// that fraction of every bottleneck type, which the second LP may hand to a
// class (a sliver of the order of the slack times the ratio of two classes'
// rates there); the third pass (polish, coshhpolish.go) leaves slivers
// below 1e-7 of a type out and recomputes the vertex from its support, by
// the same code for both solvers. The reported λ is λ*. Finally a δ_it
// that serves less than 1e-12 of class i's λ α_i is set to 0, so that the
// suggested sets, δ > Eps = 1e-9, are the same for both solvers.
const (
	// AllocationRule names the rule above (cached plans made by another
	// rule are recomputed).
	AllocationRule = "canonical-v1: min Σ δ·slowdown·(1+1e-3·hash) at λ*, polished"
	// CanonicalTol is the first non-zero relative slack of λ tried by the
	// canonical LP.
	CanonicalTol = 1e-13
	// TieBreak is the relative size of the canonical cost's tie-break.
	TieBreak = 1e-3
	// deltaZero: a δ_it that serves less than this fraction of class i's
	// λ α_i is set to 0.
	deltaZero = 1e-12
)

// canonicalSlacks are the relative slacks of λ tried in turn: CanonicalTol,
// then larger ones for a badly scaled instance whose λ* the solver found
// only to its feasibility tolerance.
var canonicalSlacks = []float64{0, CanonicalTol, 1e-10, 1e-9, 1e-8}

// canonicalLadder solves phase 2 at each slack until one gives an
// allocation that checkServes accepts, and records it in sol.
func (c *coshhLP) canonicalLadder(sol *COSHHSolution) ([][]float64, error) {
	var err error
	for _, slack := range canonicalSlacks {
		var ls *Solution
		ls, err = c.canonical(sol.Lambda*(1-slack), sol)
		if err != nil {
			continue
		}
		f := c.fractions(ls)
		if err = c.checkServes(f, sol.Lambda*(1-slack)); err == nil {
			sol.Canonical, sol.CanonicalRounds, sol.CanonicalSlack = true, c.rounds, slack
			if pf := c.polish(f, sol.Lambda*(1-slack)); pf != nil {
				f, sol.Polished = pf, true
			}
			return f, nil
		}
	}
	return nil, err
}

// canonicalOr runs canonicalLadder, timing it in sol, and returns its
// allocation, or first (the first LP's) with a message when it fails.
func (c *coshhLP) canonicalOr(first [][]float64, sol *COSHHSolution) [][]float64 {
	t0 := time.Now()
	f, err := c.canonicalLadder(sol)
	sol.CanonicalTime = time.Since(t0)
	if err != nil {
		sol.Messages = append(sol.Messages, fmt.Sprintf("the canonical allocation LP failed (%v): the allocation is the first LP's, one of many optimal ones", err))
		return first
	}
	return f
}

// canonical runs phase 2 on the master: λ ≥ lambdaLo, objective Σ c f (costs per fraction of a type: n_t c_it).
func (c *coshhLP) canonical(lambdaLo float64, sol *COSHHSolution) (*Solution, error) {
	if !c.phase2 {
		c.canonicalCosts()
	}
	obj := make([]float64, 1+len(c.cols))
	lo := make([]float64, 1+len(c.cols))
	lo[0] = lambdaLo
	for n, idx := range c.cols {
		obj[1+n] = c.cost(idx)
	}
	c.ms.setObjective(Minimize, obj, lo)
	c.rounds = 0
	return c.solvePhase(sol)
}

// canonicalCosts switches the columns' objective to the phase 2 cost
// (see cost), computing each class's fastest rate.
func (c *coshhLP) canonicalCosts() {
	c.fastest = make([]float64, c.na)
	for k, i := range c.active {
		for t := 0; t < c.nt; t++ {
			if c.p.Mu[i][t] > 0 && c.p.Counts[t] > 0 {
				c.fastest[k] = math.Max(c.fastest[k], c.p.Mu[i][t])
			}
		}
	}
	c.phase2 = true
}

// cost is column idx's phase 2 cost per fraction of its type: n_t c_it
// (0 where there is no column).
func (c *coshhLP) cost(idx int) float64 {
	k, t := idx/c.nt, idx%c.nt
	i := c.active[k]
	mu := c.p.Mu[i][t]
	if !(mu > 0 && c.p.Counts[t] > 0) {
		return 0
	}
	return c.p.Counts[t] * c.fastest[k] / mu * (1 + TieBreak*tieHash(i, t))
}

// tieHash is a fixed pseudo-random number in [0, 1) for class i and type t
// (splitmix64 of the pair).
func tieHash(i, t int) float64 {
	z := uint64(i)<<32 ^ uint64(uint32(t)) + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	return float64(z>>11) / (1 << 53)
}

// checkServes verifies that fractions f serve every class λ α_i and use no
// type beyond its machines, to a relative 1e-9: a solver's optimum on a
// badly scaled instance can break a row by more than that within its own
// tolerances.
func (c *coshhLP) checkServes(f [][]float64, lambda float64) error {
	for k, i := range c.active {
		served := 0.0
		for t := 0; t < c.nt; t++ {
			if f[k][t] > 0 {
				served += c.rAt(k, t) * f[k][t]
			}
		}
		if served < lambda*(1-1e-9) {
			return fmt.Errorf("class %s is served %.10g × its arrival rate, below λ = %.10g", c.p.ClassNames[i], served, lambda)
		}
	}
	for t := 0; t < c.nt; t++ {
		sum := 0.0
		for k := range c.active {
			if f[k][t] < -1e-12 {
				return fmt.Errorf("class %s has a negative allocation %g of type %s", c.p.ClassNames[c.active[k]], f[k][t], c.p.TypeNames[t])
			}
			sum += math.Max(f[k][t], 0)
		}
		if sum > 1+1e-9 {
			return fmt.Errorf("type %s is allocated %.10g of its machines", c.p.TypeNames[t], sum)
		}
	}
	return nil
}
