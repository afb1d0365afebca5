package tasklevel

import (
	"context"
	"testing"

	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/cluster/task/hpfsp"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// TestTuneHPFSPSlowdownsOverAlone checks that H-PFSP tuning scores its
// candidates' slowdowns over the jobs' times alone with the floor (the
// metric input task.FluidAlone, no longer carried by the fluid jobs), as
// task.Summarize does for the same run and deadlines: on aloneFloorJobs
// the slowdowns over work ÷ rate would be 10/7.5 and 4, over the times
// alone with the floor 1 and 1.
func TestTuneHPFSPSlowdownsOverAlone(t *testing.T) {
	jobs, cl := aloneFloorJobs()
	_, evals, err := TuneHPFSP(context.Background(), jobs, cl, []int{0, 2}, nil, tuner.MinMean, nil, task.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := task.ParsePolicy(DefaultTaskReference)
	if err != nil {
		t.Fatal(err)
	}
	var s task.Simulator
	rr, err := s.Run(jobs, cl, ref, task.Options{})
	if err != nil {
		t.Fatal(err)
	}
	dl := task.ReferenceDeadlines(jobs, rr.Completion)
	for _, e := range evals {
		r, err := s.Run(jobs, cl, &hpfsp.HPFSP{FairLimit: e.FairLimit, Threshold: e.Threshold}, task.Options{})
		if err != nil {
			t.Fatal(err)
		}
		want := tuner.ScoreOf(task.Summarize(jobs, cl, r, dl).All)
		if e.Score != want {
			t.Errorf("fair_limit %d: tuning's score %+v, Summarize's %+v", e.FairLimit, e.Score, want)
		}
		if e.Score.MeanSlowdown > 1.5 {
			t.Errorf("fair_limit %d: mean slowdown %v: not over the times alone with the floor", e.FairLimit, e.Score.MeanSlowdown)
		}
	}
}
