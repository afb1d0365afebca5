package classify

import (
	"math"
	"math/rand/v2"
	"runtime"
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

// TestFitApplyHoldsNoColumn checks that scaling in place allocates no
// column of the matrix (the old code read each column into an n-row
// buffer: 76 MB at a 10 M-row classification, at classify's peak), and
// that FitScaling, which leaves x as it is, fits the same scaling.
func TestFitApplyHoldsNoColumn(t *testing.T) {
	const n = 200_000
	rng := rand.New(rand.NewPCG(3, 4))
	x := mat.NewDense(n, 3, nil)
	for i := range n {
		x.Set(i, 0, math.Exp(20*rng.Float64()))
		x.Set(i, 1, rng.NormFloat64())
		x.Set(i, 2, float64(rng.IntN(5)))
	}
	methods := []Method{LogUnit, ZScore, Log}
	fit, err := FitScaling(x, methods)
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	s, _, err := fitApply(x, methods, true)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if got := after.TotalAlloc - before.TotalAlloc; got >= n*8/4 {
		t.Errorf("fitApply in place allocated %d B: a column is %d", got, n*8)
	}
	for j := range methods {
		if s.Mean[j] != fit.Mean[j] || s.Std[j] != fit.Std[j] || s.Unit != nil && s.Unit[j] != fit.Unit[j] {
			t.Errorf("feature %d: in place mean %v sd %v, FitScaling %v %v", j, s.Mean[j], s.Std[j], fit.Mean[j], fit.Std[j])
		}
	}
}
