package lp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// sameAllocation reports where two solutions' allocations or suggested sets
// differ (δ to an absolute 1e-9 of a type), or "".
func sameAllocation(a, b *COSHHSolution) string {
	for i := range a.Delta {
		for t := range a.Delta[i] {
			if d := math.Abs(a.Delta[i][t] - b.Delta[i][t]); d > 1e-9 {
				return fmt.Sprintf("δ[%d][%d] = %.12g and %.12g", i, t, a.Delta[i][t], b.Delta[i][t])
			}
		}
	}
	if fmt.Sprint(a.Suggested) != fmt.Sprint(b.Suggested) {
		return fmt.Sprintf("suggested sets %v and %v", a.Suggested, b.Suggested)
	}
	return ""
}

// The canonical allocation is the same for CLP and gonum, by column
// generation and in full, on 50 random instances; it serves every class
// λα_i (to the canonical slack) and no more, and the type duals sum to λ.
func TestCOSHHCanonicalAgrees(t *testing.T) {
	if !CLPAvailable() {
		t.Skip("needs both backends")
	}
	r := rand.New(rand.NewPCG(7, 2026))
	sizes := [][2]int{{2, 2}, {3, 5}, {10, 4}, {20, 10}, {8, 8}}
	unpolished := 0
	defer func() {
		if unpolished > 0 {
			t.Errorf("%d of 200 canonical allocations were not polished", unpolished)
		}
	}()
	for n := 0; n < 50; n++ {
		sz := sizes[n%len(sizes)]
		p := randomCOSHH(r, sz[0], sz[1])
		if n%5 == 4 {
			// Rank-one μ (μ_it = speed_t / size_i): every allocation that
			// keeps each class at λα_i is optimal for the first LP.
			for i := range p.Mu {
				size := math.Exp(r.NormFloat64())
				for ty := range p.Mu[i] {
					p.Mu[i][ty] = float64(ty+1) / size
				}
			}
		}
		var ref *COSHHSolution
		for _, s := range backends() {
			for _, meth := range methods() {
				sol, err := SolveCOSHH(p, COSHHOptions{Solver: s, Method: meth})
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("instance %d (%d×%d) %s %v", n, sz[0], sz[1], s, meth)
				if !sol.Canonical || sol.CanonicalSlack > CanonicalTol {
					t.Fatalf("%s: not canonical at slack %g: %v", name, CanonicalTol, sol.Messages)
				}
				checkCanonical(t, name, p, sol)
				if !sol.Polished {
					unpolished++
				}
				if ref == nil {
					ref = sol
					continue
				}
				if !near(sol.Lambda, ref.Lambda, 1e-9) {
					t.Errorf("%s: λ = %.12g, reference %.12g", name, sol.Lambda, ref.Lambda)
				}
				if d := sameAllocation(ref, sol); d != "" {
					t.Errorf("%s: differs from %s %v: %s", name, ref.Solver, ref.Method, d)
				}
			}
		}
	}
}

// checkCanonical checks the canonical allocation's invariants: each class
// served λα_i within the slack (not more), types within their machines,
// duals summing to λ with a positive one on every bottleneck, and at most
// classes + types non-zero δ (a vertex).
func checkCanonical(t *testing.T, name string, p *COSHHProblem, sol *COSHHSolution) {
	t.Helper()
	nz := 0
	for i, a := range p.Alpha {
		got := 0.0
		for ty, v := range sol.Machines[i] {
			got += p.Mu[i][ty] * v
			if v > 0 {
				nz++
			}
		}
		if want := sol.Lambda * a; math.Abs(got-want) > 1e-8*want {
			t.Errorf("%s: class %s served %.12g, want λα = %.12g", name, p.ClassNames[i], got, want)
		}
	}
	if nz > len(p.Alpha)+len(p.Counts) {
		t.Errorf("%s: %d non-zero δ, more than classes + types = %d", name, nz, len(p.Alpha)+len(p.Counts))
	}
	sum := 0.0
	for _, tl := range sol.Types {
		if tl.Allocated > 1+1e-9 {
			t.Errorf("%s: type %s allocated %g", name, tl.Name, tl.Allocated)
		}
		if tl.Bottleneck && tl.Allocated < 1-1e-8 {
			t.Errorf("%s: bottleneck type %s (dual %g) allocated only %g", name, tl.Name, tl.Dual, tl.Allocated)
		}
		sum += tl.Dual
	}
	if sol.HasDuals && !near(sum, sol.Lambda, 1e-7) {
		t.Errorf("%s: type duals sum to %.12g, not λ = %.12g", name, sum, sol.Lambda)
	}
}

// A warm-started re-solve (COSHHOptions.Warm: the previous solution's
// columns, here of the problem before a re-classification moved α and μ)
// gives the same λ and the same canonical allocation as a cold solve, on
// both backends; the warm start needs no more pricing rounds, one by one
// when the re-classification kept every class, and in total. (A dropped
// class that bound λ can make the previous allocation a poor start: on
// CLP's folded master, instance 3 takes 11 rounds warm, 9 cold; the 20
// take 74 warm, 198 cold.)
func TestCOSHHWarmResolve(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 2026))
	coldRounds, warmRounds := map[Solver]int{}, map[Solver]int{}
	for n := 0; n < 20; n++ {
		p := randomCOSHH(r, 30, 8)
		q := perturbed(p, r)
		if n%4 == 3 {
			// A re-classification with one class fewer: names still match.
			q.ClassNames, q.Alpha, q.Mu = q.ClassNames[:29], q.Alpha[:29], q.Mu[:29]
		}
		for _, s := range backends() {
			prev, err := SolveCOSHH(p, COSHHOptions{Solver: s})
			if err != nil {
				t.Fatal(err)
			}
			cold, err := SolveCOSHH(q, COSHHOptions{Solver: s})
			if err != nil {
				t.Fatal(err)
			}
			warm, err := SolveCOSHH(q, COSHHOptions{Solver: s, Warm: prev})
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("instance %d %s", n, s)
			if !near(warm.Lambda, cold.Lambda, 1e-9) {
				t.Errorf("%s: warm λ = %.12g, cold %.12g", name, warm.Lambda, cold.Lambda)
			}
			if d := sameAllocation(cold, warm); d != "" {
				t.Errorf("%s: warm and cold allocations differ: %s", name, d)
			}
			if n%4 != 3 && warm.Rounds > cold.Rounds {
				t.Errorf("%s: warm start took %d rounds, cold %d", name, warm.Rounds, cold.Rounds)
			}
			coldRounds[s] += cold.Rounds
			warmRounds[s] += warm.Rounds
		}
	}
	for s, cold := range coldRounds {
		if warmRounds[s] > cold {
			t.Errorf("%s: warm starts took %d rounds in all, cold %d", s, warmRounds[s], cold)
		}
	}
}
