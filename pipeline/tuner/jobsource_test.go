package tuner

import (
	"context"
	"reflect"
	"slices"
	"sync"
	"testing"

	"github.com/schedplan/schedplan/cluster/sim"
)

// TestTuneCVSourceBuildsBlocksOnly tunes a sampled window through a
// JobSource whose ranges are fresh copies and checks that the result is
// TuneCV's on the jobs held whole, that no range asked for is longer than
// a block may be (CheckJobs), and that the jobs built in all stay within
// the folds' sample and check budgets, never the whole window.
func TestTuneCVSourceBuildsBlocksOnly(t *testing.T) {
	jobs := poissonJobs(5, 20000, 1.05, 40)
	opt := TuneOptions{Budget: 40, Folds: 3, SampleJobs: 600, CheckJobs: 1500}
	want, err := TuneCV(context.Background(), jobs, 1, opt, SimulateWindows(nil, 1))
	if err != nil {
		t.Fatal(err)
	}
	src := SliceSource(jobs)
	var mu sync.Mutex
	built, longest := 0, 0
	src.Range = func(lo, hi int) ([]sim.Job, error) {
		mu.Lock()
		built, longest = built+hi-lo, max(longest, hi-lo)
		mu.Unlock()
		return slices.Clone(jobs[lo:hi]), nil
	}
	got, err := TuneCVSource(context.Background(), src, 1, opt, SimulateWindows(nil, 1))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Error("TuneCVSource differs from TuneCV on the same jobs")
	}
	chunks := opt.Folds + 1
	if longest > opt.CheckJobs || built > 2*chunks*(opt.SampleJobs+opt.CheckJobs) || built >= len(jobs) {
		t.Errorf("built %d jobs (longest range %d) of a %d-job window: want blocks of at most %d, about %d in all",
			built, longest, len(jobs), opt.CheckJobs, chunks*(opt.SampleJobs+opt.CheckJobs))
	}
}
