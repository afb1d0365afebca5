package tuner

import (
	"context"
	"math"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/schedplan/schedplan/cluster/sim"
)

// The tuner simulates a schedule once per window: LAS_MQ candidates that
// differ only in queues no job of the window reaches (sim.LASMQ.Reach)
// share one simulation, within a batch and across batches.
func TestTuneCVSimulatesEachScheduleOnce(t *testing.T) {
	jobs := poissonJobs(2, 3000, 1.2, 8) // every job below 8: deep levels are unreachable
	inner := SimulateWindows(nil, 1)
	var mu sync.Mutex
	seen := map[scoreKey]int{}
	calls := 0
	count := func(ctx context.Context, spec string, w *ScoreWindow, keep bool) (Score, []float64, error) {
		if !keep {
			mu.Lock()
			seen[(&tuneCV{}).scoreKey(spec, w)]++
			calls++
			mu.Unlock()
		}
		return inner(ctx, spec, w, keep)
	}
	res, err := TuneCV(context.Background(), jobs, 1, TuneOptions{Budget: 120, Folds: 3, SampleJobs: 500}, count)
	if err != nil {
		t.Fatal(err)
	}
	for k, n := range seen {
		if n > 1 {
			t.Errorf("%s simulated %d times on one window", k.spec, n)
		}
	}
	tasks := 0
	for _, c := range res.Candidates {
		n := 1
		if c.UsesEstimates {
			n = len(res.Sigmas)
		}
		tasks += n * len(res.Folds)
		if c.Whole && c.Sampled != nil {
			tasks += n * len(res.Folds) // scored on the sampled folds, then whole
		}
	}
	if calls >= tasks {
		t.Errorf("%d simulations for %d scores: no schedule was shared, the test does not exercise the cut", calls, tasks)
	}
}

// poissonJobs draws n jobs with exponential gaps of mean gap and
// log-normal sizes (σ 1) cut at maxSize, estimates exact.
func poissonJobs(seed uint64, n int, gap, maxSize float64) []sim.Job {
	rng := rand.New(rand.NewPCG(30, seed))
	jobs := make([]sim.Job, n)
	at := 0.0
	for i := range jobs {
		at += rng.ExpFloat64() * gap
		s := math.Min(math.Exp(rng.NormFloat64()), maxSize)
		jobs[i] = sim.Job{Arrival: at, Size: s, Estimate: s}
	}
	return jobs
}
