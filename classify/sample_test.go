package classify

import (
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/schedplan/schedplan/data"
)

// swimLike returns a synthetic log of n jobs like the SWIM Facebook traces
// (issue 17's scale log): 20 users, Weibull(0.5) input bytes, shuffle and
// output bytes in three kinds of jobs, and sizes from the bytes.
func swimLike(n int, seed uint64) (*data.Jobs, []float64) {
	rng := rand.New(rand.NewPCG(seed, 17))
	users := make([]string, n)
	in, sh, out := make([]int64, n), make([]int64, n), make([]int64, n)
	prio := make([]int32, n)
	weibull := func(scale float64) float64 { return scale * math.Pow(-math.Log(1-rng.Float64()), 2) } // shape 0.5
	for i := range users {
		users[i] = "u" + string(rune('a'+rng.IntN(20)))
		kind := rng.IntN(3)
		in[i] = int64(weibull(1e8 * math.Pow(30, float64(kind))))
		sh[i] = int64(weibull(1e6 * math.Pow(100, float64(2-kind))))
		out[i] = int64(weibull(1e7))
		prio[i] = 1
	}
	j := synthetic(users, in, sh, out, prio)
	j.Priority = data.Column[int32]{}
	sizes := make([]float64, n)
	for i := range sizes {
		sizes[i] = float64(in[i]+5*sh[i]+out[i]) * 1e-9
	}
	return j, sizes
}

// TestSampledFitMatchesFull checks issue 17's bound: k chosen and centres
// fitted on a stratified sample, then refined on every row, give an
// inertia within 1% of a fit on every row (same k, same restarts), and the
// reported gap is the measured one.
func TestSampledFitMatchesFull(t *testing.T) {
	n := 200_000
	if testing.Short() {
		n = 60_000
	}
	j, sizes := swimLike(n, 1)
	for _, k := range []int{4, 8} {
		full, err := Classify(j, sizes, nil, Options{K: k, Restarts: 3, Sample: -1, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		sampled, err := Classify(j, sizes, nil, Options{K: k, Restarts: 3, Sample: 10_000, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if full.Sample != nil || sampled.Sample == nil {
			t.Fatalf("k=%d: sample info full=%v sampled=%v", k, full.Sample, sampled.Sample)
		}
		s := sampled.Sample
		if s.Of != n || s.Rows < 10_000 || s.Rows > 10_000+sampleStrata*minPerStratum || s.Strata < 2 {
			t.Errorf("k=%d: sample %+v", k, *s)
		}
		if sampled.Jobs() != n {
			t.Errorf("k=%d: %d jobs assigned, want %d", k, sampled.Jobs(), n)
		}
		if rel := sampled.Inertia/full.Inertia - 1; rel > 0.01 {
			t.Errorf("k=%d: sampled inertia %.6g is %.3g%% above the full fit's %.6g", k, sampled.Inertia, 100*rel, full.Inertia)
		}
		if math.Abs(s.Inertia-sampled.Inertia) > 1e-9*s.Inertia || s.SampleInertia < s.Inertia*(1-1e-9) {
			t.Errorf("k=%d: reported inertias %+v vs result %v", k, *s, sampled.Inertia)
		}
	}
}

// TestStratifiedSampleKeepsRareJobs: a log with 0.05% huge jobs keeps them
// in a 1% sample (a uniform sample would expect 5 of them; the strata give
// them their minimum), and the sample is deterministic by seed.
func TestStratifiedSampleKeepsRareJobs(t *testing.T) {
	const n = 100_000
	j, sizes := swimLike(n, 2)
	huge := 0
	for i := 0; i < n; i += 2000 {
		j.InputBytes.Values[i] = 1 << 50
		j.ShuffleBytes.Values[i] = 1 << 50
		j.OutputBytes.Values[i] = 1 << 50
		sizes[i] = 1e6
		huge++
	}
	res, err := Classify(j, sizes, nil, Options{K: 6, Restarts: 2, Sample: 1000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	// The huge jobs form a class of their own.
	c := res.ClassOf(0)
	for i := 0; i < n; i += 2000 {
		if res.ClassOf(i) != c {
			t.Fatalf("huge job %d in class %d, job 0 in %d", i, res.ClassOf(i), c)
		}
	}
	if got := res.Classes[c].Count; got != huge {
		t.Errorf("class of the huge jobs has %d jobs, want %d", got, huge)
	}
	again, _ := Classify(j, sizes, nil, Options{K: 6, Restarts: 2, Sample: 1000, Seed: 3})
	if again.Inertia != res.Inertia || *again.Sample != *res.Sample {
		t.Errorf("not deterministic: %v %+v vs %v %+v", res.Inertia, *res.Sample, again.Inertia, *again.Sample)
	}
}

// BenchmarkClassifyAutoScale is issue 17's classification target: the
// automatic choice of k (2..12, 10 restarts, default sample) on SWIM-like
// logs of 1 M and 10 M jobs, end to end (features, scaling, sample, k
// search, refinement on every row, class statistics). Target: 10 M in ≤ 60 s.
func BenchmarkClassifyAutoScale(b *testing.B) {
	for _, n := range []int{1_000_000, 10_000_000} {
		b.Run(strconv.Itoa(n/1_000_000)+"M", func(b *testing.B) {
			j, sizes := swimLike(n, 5)
			runtime.GC()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				r, err := Classify(j, sizes, nil, Options{Seed: uint64(i)})
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(time.Since(t0).Seconds(), "s/classification")
				b.ReportMetric(float64(r.K), "k")
				b.ReportMetric(100*r.Sample.Gap, "sample-gap-%")
			}
		})
	}
}
