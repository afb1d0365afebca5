package lp

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// TestCOSHHPriceMatchesBruteForce checks the row-major parallel pricing
// against the gain of every column computed one by one, for random duals
// in both phases: every column returned improves and is outside the
// master, each class's best improving columns (up to priceClassTop) and
// each type's best one are returned, and nothing is returned when no
// column improves.
func TestCOSHHPriceMatchesBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 2026))
	for n := 0; n < 40; n++ {
		nc, nt := 1+r.IntN(300), 1+r.IntN(40)
		p := randomCOSHH(r, nc, nt)
		active := make([]int, nc)
		for i := range active {
			active[i] = i
		}
		c := &coshhLP{p: p, active: active, na: nc, nt: nt, in: newColSet(nc * nt)}
		for idx := 0; idx < nc*nt; idx++ {
			if r.Float64() < 0.05 && c.r(idx) > 0 {
				c.in.add(idx)
				c.cols = append(c.cols, idx)
			}
		}
		if n%2 == 1 {
			c.canonicalCosts()
		}
		ls := &Solution{Objective: 1 + r.Float64(), Duals: make([]float64, nc+nt)}
		for k := 0; k < nc; k++ { // phase 1: y ≤ 0 on some classes; phase 2: y ≥ 0
			if r.Float64() < 0.3 {
				ls.Duals[k] = r.ExpFloat64() * 1e-3
			}
		}
		for tt := 0; tt < nt; tt++ {
			ls.Duals[nc+tt] = r.ExpFloat64() * 0.1
		}
		if !c.phase2 {
			for k := range ls.Duals {
				ls.Duals[k] = -ls.Duals[k]
			}
		}
		got := map[int]bool{}
		for _, idx := range c.price(ls) {
			got[idx] = true
		}
		gain := func(idx int) (float64, bool) { // brute force, as the old pricing did
			k, tt := idx/nt, idx%nt
			rr := c.r(idx)
			if rr == 0 {
				return 0, false
			}
			rc := -rr*ls.Duals[k] - ls.Duals[nc+tt]
			if !c.phase2 {
				return rc, rc > 1e-11*ls.Objective
			}
			g := -(c.cost(idx) + rc)
			return g, g > 1e-9*c.cost(idx)
		}
		typeBest := make([]int, nt)
		typeGain := make([]float64, nt)
		for tt := range typeBest {
			typeBest[tt] = -1
		}
		for k := 0; k < nc; k++ {
			var imp []int
			for tt := 0; tt < nt; tt++ {
				idx := k*nt + tt
				g, ok := gain(idx)
				if in := c.in.has(idx); in || !ok {
					if got[idx] {
						t.Fatalf("instance %d phase2=%v: column %d returned but gain %g (in master %v)", n, c.phase2, idx, g, in)
					}
					continue
				}
				imp = append(imp, idx)
				if typeBest[tt] < 0 || g > typeGain[tt] {
					typeBest[tt], typeGain[tt] = idx, g
				}
			}
			sort.Slice(imp, func(a, b int) bool { ga, _ := gain(imp[a]); gb, _ := gain(imp[b]); return ga > gb })
			for _, idx := range imp[:min(len(imp), priceClassTop)] {
				if !got[idx] {
					g, _ := gain(idx)
					t.Fatalf("instance %d phase2=%v: class %d's improving column %d (gain %g) not returned", n, c.phase2, k, idx, g)
				}
			}
		}
		for tt, idx := range typeBest {
			if idx >= 0 && !got[idx] {
				t.Fatalf("instance %d: type %d's best column %d not returned", n, tt, idx)
			}
		}
	}
}

// TestCOSHHColGenFewRounds: at 2,000 × 500 (BenchmarkCOSHH's instance)
// column generation on the explicit master (the one the canonical
// allocation continues on) proves λ optimal (dual bound within 1e-12 λ) in
// a few rounds — the first master holds the heavy classes' fastest types
// (initialCounts) and a round adds each class's best columns. The old
// master (two types per class, one column per class and type a round)
// took 22 rounds. The folded master (λ only) takes more, cheaper rounds
// (each moves a few classes out of λ's column) and gives the same λ.
func TestCOSHHColGenFewRounds(t *testing.T) {
	if testing.Short() || !CLPAvailable() {
		t.Skip("2,000 × 500 with CLP")
	}
	p := randomCOSHH(rand.New(rand.NewPCG(2000, 500)), 2000, 500)
	active := make([]int, len(p.Alpha))
	for i := range active {
		active[i] = i
	}
	c, err := newCOSHHLP(p, active, CLP, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()
	ls, err := c.solvePhase(&COSHHSolution{})
	if err != nil {
		t.Fatal(err)
	}
	if c.rounds > 8 {
		t.Errorf("column generation took %d rounds", c.rounds)
	}
	if bound := c.dualBound(ls.Duals[:c.na]); math.Abs(bound-ls.X[0]) > 1e-12*ls.X[0] {
		t.Errorf("λ = %.15g, dual bound %.15g", ls.X[0], bound)
	}
	sol, err := SolveCOSHH(p, COSHHOptions{Solver: CLP, LambdaOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if gap := sol.Bound - sol.Lambda; math.Abs(gap) > 1e-12*sol.Lambda {
		t.Errorf("folded: λ = %.15g, dual bound %.15g", sol.Lambda, sol.Bound)
	}
	if !near(sol.Lambda, ls.X[0], 1e-12) {
		t.Errorf("folded λ = %.15g, explicit master %.15g", sol.Lambda, ls.X[0])
	}
	checkCOSHH(t, p, sol)
}

// TestCOSHHColGenEqualsFullMid compares column generation with the full
// LP on random mid-size instances to 1e-9 (relative), for CLP.
func TestCOSHHColGenEqualsFullMid(t *testing.T) {
	if !CLPAvailable() {
		t.Skip("CLP")
	}
	r := rand.New(rand.NewPCG(300, 2026))
	for n := 0; n < 4; n++ {
		nc, nt := 100+r.IntN(300), 20+r.IntN(60)
		p := randomCOSHH(r, nc, nt)
		full, err := SolveCOSHH(p, COSHHOptions{Solver: CLP, Method: Full, LambdaOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		cg, err := SolveCOSHH(p, COSHHOptions{Solver: CLP, LambdaOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		if !near(cg.Lambda, full.Lambda, 1e-9) {
			t.Errorf("%d×%d: column generation λ = %.15g, full %.15g", nc, nt, cg.Lambda, full.Lambda)
		}
	}
}

// TestCOSHHFullLambdaOnly: Full with LambdaOnly solves the textbook model;
// λ, the allocation's feasibility and the type duals (which sum to λ)
// agree with column generation on the scaled master.
func TestCOSHHFullLambdaOnly(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 2026))
	for n := 0; n < 6; n++ {
		p := randomCOSHH(r, 5+r.IntN(40), 2+r.IntN(10))
		for _, s := range backends() {
			full, err := SolveCOSHH(p, COSHHOptions{Solver: s, Method: Full, LambdaOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			cg, err := SolveCOSHH(p, COSHHOptions{Solver: s, LambdaOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			if !near(full.Lambda, cg.Lambda, 1e-9) {
				t.Errorf("instance %d %s: full λ = %.15g, column generation %.15g", n, s, full.Lambda, cg.Lambda)
			}
			checkCOSHH(t, p, full)
			if full.HasDuals {
				sum := 0.0
				for _, tl := range full.Types {
					sum += tl.Dual
				}
				if !near(sum, full.Lambda, 1e-7) {
					t.Errorf("instance %d %s: type duals sum to %.12g, λ = %.12g", n, s, sum, full.Lambda)
				}
			}
		}
	}
}

// TestCOSHHDualBoundAndClassBests checks the row-major, parallel dual bound
// and the one-pass class maxima against their definitions computed pair by
// pair with rAt: the bound to 1e-14 relative (it multiplies μ n by u/α
// instead of dividing each pair), each class's best r and fastest μ to the
// bit, on instances with types without machines, classes that run on few
// types and classes whose dual is 0.
func TestCOSHHDualBoundAndClassBests(t *testing.T) {
	r := rand.New(rand.NewPCG(30, 60))
	for n := 0; n < 30; n++ {
		nc, nt := 1+r.IntN(400), 1+r.IntN(60)
		p := randomCOSHH(r, nc, nt)
		for tt := range p.Counts {
			if r.Float64() < 0.1 {
				p.Counts[tt] = 0
			}
		}
		var active []int
		for i := range p.Alpha {
			for tt, m := range p.Mu[i] {
				if m > 0 && p.Counts[tt] > 0 {
					active = append(active, i)
					break
				}
			}
		}
		if len(active) == 0 {
			continue
		}
		c := &coshhLP{p: p, active: active, na: len(active), nt: nt}
		y := make([]float64, c.na)
		for k := range y {
			if r.Float64() < 0.7 {
				y[k] = -r.ExpFloat64()
			}
		}
		sum := 0.0
		for _, v := range y {
			sum += -v
		}
		want := 0.0
		if sum == 0 {
			want = math.Inf(1)
		} else {
			for tt := 0; tt < nt; tt++ {
				best := 0.0
				for k := range y {
					best = math.Max(best, c.rAt(k, tt)*(-y[k]/sum))
				}
				want += best
			}
		}
		if got := c.dualBound(y); !(got == want || math.Abs(got-want) <= 1e-14*want) {
			t.Errorf("instance %d (%d × %d): dualBound %.17g, pair by pair %.17g", n, c.na, nt, got, want)
		}
		bestR, fastMu := c.classBests()
		for k, i := range active {
			br, fm := 0.0, 0.0
			for tt := 0; tt < nt; tt++ {
				br = math.Max(br, c.rAt(k, tt))
				if p.Counts[tt] > 0 {
					fm = math.Max(fm, p.Mu[i][tt])
				}
			}
			if bestR[k] != br || fastMu[k] != fm {
				t.Errorf("instance %d class %d: classBests (%v, %v), pair by pair (%v, %v)", n, k, bestR[k], fastMu[k], br, fm)
			}
		}
	}
}

// TestColSet checks the master's column set against a map on random
// adds and removes: membership, the count, add's "was new" answer and
// the ascending listing.
func TestColSet(t *testing.T) {
	r := rand.New(rand.NewPCG(60, 5000))
	for _, size := range []int{1, 63, 64, 65, 1000, 12345} {
		s := newColSet(size)
		want := map[int]bool{}
		for n := 0; n < 4*size; n++ {
			idx := r.IntN(size)
			if r.Float64() < 0.6 {
				if got := s.add(idx); got == want[idx] {
					t.Fatalf("size %d: add(%d) = %v with %d already in: %v", size, idx, got, idx, want[idx])
				}
				want[idx] = true
			} else {
				s.remove(idx)
				delete(want, idx)
			}
			if s.has(idx) != want[idx] || s.len() != len(want) {
				t.Fatalf("size %d after op on %d: has %v len %d, want %v %d", size, idx, s.has(idx), s.len(), want[idx], len(want))
			}
		}
		var list []int
		for idx := range want {
			list = append(list, idx)
		}
		sort.Ints(list)
		got := s.appendAll(nil)
		if len(got) != len(list) {
			t.Fatalf("size %d: listed %d columns, want %d", size, len(got), len(list))
		}
		for i := range got {
			if got[i] != list[i] {
				t.Fatalf("size %d: listing %v, want %v", size, got, list)
			}
		}
	}
}
