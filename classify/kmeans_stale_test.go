package classify

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// freshSums returns the chunk-ordered means and counts of r's current
// assignment with every chunk's partial sums formed anew (what sums did
// before it kept the clean chunks' sums).
func freshSums(r *run) ([]float64, []int) {
	f := &run{pts: r.pts, n: r.n, d: r.d, k: r.k, workers: 1, centers: r.centers, assign: r.assign}
	f.chunkSums = make([]float64, f.chunks()*f.k*f.d)
	f.chunkCount = make([]int, f.chunks()*f.k)
	f.stale = make([]bool, f.chunks())
	for ch := range f.stale {
		f.stale[ch] = true
	}
	c, n := make([]float64, f.k*f.d), make([]int, f.k)
	f.sums(c, n)
	return c, n
}

// TestSumsKeepCleanChunks changes random assignments over several rounds,
// marking their chunks stale, and checks that sums gives the same bits as
// forming every chunk's sums anew.
func TestSumsKeepCleanChunks(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 20; trial++ {
		n := 1 + rng.IntN(5*chunkRows)
		d, k := 1+rng.IntN(9), 1+rng.IntN(12)
		r := &run{pts: make([]float64, n*d), n: n, d: d, k: k, workers: 1 + rng.IntN(3)}
		for i := range r.pts {
			r.pts[i] = rng.NormFloat64() * math.Exp(3*rng.Float64())
		}
		r.centers = make([]float64, k*d)
		r.assign = make([]int32, n)
		for i := range r.assign {
			r.assign[i] = int32(rng.IntN(k))
		}
		r.chunkSums = make([]float64, r.chunks()*k*d)
		r.chunkCount = make([]int, r.chunks()*k)
		r.stale = make([]bool, r.chunks())
		for ch := range r.stale {
			r.stale[ch] = true
		}
		for round := 0; round < 6; round++ {
			for m := rng.IntN(20); m > 0; m-- {
				i := rng.IntN(n)
				r.assign[i] = int32(rng.IntN(k))
				r.stale[i/chunkRows] = true
			}
			got, gotN := make([]float64, k*d), make([]int, k)
			r.sums(got, gotN)
			want, wantN := freshSums(r)
			if !slices.Equal(gotN, wantN) || !slices.EqualFunc(got, want, func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }) {
				t.Fatalf("trial %d (n=%d d=%d k=%d) round %d: kept sums give %v, fresh ones %v", trial, n, d, k, round, got, want)
			}
		}
	}
}

// TestLloydCentresAreFreshMeans checks, on logs of several chunks, that the
// centres KMeans returns are, to the bit, the chunk-ordered means of its
// final assignment formed anew (the clusters that keep rows), with and
// without Hamerly's bounds, and with empty clusters relocated (duplicate
// rows and uniform seeding, which draws equal rows).
func TestLloydCentresAreFreshMeans(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 12; trial++ {
		n := chunkRows + rng.IntN(4*chunkRows)
		d, k := 1+rng.IntN(8), 2+rng.IntN(14)
		x := mat.NewDense(n, d, nil)
		raw := x.RawMatrix().Data
		distinct := n
		if trial%3 == 0 {
			distinct = k + rng.IntN(3) // forces empty clusters to move
		}
		base := make([]float64, distinct*d)
		for i := range base {
			base[i] = rng.NormFloat64() * math.Exp(2*rng.Float64())
		}
		for i := 0; i < n; i++ {
			copy(raw[i*d:i*d+d], base[(i%distinct)*d:(i%distinct)*d+d])
		}
		for _, plain := range []bool{false, true} {
			res, err := KMeans(x, k, KMeansOptions{Init: Uniform, Seed: uint64(trial), Tol: -1, MaxIter: 60, Plain: plain, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			r := &run{pts: raw, n: n, d: d, k: k, centers: slices.Clone(res.Centroids.RawMatrix().Data), assign: res.Assign}
			want, counts := freshSums(r)
			got := res.Centroids.RawMatrix().Data
			for c := 0; c < k; c++ {
				if counts[c] == 0 {
					continue
				}
				for j := c * d; j < c*d+d; j++ {
					if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
						t.Fatalf("trial %d plain %v (n=%d d=%d k=%d, %d iterations): centre %d coordinate %d is %v, the fresh mean %v",
							trial, plain, n, d, k, res.Iterations, c, j-c*d, got[j], want[j])
					}
				}
			}
		}
	}
}
