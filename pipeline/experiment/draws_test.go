package experiment

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/estimate"
)

// TestRunDrawsEqualApply checks that the estimates a run simulates with,
// drawn job by job into the worker's copy of the jobs (scaled first when the
// experiment has a load factor), are those ErrorModel.Apply draws for the
// run over the (scaled) sizes, for every error model, run and worker count.
func TestRunDrawsEqualApply(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	jobs := make([]sim.Job, 500)
	at := 0.0
	for i := range jobs {
		at += rng.ExpFloat64()
		s := rng.ExpFloat64()
		jobs[i] = sim.Job{Arrival: at, Size: s, Estimate: s, Weight: 1}
	}
	models := []estimate.ErrorModel{
		{Kind: estimate.LogNormal, Sigma: 0.5},
		{Kind: estimate.LogNormal, Sigma: 1},
		{Kind: estimate.Uniform, I: 0.3},
	}
	for _, m := range models {
		for _, scale := range []float64{0, 1.2} {
			for _, workers := range []int{1, 2, 3} {
				got := map[int][]float64{}
				x := &Experiment{Jobs: jobs, Capacity: 1, Policies: []string{"srpt", "pfsp"}, Errors: m, Runs: 4, Seed: 9, Scale: scale,
					Sink: func(rr *RunRows) error {
						est := make([]float64, len(rr.Jobs))
						for i := range rr.Jobs {
							est[i] = rr.Estimate(i)
						}
						if prev, ok := got[rr.Run]; ok && !slices.Equal(prev, est) {
							t.Errorf("%v scale %g: run %d's estimates differ between policies", m, scale, rr.Run)
						}
						got[rr.Run] = est
						return nil
					}}
				if _, err := x.Run(context.Background(), RunOptions{Workers: workers}); err != nil {
					t.Fatal(err)
				}
				sizes := make([]float64, len(jobs))
				for i, j := range jobs {
					sizes[i] = j.Size
					if scale > 0 {
						sizes[i] *= scale
					}
				}
				for run := 0; run < x.Runs; run++ {
					want := m.Apply(sizes, estimate.RunRand(x.Seed, uint64(run)), nil)
					if !slices.Equal(got[run], want) {
						t.Errorf("%v scale %g, %d workers: run %d's estimates are not Apply's", m, scale, workers, run)
					}
				}
			}
		}
	}
}
