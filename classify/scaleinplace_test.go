package classify

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestFitApplyScalesInPlace checks that the scaling a classification
// applies overwrites its feature matrix instead of allocating a scaled
// copy (the old code held both: 2 × 224 MB for the 7 M tuning jobs of a
// 10 M log at tune-coshh), with the bits Scaling.Apply gives a copy.
func TestFitApplyScalesInPlace(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	x := mat.NewDense(500, 4, nil)
	for i := range 500 {
		x.Set(i, 0, rng.Float64())
		x.Set(i, 1, math.Exp(10*rng.Float64()))
		x.Set(i, 2, 3)
		x.Set(i, 3, -rng.ExpFloat64())
	}
	raw := mat.DenseCopyOf(x)
	methods := []Method{ZScore, Log, ZScore, None}
	s, z, err := fitApply(x, methods, true)
	if err != nil {
		t.Fatal(err)
	}
	if z != x {
		t.Error("fitApply returned a scaled copy: want x scaled in place")
	}
	want := s.Apply(raw)
	r, c := want.Dims()
	for i := range r {
		for j := range c {
			if g, w := z.At(i, j), want.At(i, j); math.Float64bits(g) != math.Float64bits(w) {
				t.Fatalf("row %d, column %d: %v in place, %v by Apply", i, j, g, w)
			}
		}
	}
}
