package classify

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestFitApplyViews checks fitApply in place on views of a larger matrix
// (Stride ≠ Cols, the view starting at a row and column offset), with
// NaN, ±Inf, ±0 and subnormal values among ordinary ones: the view's
// values are, to the bit, Scaling.Apply's of a compact copy with the
// scaling FitScaling fits on it, and no element of the parent outside the
// view changes.
func TestFitApplyViews(t *testing.T) {
	specials := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 5e-324, -1e-300, 1e308}
	for _, tc := range []struct {
		name           string
		pr, pc         int // parent's dims
		r0, c0, n, d   int // the view
		methods        []Method
		specialsToo    bool
		constantColumn bool
	}{
		{"compact", 30, 4, 0, 0, 30, 4, []Method{None, ZScore, Log, LogUnit}, false, false},
		{"inner view", 40, 7, 3, 2, 30, 4, []Method{None, ZScore, Log, LogUnit}, false, false},
		{"one column", 20, 5, 1, 4, 12, 1, []Method{LogUnit}, false, false},
		{"one row", 6, 6, 5, 1, 1, 3, []Method{ZScore, Log, LogUnit}, false, false},
		{"specials", 50, 6, 5, 1, 40, 4, []Method{None, ZScore, Log, LogUnit}, true, false},
		{"constant", 25, 5, 2, 1, 20, 3, []Method{ZScore, Log, LogUnit}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tc.pr), uint64(tc.pc)))
			parent := mat.NewDense(tc.pr, tc.pc, nil)
			for i := range tc.pr {
				for j := range tc.pc {
					v := rng.NormFloat64() * math.Exp(8*rng.Float64())
					if tc.specialsToo && rng.IntN(4) == 0 {
						v = specials[rng.IntN(len(specials))]
					}
					if tc.constantColumn {
						v = 3
					}
					parent.Set(i, j, v)
				}
			}
			before := mat.DenseCopyOf(parent)
			view := parent.Slice(tc.r0, tc.r0+tc.n, tc.c0, tc.c0+tc.d).(*mat.Dense)
			compact := mat.DenseCopyOf(view)
			fit, err := FitScaling(compact, tc.methods)
			if err != nil {
				t.Fatal(err)
			}
			want := fit.Apply(compact)
			s, z, err := fitApply(view, tc.methods, true)
			if err != nil {
				t.Fatal(err)
			}
			if z != view {
				t.Fatal("fitApply returned another matrix than the view")
			}
			for j := range tc.d {
				if math.Float64bits(s.Mean[j]) != math.Float64bits(fit.Mean[j]) || math.Float64bits(s.Std[j]) != math.Float64bits(fit.Std[j]) {
					t.Errorf("feature %d: mean %v sd %v on the view, %v %v on a copy", j, s.Mean[j], s.Std[j], fit.Mean[j], fit.Std[j])
				}
			}
			for i := range tc.pr {
				for j := range tc.pc {
					got := parent.At(i, j)
					w := before.At(i, j)
					in := i >= tc.r0 && i < tc.r0+tc.n && j >= tc.c0 && j < tc.c0+tc.d
					if in {
						w = want.At(i-tc.r0, j-tc.c0)
					}
					if math.Float64bits(got) != math.Float64bits(w) {
						t.Fatalf("parent row %d, column %d (in the view: %v): %v, want %v", i, j, in, got, w)
					}
				}
			}
		})
	}
}

// TestFitApplyBadMethodLeavesX checks that an unknown method, in any
// column, is refused before any column is scaled: x is left as it was
// (the old code scaled the columns before the bad one, then erred).
func TestFitApplyBadMethodLeavesX(t *testing.T) {
	x := mat.NewDense(5, 3, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15})
	before := mat.DenseCopyOf(x)
	for _, methods := range [][]Method{{"bogus", Log, ZScore}, {Log, ZScore, "bogus"}, {Log, Auto, ZScore}} {
		if _, _, err := fitApply(x, methods, true); err == nil {
			t.Errorf("%q: no error", methods)
		}
		if !mat.Equal(x, before) {
			t.Fatalf("%q: x changed by a refused scaling:\n%v", methods, mat.Formatted(x))
		}
	}
}
