package experiment

import (
	"context"
	"sync/atomic"
	"testing"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/estimate"
)

// TestSourceBuildsPerShare runs a validation's shape of experiments on one
// Source — exact sizes with a Sink, σ runs, two load factors — and checks
// that the exact and σ runs share one build, each factor scales one of its
// own, no build is live when the next is made (the validation window was
// held beside every load factor's copy: 0.19 GB at the 10 M log), and the
// summaries and sunk rows are those of the same experiments on Jobs.
func TestSourceBuildsPerShare(t *testing.T) {
	jobs := make([]sim.Job, 30000)
	for i := range jobs {
		s := 0.4 + float64(i%9)*0.1
		jobs[i] = sim.Job{Arrival: float64(i) * 0.8, Size: s, Estimate: s, Weight: float64(1 + i%3)}
	}
	var calls atomic.Int64
	src := &Source{N: len(jobs), Build: func() ([]sim.Job, error) {
		calls.Add(1)
		return append([]sim.Job(nil), jobs...), nil
	}}
	built, live := watchCopies()
	defer func() { scaledCopyHook = nil }()
	policies := []string{"fifo", "srpt", "gps"}
	plan := func(from *Source, on []sim.Job) ([]*Experiment, *[]float64) {
		var sunk []float64
		xs := []*Experiment{
			{Source: from, Jobs: on, Capacity: 1.3, Policies: policies, Runs: 1, Sink: func(rr *RunRows) error {
				sunk = append(sunk, rr.Responses()...)
				return nil
			}},
			{Source: from, Jobs: on, Capacity: 1.3, Policies: []string{"srpt"}, Runs: 3, Seed: 7, Errors: estimate.ErrorModel{Kind: estimate.LogNormal, Sigma: 0.5}},
			{Source: from, Jobs: on, Capacity: 1.3, Policies: policies, Runs: 1, MeanOnly: true, Scale: 1.2},
			{Source: from, Jobs: on, Capacity: 1.3, Policies: policies, Runs: 1, MeanOnly: true, Scale: 0.7},
		}
		return xs, &sunk
	}
	xs, sunk := plan(src, nil)
	got, err := RunExperiments(context.Background(), RunOptions{Workers: 1}, xs...)
	if err != nil {
		t.Fatal(err)
	}
	scaledCopyHook = nil
	if calls.Load() != 3 || built.Load() != 3 || *live != 0 {
		t.Errorf("%d builds, %d copies; %d still live when a later one was built, want 3, 3 and 0", calls.Load(), built.Load(), *live)
	}
	ys, wantSunk := plan(nil, jobs)
	want, err := RunExperiments(context.Background(), RunOptions{Workers: 2}, ys...)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		for p, pr := range want[i].Policies {
			for k, s := range pr.Summaries {
				if g := got[i].Policies[p].Summaries[k]; g != s {
					t.Errorf("experiment %d, %s, run %d: %+v from the Source, %+v from Jobs", i, pr.Policy, k, g, s)
				}
			}
		}
	}
	if len(*sunk) != len(*wantSunk) {
		t.Fatalf("%d responses sunk from the Source, %d from Jobs", len(*sunk), len(*wantSunk))
	}
	for i, r := range *wantSunk {
		if (*sunk)[i] != r {
			t.Fatalf("sunk response %d: %v from the Source, %v from Jobs", i, (*sunk)[i], r)
		}
	}
}

// TestSourceErrors checks that a Source with Jobs besides, or without
// Build, is refused, and that a Build of the wrong length fails the run.
func TestSourceErrors(t *testing.T) {
	jobs := []sim.Job{{Arrival: 0, Size: 1, Estimate: 1}, {Arrival: 1, Size: 1, Estimate: 1}}
	build := func() ([]sim.Job, error) { return append([]sim.Job(nil), jobs[:1]...), nil }
	for _, tc := range []struct {
		name string
		x    *Experiment
	}{
		{"jobs besides", &Experiment{Source: &Source{N: 1, Build: build}, Jobs: jobs}},
		{"no build", &Experiment{Source: &Source{N: 2}}},
		{"short build", &Experiment{Source: &Source{N: 2, Build: build}}},
	} {
		tc.x.Capacity, tc.x.Policies, tc.x.Runs = 1, []string{"fifo"}, 1
		if _, err := tc.x.Run(context.Background(), RunOptions{Workers: 1}); err == nil {
			t.Errorf("%s: no error", tc.name)
		}
	}
}
