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

// TestWorkerDropsUnusedBuffers checks that a worker keeps no buffer the
// run under way does not use: no copy of the jobs in a run with an
// estimate column, no column in a scaled run, no metrics in a mean-only
// one (the validate stage's last runs held all three, 0.2 GB a worker at
// 3 M jobs).
func TestWorkerDropsUnusedBuffers(t *testing.T) {
	jobs := make([]sim.Job, 1000)
	for i := range jobs {
		jobs[i] = sim.Job{Arrival: float64(i), Size: 0.5, Estimate: 0.5}
	}
	noDeadlines := func(*sim.Result) ([]float64, error) { return nil, nil }
	var w worker
	run := func(x *Experiment) {
		t.Helper()
		if _, err := x.check(); err != nil {
			t.Fatal(err)
		}
		in := x.Jobs
		if x.Scale > 0 {
			var err error
			if in, err = newScaledCopies([]*Experiment{x}, []unit{{}}).get(0, x); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := w.run(context.Background(), x, in, "srpt", 0, nil, nil, noDeadlines); err != nil {
			t.Fatal(err)
		}
	}
	run(&Experiment{Jobs: jobs, Capacity: 1, Policies: []string{"srpt"}, Runs: 1, Scale: 1.2})
	if w.jobs != nil {
		t.Fatal("a scaled run kept a copy of its own (the pool shares one)")
	}
	run(&Experiment{Jobs: jobs, Capacity: 1, Policies: []string{"srpt"}, Runs: 1, Seed: 1, Errors: estimate.ErrorModel{Kind: estimate.LogNormal, Sigma: 1}})
	if w.jobs != nil || len(w.est) != len(jobs) {
		t.Errorf("a run with errors: copy %d jobs, column %d (want none and %d)", len(w.jobs), len(w.est), len(jobs))
	}
	run(&Experiment{Jobs: jobs, Capacity: 1, Policies: []string{"srpt"}, Runs: 1, Scale: 0.8, MeanOnly: true})
	if w.est != nil || w.m.Response != nil {
		t.Errorf("a mean-only scaled run kept the column (%d) or the metrics (%d)", len(w.est), len(w.m.Response))
	}
}
