package classify

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/schedplan/schedplan/data"
	"gonum.org/v1/gonum/mat"
)

// blobs returns n rows of d features drawn from k isotropic Gaussian blobs
// (standard deviation std) whose centres are uniform in [−10, 10]^d, as
// scikit-learn's make_blobs, but redrawn until every two centres are at
// least 6·std apart (so that the blobs are recoverable), and the blob of
// each row.
func blobs(n, d, k int, std float64, seed uint64) (*mat.Dense, []int32) {
	rng := rand.New(rand.NewPCG(seed, 7))
	centres := make([]float64, k*d)
	for c := 0; c < k; c++ {
	draw:
		for {
			for j := 0; j < d; j++ {
				centres[c*d+j] = -10 + 20*rng.Float64()
			}
			for o := 0; o < c; o++ {
				if sqDist(centres[c*d:c*d+d], centres[o*d:o*d+d]) < 36*std*std {
					continue draw
				}
			}
			break
		}
	}
	x := mat.NewDense(n, d, nil)
	raw := x.RawMatrix().Data
	truth := make([]int32, n)
	for i := 0; i < n; i++ {
		c := i % k
		truth[i] = int32(c)
		for j := 0; j < d; j++ {
			raw[i*d+j] = centres[c*d+j] + std*rng.NormFloat64()
		}
	}
	return x, truth
}

// BenchmarkKMeansMillion clusters 1,000,000 rows × 8 features (10 Gaussian
// blobs) into k = 10 with one restart; run it with -cpu 1 for the one-core
// figures. It reports the seconds of the whole call (k-means++ seeding
// included), of the seeding, and per Lloyd iteration; "plain" turns
// Hamerly's bounds off so that every iteration computes all n·k distances;
// "greedy" seeds with greedy k-means++.
func BenchmarkKMeansMillion(b *testing.B) {
	x, _ := blobs(1_000_000, 8, 10, 1, 1)
	for _, tc := range []struct {
		name  string
		plain bool
		init  Init
	}{{"hamerly", false, KMeansPlusPlus}, {"plain", true, KMeansPlusPlus}, {"greedy", false, GreedyKMeansPlusPlus}} {
		plain := tc.plain
		b.Run(tc.name, func(b *testing.B) {
			var iters int
			var total, seed, lloyd time.Duration
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				r, err := KMeans(x, 10, KMeansOptions{Seed: uint64(i), Restarts: 1, Plain: plain, Init: tc.init})
				if err != nil {
					b.Fatal(err)
				}
				total += time.Since(t0)
				seed += r.SeedTime
				lloyd += r.LloydTime
				iters += r.Iterations
			}
			b.ReportMetric(total.Seconds()/float64(b.N), "s/run")
			b.ReportMetric(seed.Seconds()/float64(b.N), "s-seed/run")
			b.ReportMetric(lloyd.Seconds()/float64(iters), "s/iter")
			b.ReportMetric(float64(iters)/float64(b.N), "iters/run")
		})
	}
}

// BenchmarkKMeansRestarts runs 4 restarts on the million-row blobs with one
// worker and with two, and reports the speed-up of the parallel restarts
// (run it with -cpu 2 or more; the machine's load shows in the figure).
func BenchmarkKMeansRestarts(b *testing.B) {
	x, _ := blobs(1_000_000, 8, 10, 1, 1)
	var t1, t2 time.Duration
	for i := 0; i < b.N; i++ {
		for _, w := range []int{1, 2} {
			t0 := time.Now()
			if _, err := KMeans(x, 10, KMeansOptions{Seed: uint64(i), Restarts: 4, Workers: w}); err != nil {
				b.Fatal(err)
			}
			if w == 1 {
				t1 += time.Since(t0)
			} else {
				t2 += time.Since(t0)
			}
		}
	}
	b.ReportMetric(t1.Seconds()/float64(b.N), "s-1worker")
	b.ReportMetric(t2.Seconds()/float64(b.N), "s-2workers")
	b.ReportMetric(t1.Seconds()/t2.Seconds(), "speedup")
}

// BenchmarkClassifyEmbedded is the default classification of the embedded
// trace (5,894 jobs, 4 features): k chosen over 2..12 by silhouette, 10
// restarts per k.
func BenchmarkClassifyEmbedded(b *testing.B) {
	j, sizes := embedded(b, "embedded")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Classify(j, sizes, nil, Options{Seed: uint64(i)}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSilhouette5000 is the sampled silhouette of 5,000 of 100,000
// rows × 4 features in 8 clusters (12.5 M distances per call).
func BenchmarkSilhouette5000(b *testing.B) {
	x, truth := blobs(100_000, 4, 8, 1, 3)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Silhouette(x, truth, 8, 5000, uint64(i), 0)
	}
}

// BenchmarkClassifyMillion classifies a synthetic log of 1,000,000 jobs
// (log-normal bytes in three kinds, four features) into k = 10 classes with
// one restart: feature extraction, scaling, k-means, sampled silhouette and
// class statistics, end to end.
func BenchmarkClassifyMillion(b *testing.B) {
	const n = 1_000_000
	rng := rand.New(rand.NewPCG(5, 5))
	users := make([]string, n)
	in, sh, out := make([]int64, n), make([]int64, n), make([]int64, n)
	prio := make([]int32, n)
	for i := range users {
		users[i] = "u"
		kind := float64(i % 3)
		in[i] = int64(math.Exp(10 + 4*kind + rng.NormFloat64()))
		sh[i] = int64(math.Exp(8 + 3*kind + rng.NormFloat64()))
		out[i] = int64(math.Exp(14 - 2*kind + rng.NormFloat64()))
		prio[i] = 1
	}
	j := synthetic(users, in, sh, out, prio)
	j.Priority = data.Column[int32]{}
	sizes := make([]float64, n)
	for i := range sizes {
		sizes[i] = float64(in[i]+5*sh[i]+out[i]) * 1e-9
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := Classify(j, sizes, nil, Options{K: 10, Restarts: 1, Seed: uint64(i)})
		if err != nil {
			b.Fatal(err)
		}
		if r.Jobs() != n {
			b.Fatal(r.Jobs())
		}
	}
}
