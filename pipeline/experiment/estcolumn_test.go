package experiment

import (
	"context"
	"runtime"
	"testing"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/estimate"
)

// TestErrorRunsCopyNoJobs checks that a run with estimation errors costs
// a column of estimates (8 B a job) beyond what an exact run costs, not a
// copy of the jobs (64 B a job: every worker held one, 0.2 GB each at the
// 10 M log's 3 M-job validation window).
func TestErrorRunsCopyNoJobs(t *testing.T) {
	const n = 100_000
	jobs := make([]sim.Job, n)
	for i := range jobs {
		s := 0.2 + float64(i%9)/10
		jobs[i] = sim.Job{Arrival: float64(i), Size: s, Estimate: s}
	}
	alloc := func(errs estimate.ErrorModel) uint64 {
		x := &Experiment{Jobs: jobs, Capacity: 1, Policies: []string{"pfsp"}, Errors: errs, Runs: 1, Seed: 3}
		if _, err := x.Run(context.Background(), RunOptions{Workers: 1}); err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := x.Run(context.Background(), RunOptions{Workers: 1}); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	exact := alloc(estimate.ErrorModel{})
	sigma := alloc(estimate.ErrorModel{Kind: estimate.LogNormal, Sigma: 1})
	if sigma > exact+16*n {
		t.Errorf("a σ = 1 run allocated %d B, an exact one %d B: %.1f B a job more (want at most 16: the estimate column)", sigma, exact, float64(sigma-exact)/n)
	}
}
