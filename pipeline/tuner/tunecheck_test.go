package tuner

import (
	"context"
	"math"
	"sync"
	"testing"
)

// The final check, the bootstrap and the SRPT bound simulate at most about
// CheckJobs jobs per fold however long the log: doubling the log leaves
// the jobs they simulate per window where they were, and the report says
// the folds were re-checked on a sample.
func TestTuneCVCheckCostBounded(t *testing.T) {
	const check = 3000
	whole := func(n int) (perWindow int, res *CVResult) {
		jobs := poissonJobs(4, n, 1.25, math.Inf(1))
		inner := SimulateWindows(nil, 1)
		var mu sync.Mutex
		count := func(ctx context.Context, spec string, w *ScoreWindow, keep bool) (Score, []float64, error) {
			if w.whole {
				mu.Lock()
				perWindow = max(perWindow, w.Jobs())
				mu.Unlock()
			}
			return inner(ctx, spec, w, keep)
		}
		res, err := TuneCV(context.Background(), jobs, 1, TuneOptions{Budget: 30, Folds: 3, SampleJobs: 300, CheckJobs: check}, count)
		if err != nil {
			t.Fatal(err)
		}
		return perWindow, res
	}
	small, _ := whole(4 * 2500) // chunks of 2,500 jobs: whole
	a, ra := whole(4 * 20000)   // chunks of 20,000 jobs: sampled
	b, rb := whole(4 * 40000)
	if small != 2500 {
		t.Errorf("chunks of 2,500 jobs were checked on %d jobs, want all", small)
	}
	for _, tc := range []struct {
		n   int
		got int
		res *CVResult
	}{{80000, a, ra}, {160000, b, rb}} {
		if tc.got > 2*check {
			t.Errorf("%d jobs: a check window simulates %d jobs, want about %d", tc.n, tc.got, check)
		}
		if sl := tc.res.Shortlist; sl == nil || sl.CheckJobs != check || len(sl.CheckScored) != 4 {
			t.Errorf("%d jobs: shortlist %+v does not say the folds were re-checked on samples", tc.n, sl)
		}
	}
}
