package pipeline

import (
	"context"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/tuner"
	"github.com/schedplan/schedplan/pipeline/validation"
)

// BenchmarkValidateFluid runs the validate stage's fluid simulations (the
// default configurations, σ and load factors of planValidation, results
// summarised by a sink that writes nothing) over a synthetic window of
// 100,000 Poisson jobs with exponential sizes at load 0.9, and prints the
// simulations' CPU cost per job (ns/job) and the heap the stage adds per
// job at its peak (peak-B/job: heap in use sampled every 10 ms, less the
// heap before).
func BenchmarkValidateFluid(b *testing.B) {
	const n = 100_000
	rng := rand.New(rand.NewPCG(17, 3))
	jobs := poissonJobs(rng, n, 0.9, func() float64 { return rng.ExpFloat64() })
	cfg := inputs.DefaultRunConfig()
	sizes := make([]float64, n)
	for i, j := range jobs {
		sizes[i] = j.Size
	}
	guess := tuner.FirstGuess(sizes, 4)
	tr := &tuner.TuneReport{Result: &tuner.TuneResult{FirstGuess: guess}, Best: guess}
	in := &inputs.Inputs{Config: cfg, SimJobs: jobs, Split: experiment.Split{TuneJobs: 0, ValidJobs: n}, Capacity: 1}
	bounds, err := experiment.ComputeBounds(jobs, 1)
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	stop := make(chan struct{})
	peak := make(chan uint64)
	go func() {
		p := uint64(0)
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			p = max(p, m.HeapInuse)
			select {
			case <-stop:
				peak <- p
				return
			case <-t.C:
			}
		}
	}()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		plan, err := validation.PlanValidation(in, tr, tr.Best, bounds)
		if err != nil {
			b.Fatal(err)
		}
		rs, err := experiment.NewResultsSink(nil, nil, nil, make([]int32, n), 0, make([]string, len(plan.Configs)))
		if err != nil {
			b.Fatal(err)
		}
		plan.Exact.Sink = rs.Sink
		if _, _, err := plan.Run(context.Background(), experiment.RunOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	close(stop)
	p := <-peak
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/job")
	b.ReportMetric(float64(p-min(p, base.HeapInuse))/n, "peak-B/job")
}
