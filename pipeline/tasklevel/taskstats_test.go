package tasklevel

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/cluster/task"
)

// The task-level engine's events, tasks and wall time are recorded per
// policy over runs of all the resolution's jobs (not the reference
// deadlines' run, nor runs of part of them) and printed with events/s.
func TestTaskRunStats(t *testing.T) {
	jobs := []task.Job{
		{Arrival: 0, Estimate: 20, Stages: []task.Stage{{Tasks: []task.TaskSpec{{Duration: 10, Containers: 1}, {Duration: 10, Containers: 1}}}}},
		{Arrival: 1, Estimate: 10, Stages: []task.Stage{{Tasks: []task.TaskSpec{{Duration: 10, Containers: 1}}}}},
	}
	cl := task.Uniform(1, 2)
	tl := &TaskLevel{Cluster: cl, Jobs: jobs}
	x, err := tl.TaskExperiment([]string{"fifo"})
	if err != nil {
		t.Fatal(err)
	}
	if got := tl.TaskRunStatsOf([]string{"fair:pool=user"}); len(got) != 0 {
		t.Errorf("the reference deadlines' run was recorded: %+v", got)
	}
	ts := tl.NewSimulator()
	for range 2 {
		if _, err := ts.Simulate(context.Background(), x.Jobs, 0, cl.Rate(), "fifo"); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := ts.Simulate(context.Background(), x.Jobs[1:], 1, cl.Rate(), "fifo"); err != nil {
		t.Fatal(err)
	}
	// 2 arrivals + 3 task ends per run.
	st := tl.TaskRunStatsOf([]string{"fifo", "srpt"})
	if len(st) != 1 || st[0].Runs != 2 || st[0].Events != 10 || st[0].Tasks != 6 || !(st[0].WallSeconds > 0) || st[0].EventsPerSecond != 10/st[0].WallSeconds {
		t.Fatalf("stats %+v", st)
	}
	var b bytes.Buffer
	writeTaskRunStats(&b, st)
	if s := b.String(); !strings.Contains(s, "fifo: 10 events, 6 tasks in") || !strings.Contains(s, "events/s") {
		t.Errorf("printed %q", s)
	}
}

// An experiment's run of the reference scheduler over all the jobs with
// their own estimates reuses the reference deadlines' run (the same
// completions as a run of its own, the same engine counts and wall time
// recorded); a copy of the resolution (other queues) does not.
func TestTaskReferenceRunReused(t *testing.T) {
	jobs := []task.Job{
		{Arrival: 0, Estimate: 20, User: "a", Stages: []task.Stage{{Tasks: []task.TaskSpec{{Duration: 10, Containers: 1}, {Duration: 10, Containers: 1}}}}},
		{Arrival: 1, Estimate: 10, User: "b", Stages: []task.Stage{{Tasks: []task.TaskSpec{{Duration: 10, Containers: 1}}}}},
	}
	cl := task.Uniform(1, 2)
	ref := DefaultTaskReference
	tl := &TaskLevel{Cluster: cl, Jobs: jobs}
	x, err := tl.TaskExperiment([]string{ref})
	if err != nil {
		t.Fatal(err)
	}
	if tl.ref == nil || tl.ref.spec != ref {
		t.Fatalf("reference run not kept: %+v", tl.ref)
	}
	got, err := tl.NewSimulator().Simulate(context.Background(), x.Jobs, 0, cl.Rate(), ref)
	if err != nil {
		t.Fatal(err)
	}
	own := &TaskLevel{Cluster: cl, Jobs: jobs}
	want, err := own.NewSimulator().Simulate(context.Background(), x.Jobs, 0, cl.Rate(), ref)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Completion, want.Completion) || !slices.Equal(got.Response, want.Response) {
		t.Errorf("reused run %v %v, own run %v %v", got.Completion, got.Response, want.Completion, want.Response)
	}
	st := tl.TaskRunStatsOf([]string{ref})
	if len(st) != 1 || st[0].Runs != 1 || st[0].Events != 5 || st[0].WallSeconds != tl.ref.wall.Seconds() {
		t.Errorf("stats %+v, reference run %+v", st, tl.ref)
	}
	cp := *tl
	cp.stats = nil
	if _, err := cp.NewSimulator().Simulate(context.Background(), x.Jobs, 0, cl.Rate(), ref); err != nil {
		t.Fatal(err)
	}
	if st := cp.TaskRunStatsOf([]string{ref}); len(st) != 1 || st[0].WallSeconds == tl.ref.wall.Seconds() {
		t.Errorf("a copy of the resolution reused the reference run: %+v", st)
	}
}
