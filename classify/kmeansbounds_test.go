package classify

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestBounds32 checks that up32 and down32 round outward: up32(x) ≥ x and
// down32(x) ≤ x, each the nearest float32 on its side (within one float32
// step), through overflow, infinities and zero.
func TestBounds32(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	xs := []float64{0, 1, 0.1, 1e-40, math.MaxFloat32, 2 * math.MaxFloat32, math.Inf(1), 1 + 1e-12, 3.0000001}
	for range 10000 {
		xs = append(xs, math.Exp(80*rng.Float64()-40))
	}
	for _, x := range xs {
		u, l := up32(x), down32(x)
		if float64(u) < x || float64(l) > x {
			t.Fatalf("x %v: up32 %v, down32 %v: not outward", x, u, l)
		}
		if !math.IsInf(x, 0) && x <= math.MaxFloat32 && (float64(math.Nextafter32(u, 0)) >= x && u != 0 || float64(math.Nextafter32(l, float32(math.Inf(1)))) <= x) {
			t.Fatalf("x %v: up32 %v, down32 %v: not the nearest float32 on their side", x, u, l)
		}
	}
	if !math.IsNaN(float64(up32(math.NaN()))) || !math.IsNaN(float64(down32(math.NaN()))) {
		t.Error("NaN not kept")
	}
}

// TestHamerly32MatchesLloydOnTies compares the bounded algorithm (its
// bounds in float32) with the plain one on data of few distinct values:
// many rows equal, many distances equal, where a bound that is not a
// bound, or a tie broken otherwise than the exact check breaks it, would
// show. Same iterations, assignments and inertia. (With more centres than
// distinct rows the two differ already with float64 bounds — an emptied
// centre is relocated after different passes —, so k stays below them.)
func TestHamerly32MatchesLloydOnTies(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := range 60 {
		n := 200 + rng.IntN(4000)
		d := 1 + rng.IntN(4)
		vals := 3 + rng.IntN(8)
		k := 2 + rng.IntN(vals-2)
		x := mat.NewDense(n, d, nil)
		for i := range x.RawMatrix().Data {
			x.RawMatrix().Data[i] = float64(rng.IntN(vals)) * []float64{1, 0.5, 1e6, 1e-3}[trial%4]
		}
		opt := KMeansOptions{Seed: uint64(trial), Tol: -1, MaxIter: 100}
		h, err := KMeans(x, k, opt)
		if err != nil {
			t.Fatal(err)
		}
		opt.Plain = true
		p, err := KMeans(x, k, opt)
		if err != nil {
			t.Fatal(err)
		}
		if h.Iterations != p.Iterations || !slices.Equal(h.Assign, p.Assign) || h.Inertia != p.Inertia {
			t.Errorf("trial %d (n=%d d=%d k=%d, %d values): Hamerly %d iterations, inertia %v; Lloyd %d iterations, inertia %v",
				trial, n, d, k, vals, h.Iterations, h.Inertia, p.Iterations, p.Inertia)
		}
	}
}

// TestLloydBoundsBytes checks that a run's bounds take 8 B a row (two
// float32), not 16: the heap a 300,000-row, 3-feature k-means allocates
// beside its points and assignment stays under 12 B a row.
func TestLloydBoundsBytes(t *testing.T) {
	const n, d = 300_000, 3
	rng := rand.New(rand.NewPCG(9, 10))
	pts := make([]float64, n*d)
	for i := range pts {
		pts[i] = rng.NormFloat64()
	}
	r := &run{pts: pts, n: n, d: d, k: 8, workers: 1}
	r.seedUniform(rand.New(rand.NewPCG(1, 1)))
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	r.lloyd(3, -1)
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got >= 12*n+1<<20 {
		t.Errorf("lloyd allocated %d B for %d rows: %.1f B a row, want the assignment (4) and two float32 bounds (8)", got, n, float64(got)/n)
	}
}
