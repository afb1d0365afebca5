package tuner

import (
	"context"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/pipeline/experiment"
)

// TestTuneLASMQSourceBuildsWindowLast checks that TuneLASMQSource builds
// the validation window only once the search is over (no progress is
// reported after its first build), once per copy its comparisons read
// (the exact window, whose build gives the deadlines too, and one per
// load factor), each after the one before it is garbage, and that its
// comparison and robustness scores are those of the runs on the jobs
// themselves (the exact window and ScaleSizes copies, as the tuner ran
// them when it held the window through the search).
func TestTuneLASMQSourceBuildsWindowLast(t *testing.T) {
	jobs := poissonJobs(5, 4000, 1.2, 50)
	split, err := experiment.SplitByArrivals(arrivals(jobs), 0.7)
	if err != nil {
		t.Fatal(err)
	}
	tuneJobs, valJobs := split.Windows(jobs)
	var builds, progressAfterBuild atomic.Int64
	var freed []*atomic.Bool
	src := &experiment.Source{N: len(valJobs), Build: func() ([]sim.Job, error) {
		for k, f := range freed { // every earlier build is garbage by now
			for range 50 {
				if runtime.GC(); f.Load() {
					break
				}
				time.Sleep(2 * time.Millisecond)
			}
			if !f.Load() {
				t.Errorf("build %d: build %d is still live", len(freed)+1, k+1)
			}
		}
		builds.Add(1)
		w := append([]sim.Job(nil), valJobs...)
		f := new(atomic.Bool)
		runtime.SetFinalizer(&w[0], func(*sim.Job) { f.Store(true) })
		freed = append(freed, f)
		return w, nil
	}}
	opt := TuneOptions{Budget: 40, Folds: 2, SampleJobs: 600, Workers: 1, Progress: func(done, total int) {
		if builds.Load() > 0 {
			progressAfterBuild.Add(1)
		}
	}}
	rep, err := TuneLASMQSource(context.Background(), SliceSource(tuneJobs), src, 1, split, opt)
	if err != nil {
		t.Fatal(err)
	}
	if n := progressAfterBuild.Load(); n > 0 {
		t.Errorf("%d progress reports of the search after the validation window was built", n)
	}
	if n := builds.Load(); n != int64(len(LoadFactors)) {
		t.Errorf("%d builds of the validation window, want %d (the exact window and one per load factor but 1)", n, len(LoadFactors))
	}
	deadlines, err := experiment.PSDeadlines(valJobs, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rep.Compare {
		x := &experiment.Experiment{Jobs: valJobs, Capacity: 1, Deadlines: deadlines, Policies: []string{c.Policy}, Runs: 1}
		out, err := x.Run(context.Background(), experiment.RunOptions{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if want := ScoreOf(out.Policies[0].Summaries[0]); c.Validate != want {
			t.Errorf("%s on the validation window: %+v, want %+v", c.Name, c.Validate, want)
		}
	}
	if len(rep.Robustness) == 0 {
		t.Fatal("no robustness rows")
	}
	for _, r := range rep.Robustness {
		spec := ""
		for _, c := range rep.Compare {
			if c.Name == r.Name {
				spec = c.Policy
			}
		}
		x := &experiment.Experiment{Jobs: ScaleSizes(valJobs, r.LoadFactor), Capacity: 1, Policies: []string{spec}, Runs: 1}
		out, err := x.Run(context.Background(), experiment.RunOptions{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		if want := ScoreOf(out.Policies[0].Summaries[0]); r.Score != want {
			t.Errorf("%s at load × %v: %+v, want %+v", r.Name, r.LoadFactor, r.Score, want)
		}
	}
}

// arrivals are the jobs' arrival times.
func arrivals(jobs []sim.Job) []float64 {
	a := make([]float64, len(jobs))
	for i, j := range jobs {
		a[i] = j.Arrival
	}
	return a
}
