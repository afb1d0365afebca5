package sim

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
)

var benchSpecs = []string{"fifo", "ps", "gps", "srpt", "srpt+ps", "fsp+fifo", "fsp+ps", "las", "las_mq", "las_mq:k=10,alpha0=100,p=10,strict=true", "las_mq:k=10,alpha0=1,p=10,order=ps", "las_mq:k=10,alpha0=1,p=10,order=remaining", "las_mq:k=200,alpha0=0.0001,p=1.2,strict=true,order=ps", "pfsp"}

func traceJobs(b testing.TB, sigma float64) []Job {
	j, err := data.Open("embedded", data.ReadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	sizes, _, err := estimate.Sizes(j, estimate.DefaultSizeOptions())
	if err != nil {
		b.Fatal(err)
	}
	est := estimate.ErrorModel{Kind: estimate.LogNormal, Sigma: sigma}.Apply(sizes, estimate.RunRand(1, 0), nil)
	jobs := make([]Job, len(sizes))
	for i := range jobs {
		jobs[i] = Job{Arrival: j.Submit[i], Size: sizes[i], Estimate: est[i], Weight: 1}
	}
	return jobs
}

// synthetic draws n jobs with Weibull(shape 0.5, mean 1) sizes, Poisson
// arrivals at the given load on capacity 1, and log-normal(σ) estimates.
func synthetic(n int, load, sigma float64, seed uint64) []Job {
	rng := rand.New(rand.NewPCG(seed, 0))
	const k = 0.5
	scale := 1 / math.Gamma(1+1/k) // mean 1
	jobs := make([]Job, n)
	t := 0.0
	for i := range jobs {
		t += rng.ExpFloat64() / load
		s := scale * math.Pow(rng.ExpFloat64(), 1/k)
		jobs[i] = Job{Arrival: t, Size: s, Estimate: s * math.Exp(sigma*rng.NormFloat64()), Weight: 1}
	}
	return jobs
}

func benchPolicies(b *testing.B, jobs []Job) {
	for _, spec := range benchSpecs {
		b.Run(spec, func(b *testing.B) {
			var sim Simulator
			p := mustPolicy(b, spec)
			events := 0
			b.ReportAllocs()
			for b.Loop() {
				r, err := sim.Run(jobs, 1, p)
				if err != nil {
					b.Fatal(err)
				}
				events = r.Events
			}
			sec := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(float64(events), "events/run")
			b.ReportMetric(sec*1e9/float64(events), "ns/event")
			b.ReportMetric(float64(len(jobs))/sec, "jobs/s")
		})
	}
}

// BenchmarkTrace runs every policy on the embedded 5,894-job SWIM trace
// (exact sizes, and σ = 0.5 log-normal estimates).
func BenchmarkTrace(b *testing.B) {
	b.Run("exact", func(b *testing.B) { benchPolicies(b, traceJobs(b, 0)) })
	b.Run("sigma0.5", func(b *testing.B) { benchPolicies(b, traceJobs(b, 0.5)) })
}

var (
	synthOnce sync.Once
	synthJobs []Job
)

// BenchmarkSynthetic1M runs every policy on 1,000,000 jobs: Weibull(0.5)
// sizes, Poisson arrivals, load 0.9, log-normal σ = 0.5 estimates.
func BenchmarkSynthetic1M(b *testing.B) {
	synthOnce.Do(func() { synthJobs = synthetic(1_000_000, 0.9, 0.5, 1) })
	benchPolicies(b, synthJobs)
}

// BenchmarkMetrics measures the per-run cost of the metrics on the trace.
func BenchmarkMetrics(b *testing.B) {
	jobs := traceJobs(b, 0)
	r, err := Simulate(jobs, 1, &PS{})
	if err != nil {
		b.Fatal(err)
	}
	var m Metrics
	for b.Loop() {
		m.Compute(jobs, r.Completion, 1, r.Completion)
	}
}

var (
	cappedOnce sync.Once
	cappedJobs []Job
)

// BenchmarkSynthetic1MCapped runs the policies that honour rate caps on the
// 1M-job trace with a cap on 3 jobs in 4, log-uniform in [1%, 100%] of the
// capacity.
func BenchmarkSynthetic1MCapped(b *testing.B) {
	cappedOnce.Do(func() {
		cappedJobs = synthetic(1_000_000, 0.9, 0, 1)
		rng := rand.New(rand.NewPCG(2, 0))
		for i := range cappedJobs {
			if rng.IntN(4) != 0 {
				cappedJobs[i].Cap = math.Pow(10, -2*rng.Float64())
			}
		}
	})
	for _, spec := range []string{"fifo", "ps", "gps", "las_mq", "las_mq:k=10,alpha0=0.1,p=10"} {
		b.Run(spec, func(b *testing.B) {
			var sim Simulator
			p := mustPolicy(b, spec)
			events := 0
			for b.Loop() {
				r, err := sim.Run(cappedJobs, 1, p)
				if err != nil {
					b.Fatal(err)
				}
				events = r.Events
			}
			sec := b.Elapsed().Seconds() / float64(b.N)
			b.ReportMetric(sec*1e9/float64(events), "ns/event")
		})
	}
}
