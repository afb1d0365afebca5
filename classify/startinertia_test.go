package classify

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// inertiaAt returns Σ_i min_c ‖z_i − c‖² over the rows of z, as the
// sampled fit formed SampleInertia before KMeans returned StartInertia.
func inertiaAt(z *mat.Dense, centres *mat.Dense, workers int) float64 {
	n, d := z.Dims()
	k, _ := centres.Dims()
	cs := make([]float64, k*d)
	for c := 0; c < k; c++ {
		mat.Row(cs[c*d:(c+1)*d], c, centres)
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	r := &run{pts: rowMajor(z), n: n, d: d, k: k, workers: workers}
	r.chunkVal = make([]float64, r.chunks())
	r.forChunks(func(ch, lo, hi int) {
		dist := make([]float64, k)
		s := 0.0
		for i := lo; i < hi; i++ {
			distances(r.pts[i*d:i*d+d], cs, dist)
			s += slices.Min(dist)
		}
		r.chunkVal[ch] = s
	})
	total := 0.0
	for _, v := range r.chunkVal {
		total += v
	}
	return total
}

// rowMajor returns z's values as n × d row-major data (z's own storage
// when it has no padding).
func rowMajor(z *mat.Dense) []float64 {
	raw := z.RawMatrix()
	n, d := z.Dims()
	if raw.Stride == d {
		return raw.Data[:n*d]
	}
	out := make([]float64, n*d)
	for i := 0; i < n; i++ {
		copy(out[i*d:(i+1)*d], raw.Data[i*raw.Stride:i*raw.Stride+d])
	}
	return out
}

// TestStartInertiaMatchesInertiaAt checks, to the bit, that KMeans's
// StartInertia from given starting centres is the separate pass's sum
// (padded and unpadded matrices, one and two workers).
func TestStartInertiaMatchesInertiaAt(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for trial := 0; trial < 16; trial++ {
		n := 1 + rng.IntN(4*chunkRows)
		d, k := 1+rng.IntN(9), 1+rng.IntN(10)
		k = min(k, n)
		stride := d + trial%2
		x := mat.NewDense(n, stride, nil)
		for i := range x.RawMatrix().Data {
			x.RawMatrix().Data[i] = rng.NormFloat64() * math.Exp(2*rng.Float64())
		}
		z := x.Slice(0, n, 0, d).(*mat.Dense)
		start := mat.NewDense(k, d, nil)
		for i := range start.RawMatrix().Data {
			start.RawMatrix().Data[i] = rng.NormFloat64()
		}
		workers := 1 + trial%2
		res, err := KMeans(z, k, KMeansOptions{Start: start, Workers: workers, MaxIter: 1 + rng.IntN(5)})
		if err != nil {
			t.Fatal(err)
		}
		if want := inertiaAt(z, start, workers); math.Float64bits(res.StartInertia) != math.Float64bits(want) {
			t.Fatalf("trial %d (n=%d d=%d k=%d stride %d): StartInertia %v, the separate pass %v", trial, n, d, k, stride, res.StartInertia, want)
		}
	}
}
