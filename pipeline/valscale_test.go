package pipeline

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/runreport"
	"github.com/schedplan/schedplan/pipeline/validation"
)

// A MeanOnly experiment's summaries are the job count and the mean
// response of the full summaries, bit for bit, at any load factor and with
// estimation errors.
func TestExperimentMeanOnlyIsTheFullMean(t *testing.T) {
	jobs := testJobs(400, 3)
	for _, scale := range []float64{0, 0.5, 1.2} {
		full := &experiment.Experiment{Jobs: jobs, Capacity: 1, Policies: []string{"srpt", "gps", "fsp+ps", "las_mq"}, Scale: scale,
			Errors: estimate.ErrorModel{Kind: estimate.LogNormal, Sigma: 0.5}, Runs: 3, Seed: 4}
		lean := *full
		lean.MeanOnly = true
		a, err := full.Run(context.Background(), experiment.RunOptions{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		b, err := lean.Run(context.Background(), experiment.RunOptions{Workers: 2})
		if err != nil {
			t.Fatal(err)
		}
		for p := range a.Policies {
			for k, s := range a.Policies[p].Summaries {
				got := b.Policies[p].Summaries[k]
				want := sim.Summary{Jobs: s.Jobs}
				want.Response.Mean = s.Response.Mean
				if got != want || math.Float64bits(got.Response.Mean) != math.Float64bits(s.Response.Mean) {
					t.Fatalf("scale %g, %s run %d: mean-only summary %+v, want %+v", scale, full.Policies[p], k, got, want)
				}
			}
		}
	}
}

// A fluid simulator keeps at most fluidCacheJobs / n parsed policies for
// runs of n jobs (at least one), and at most fluidPolicyCache; a policy
// parsed again gives the same result as the cached one.
func TestFluidPolicyCacheBoundedByJobs(t *testing.T) {
	f := &experiment.FluidSimulator{}
	for _, c := range []struct{ n, want int }{{10, experiment.FluidPolicyCache}, {experiment.FluidCacheJobs / 3, 3}, {experiment.FluidCacheJobs, 1}, {3 * experiment.FluidCacheJobs, 1}} {
		f.Specs, f.Pols = nil, nil
		for _, spec := range []string{"srpt", "gps", "las", "fifo", "fsp+ps", "pfsp", "las_mq", "ps", "fsp", "srpt+ps", "las_mq:k=3,alpha0=1,p=10", "las_mq:k=4,alpha0=1,p=10", "las_mq:k=5,alpha0=1,p=10", "las_mq:k=6,alpha0=1,p=10", "las_mq:k=7,alpha0=1,p=10", "las_mq:k=8,alpha0=1,p=10", "las_mq:k=9,alpha0=1,p=10", "las_mq:k=2,alpha0=1,p=10"} {
			if _, err := f.Policy(spec, c.n); err != nil {
				t.Fatal(err)
			}
		}
		if len(f.Specs) != c.want || len(f.Pols) != c.want {
			t.Errorf("n=%d: %d policies kept, want %d", c.n, len(f.Specs), c.want)
		}
	}
	jobs := testJobs(200, 8)
	ref := &experiment.FluidSimulator{}
	for _, spec := range []string{"pfsp", "srpt", "pfsp", "las_mq", "pfsp"} {
		r1, err := ref.Simulate(context.Background(), jobs, 0, 1, spec)
		if err != nil {
			t.Fatal(err)
		}
		got := append([]float64(nil), r1.Response...)
		fresh := &experiment.FluidSimulator{}
		r2, err := fresh.Simulate(context.Background(), jobs, 0, 1, spec)
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if got[i] != r2.Response[i] {
				t.Fatalf("%s: job %d response %g after a cache eviction, %g fresh", spec, i, got[i], r2.Response[i])
			}
		}
	}
}

// The task-level views simulate at most TaskValidateMaxJobs of the
// validation window (its first jobs, said in the note), and the whole
// window when it is shorter, with the H-PFSP rows on the same jobs.
func TestTaskValidateWindowBounded(t *testing.T) {
	defer func(n int) { validation.TaskValidateMaxJobs = n }(validation.TaskValidateMaxJobs)
	for _, limit := range []int{600, 1 << 30} {
		validation.TaskValidateMaxJobs = limit
		res, _, err := runInto(t, t.TempDir(), testConfig(), nil)
		if err != nil {
			t.Fatal(err)
		}
		tv, window := res.TaskValidation, res.Split.ValidJobs
		want, note := min(limit, window), validation.TaskBoundsNote
		if limit < window {
			note += fmt.Sprintf("; only the validation window's first %d of %d jobs (TaskValidateMaxJobs)", limit, window)
		}
		if tv == nil || tv.Bounds.Jobs != want || tv.Note != note {
			t.Fatalf("TaskValidateMaxJobs %d, window %d: task-level view %+v, want %d jobs and note %q", limit, window, tv, want, note)
		}
		hpfsp := 0
		for _, r := range tv.Rows {
			if r.Name == runreport.TaskHPFSPName {
				hpfsp++
				if !(r.Mean > 0) || !(r.Mean >= tv.Bounds.SRPTMean*(1-1e-9)) {
					t.Errorf("limit %d: H-PFSP mean response %g s below the task bound %g s of the same jobs", limit, r.Mean, tv.Bounds.SRPTMean)
				}
			}
		}
		if hpfsp != 1 {
			t.Errorf("limit %d: %d H-PFSP rows", limit, hpfsp)
		}
	}
}
