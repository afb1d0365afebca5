//go:build cgo

package lp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestCOSHHFoldedHandComputed checks the folded master (λ only, CLP) on
// instances whose λ is known by hand, including ones where a class must be
// split over several types (a folded class has to get its row back) and
// ones where every class stays folded.
func TestCOSHHFoldedHandComputed(t *testing.T) {
	cases := []struct {
		name   string
		alpha  []float64
		counts []float64
		mu     [][]float64
		want   float64
	}{
		{"one class one type", []float64{2}, []float64{3}, [][]float64{{4}}, 6},
		{"each class on its fast type", []float64{1, 1}, []float64{1, 1}, [][]float64{{2, 1}, {1, 2}}, 2},
		{"one class split over two types", []float64{1}, []float64{1, 1}, [][]float64{{1, 1}}, 2},
		{"two classes share one type", []float64{1, 3}, []float64{2}, [][]float64{{1}, {1}}, 0.5},
		{"shared cluster", []float64{1, 3}, []float64{1, 1}, [][]float64{{1, 1}, {1, 1}}, 0.5},
		// A runs only on X; B runs on both, 4× faster on X: B must leave X
		// to A. λ: A gets x of X (x = λ), B gets (1−x)·4 + 1 ≥ λ → λ = 1.
		{"slow type frees the fast one", []float64{1, 1}, []float64{1, 1}, [][]float64{{1, 0}, {4, 1}}, 1},
		// A type without machines and a class it alone would run fastest.
		{"empty type", []float64{1, 1}, []float64{0, 2}, [][]float64{{9, 1}, {9, 1}}, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := &COSHHProblem{Alpha: tc.alpha, Counts: tc.counts, Mu: tc.mu}
			for i := range tc.alpha {
				p.ClassNames = append(p.ClassNames, fmt.Sprintf("C%d", i))
			}
			for ty := range tc.counts {
				p.TypeNames = append(p.TypeNames, fmt.Sprintf("R%d", ty))
			}
			sol, err := SolveCOSHH(p, COSHHOptions{Solver: CLP, LambdaOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			if !near(sol.Lambda, tc.want, 1e-10) { // CLP's tolerance is masterTol = 1e-11
				t.Errorf("λ = %.15g, want %g", sol.Lambda, tc.want)
			}
			checkCOSHH(t, p, sol)
		})
	}
}

// TestCOSHHFoldedEqualsFull compares the folded master with the full
// textbook LP (one CLP solve of every column) on random instances of many
// shapes: λ to 1e-9 relative, a dual bound within 1e-9 λ, a feasible
// allocation and type duals that sum to λ; some instances must drop
// columns from the master and fold classes back.
func TestCOSHHFoldedEqualsFull(t *testing.T) {
	dropped, folded := 0, 0 // columns drop removed, classes foldBack folded, over all instances
	coshhTrace = func(format string, a ...any) {
		switch {
		case strings.HasPrefix(format, "dropped"):
			dropped += a[0].(int)
		case strings.HasPrefix(format, "folded back"):
			folded += a[0].(int)
		}
	}
	defer func() { coshhTrace = nil }()
	r := rand.New(rand.NewPCG(20000, 5000))
	sizes := [][2]int{{1, 1}, {1, 7}, {7, 1}, {3, 3}, {40, 5}, {5, 40}, {200, 20}, {300, 80}, {600, 60}}
	for n := 0; n < 3*len(sizes); n++ {
		sz := sizes[n%len(sizes)]
		p := randomCOSHH(r, sz[0], sz[1])
		if n%3 == 2 { // some types without machines
			for ty := range p.Counts {
				if r.Float64() < 0.2 {
					p.Counts[ty] = 0
				}
			}
		}
		full, err1 := SolveCOSHH(p, COSHHOptions{Solver: CLP, Method: Full, LambdaOnly: true})
		fold, err2 := SolveCOSHH(p, COSHHOptions{Solver: CLP, LambdaOnly: true})
		if err1 != nil || err2 != nil {
			if (err1 == nil) != (err2 == nil) {
				t.Fatalf("instance %d: full error %v, folded error %v", n, err1, err2)
			}
			continue // no machines at all
		}
		if len(full.Unservable) > 0 {
			if len(fold.Unservable) != len(full.Unservable) || fold.Lambda != 0 {
				t.Errorf("instance %d: folded λ = %g, unservable %v; full: %v", n, fold.Lambda, fold.Unservable, full.Unservable)
			}
			continue
		}
		if !near(fold.Lambda, full.Lambda, 1e-9) {
			t.Errorf("instance %d (%d×%d): folded λ = %.15g, full %.15g", n, sz[0], sz[1], fold.Lambda, full.Lambda)
		}
		if gap := fold.Bound - fold.Lambda; gap > 1e-9*fold.Lambda || gap < -1e-9*fold.Lambda {
			t.Errorf("instance %d: folded λ = %.15g, dual bound %.15g", n, fold.Lambda, fold.Bound)
		}
		checkCOSHH(t, p, fold)
		sum := 0.0
		for _, tl := range fold.Types {
			sum += tl.Dual
		}
		if !fold.HasDuals || !near(sum, fold.Lambda, 1e-7) {
			t.Errorf("instance %d: type duals (%v) sum to %.12g, λ = %.12g", n, fold.HasDuals, sum, fold.Lambda)
		}
	}
	if dropped == 0 || folded == 0 {
		t.Errorf("columns dropped %d, classes folded back %d: drop and foldBack must both be exercised", dropped, folded)
	}
}

// TestCOSHHCanonicalCertifiedLambda: the canonical allocation (capacity's
// default solve) and a warm re-solve report the λ the folded master
// certifies, the same float as λ alone (the what-ifs), with the dual bound
// within 1e-10. The old canonical path solved λ again on the explicit
// master and differed in the last digits (300 × 60: 2.9417702312341953
// against 2.9417702312341962; at 20,000 × 5,000 its gap was 1.2e-5).
func TestCOSHHCanonicalCertifiedLambda(t *testing.T) {
	for _, sz := range [][2]int{{300, 60}, {120, 30}, {40, 200}} {
		p := randomCOSHH(rand.New(rand.NewPCG(uint64(sz[0]), uint64(sz[1]))), sz[0], sz[1])
		lam, err := SolveCOSHH(p, COSHHOptions{Solver: CLP, LambdaOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		canon, err := SolveCOSHH(p, COSHHOptions{Solver: CLP})
		if err != nil {
			t.Fatal(err)
		}
		warm, err := SolveCOSHH(p, COSHHOptions{Solver: CLP, Warm: canon})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range []struct {
			name string
			sol  *COSHHSolution
		}{{"canonical", canon}, {"warm", warm}} {
			name := fmt.Sprintf("%d×%d %s", sz[0], sz[1], s.name)
			if !s.sol.Canonical {
				t.Errorf("%s: not the canonical allocation: %v", name, s.sol.Messages)
			}
			if s.name == "canonical" && s.sol.Lambda != lam.Lambda {
				t.Errorf("%s: λ = %.17g, λ alone %.17g", name, s.sol.Lambda, lam.Lambda)
			}
			if gap := s.sol.Bound - s.sol.Lambda; !(gap <= 1e-10*s.sol.Lambda) {
				t.Errorf("%s: dual bound %.17g, λ %.17g: gap %.3g", name, s.sol.Bound, s.sol.Lambda, gap)
			}
			if !near(s.sol.Lambda, lam.Lambda, 1e-12) {
				t.Errorf("%s: λ = %.17g, λ alone %.17g", name, s.sol.Lambda, lam.Lambda)
			}
		}
		if warm.Rounds >= canon.Rounds {
			t.Errorf("%d×%d: the warm re-solve took %d rounds, the cold one %d", sz[0], sz[1], warm.Rounds, canon.Rounds)
		}
	}
}

// TestCOSHHFoldedRecertify takes the path of an answer whose duals do not
// certify λ (at 20,000 × 5,000 with fewer class rows kept, CLP stopped 2.6e-10
// short of λ*, its reduced costs within tolerance but adding up over the
// types): the master solved afresh with λ's objective scaled, its duals
// scaled back, still gives λ* and a bound within 1e-10.
func TestCOSHHFoldedRecertify(t *testing.T) {
	for _, sz := range [][2]int{{300, 60}, {40, 200}} {
		p := randomCOSHH(rand.New(rand.NewPCG(uint64(sz[0]), uint64(sz[1]))), sz[0], sz[1])
		want, err := SolveCOSHH(p, COSHHOptions{Solver: CLP, LambdaOnly: true})
		if err != nil {
			t.Fatal(err)
		}
		foldRecertify = true
		got, err := SolveCOSHH(p, COSHHOptions{Solver: CLP, LambdaOnly: true})
		foldRecertify = false
		if err != nil {
			t.Fatal(err)
		}
		if !near(got.Lambda, want.Lambda, 1e-12) || !(got.Bound-got.Lambda <= 1e-10*got.Lambda) {
			t.Errorf("%d×%d: λ %.17g (bound %.17g), want %.17g", sz[0], sz[1], got.Lambda, got.Bound, want.Lambda)
		}
		sum := 0.0
		for _, tl := range got.Types {
			sum += tl.Dual
		}
		if !near(sum, got.Lambda, 1e-9) {
			t.Errorf("%d×%d: the type duals sum to %.12g, not λ = %.12g (scaled back?)", sz[0], sz[1], sum, got.Lambda)
		}
	}
}

// TestFoldedLambdaColumnsSparse checks that λ's coefficients in the folded
// master are spread over columns of about lambdaCopyRows type rows each
// (one column with an entry in every type row made CLP's factorisation
// walk it at each row it eliminated), that the copies are equal and that
// λ is certified by its dual bound.
func TestFoldedLambdaColumnsSparse(t *testing.T) {
	for _, sz := range [][2]int{{40, 5}, {1200, 1000}} {
		p := randomCOSHH(rand.New(rand.NewPCG(uint64(sz[0]), uint64(sz[1]))), sz[0], sz[1])
		active := make([]int, sz[0])
		for i := range active {
			active[i] = i
		}
		f := newCOSHHFold(p, active, nil)
		ls, _, err := f.solveRounds()
		if err != nil {
			f.cm.free()
			t.Fatal(err)
		}
		classRows := f.classRows()
		for j := 0; j < f.copies; j++ {
			index, _ := f.cm.column(j)
			// its type rows, its share of the class rows, two link rows
			if want := lambdaCopyRows + classRows/f.copies + 1 + 2; len(index) > want {
				t.Errorf("%d×%d: λ column %d has %d entries, want at most %d", sz[0], sz[1], j, len(index), want)
			}
			if d := ls.X[j] - ls.X[0]; math.Abs(d) > 1e-9*ls.X[0] {
				t.Errorf("%d×%d: λ copy %d = %.15g, λ = %.15g", sz[0], sz[1], j, ls.X[j], ls.X[0])
			}
		}
		f.cm.free()
		if gap := f.bound - ls.X[0]; math.Abs(gap) > 1e-10*ls.X[0] {
			t.Errorf("%d×%d: λ %.15g, dual bound %.15g", sz[0], sz[1], ls.X[0], f.bound)
		}
	}
}
