package tuner

import (
	"context"
	"runtime"
	"testing"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/pipeline/experiment"
)

// copyOnly is a resolution whose simulators take no estimates column
// (experiment.EstimatesSimulator): the scorer hands them copies of the
// blocks' jobs with the window's estimates.
type copyOnly struct{ experiment.Resolution }

func (r copyOnly) NewSimulator() experiment.Simulator {
	return struct{ experiment.Simulator }{r.Resolution.NewSimulator()}
}

// TestSigmaWindowsHoldEstimateColumns checks that a window with size
// errors holds its estimates as a column beside the σ = 0 window's jobs
// (the old code held a 64-byte copy of every job per σ: 0.19 GB of the
// 10 M log's whole folds at the final check), and that its scores are
// those of its jobs with the estimates in them (the copies a resolution
// without an estimates column is handed), for policies that read them
// (every one: SRPT, FSP, PFSP, LAS_MQ by estimated remaining work).
func TestSigmaWindowsHoldEstimateColumns(t *testing.T) {
	jobs := poissonJobs(9, 20000, 1.1, 40)
	bounds := []int{0, 10000, 20000}
	build := func(sigmas []float64) ([][]*ScoreWindow, uint64) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		w, _, err := CVWindows(jobs, 1, bounds, sigmas, 1e6, 3, 0)
		if err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return w, after.TotalAlloc - before.TotalAlloc
	}
	_, exact := build([]float64{0})
	wins, all := build([]float64{0, 0.5, 1})
	if perJob := float64(all-exact) / 2 / float64(len(jobs)); perJob > 32 {
		t.Errorf("%.1f B a job for each σ window, want at most 32 (an estimate column and its draw, not a copy of the jobs)", perJob)
	}
	fluid, copies := SimulateWindows(nil, 1), SimulateWindows(copyOnly{experiment.Fluid}, 1)
	for _, ws := range wins {
		for _, w := range ws[1:] {
			if bl := w.Blocks(); len(bl) == 0 || bl[0].Estimates == nil || &bl[0].Jobs[0] != &ws[0].Blocks()[0].Jobs[0] {
				t.Fatalf("fold %d, σ %v: no estimates column beside the σ = 0 window's jobs", w.Fold, w.Sigma)
			}
			for _, spec := range []string{"srpt", "srpt+ps", "fsp", "fsp+ps", "pfsp", sim.DefaultLASMQ().Spec(), "las_mq:k=4,alpha0=0.5,p=4,order=remaining", "las_mq:k=3,alpha0=1,p=8,weights=4/2/1,strict=true,order=remaining", "fifo"} {
				a, ra, err := fluid(context.Background(), spec, w, true)
				if err != nil {
					t.Fatal(err)
				}
				b, rb, err := copies(context.Background(), spec, w, true)
				if err != nil {
					t.Fatal(err)
				}
				if a != b || len(ra) != len(rb) {
					t.Fatalf("fold %d, σ %v, %s: %+v with the column, %+v on copies", w.Fold, w.Sigma, spec, a, b)
				}
				for i := range ra {
					if ra[i] != rb[i] {
						t.Fatalf("fold %d, σ %v, %s: job %d's response %v with the column, %v on copies", w.Fold, w.Sigma, spec, i, ra[i], rb[i])
					}
				}
			}
		}
	}
}
