package tasklevel

import (
	"context"
	"math"
	"testing"

	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/experiment"
)

// Task-level slowdowns divide by the job's time alone (task.AloneTimes,
// bounded at task.SlowdownFloor) and task-level deadlines are the
// reference scheduler's completions with a tolerance
// (task.ReferenceDeadlines), in TaskExperiment and in simulate's
// experiment; the fluid experiment keeps PS. One machine of 4 containers:
// A (8 tasks of 10 s) at 0, B (1 task of 10 s) at 0.01. Alone: A 20, B 10.
// Fair (the reference): A's first 4 tasks 0–10; at 10 B gets a container
// (10–20) and A 3 (10–20), then A's last 20–30: A 30, B 20. Deadlines: A
// 30 + 3 + 1 = 34, B 20 + 1.999 + 1 = 22.999. FIFO runs A's tasks 0–10 and
// 10–20, then B 20–30: B misses by 7.001, A (20) does not; Fair misses
// none.
func TestTaskLevelSlowdownAndDeadlines(t *testing.T) {
	tasks := func(n int) []task.TaskSpec {
		s := make([]task.TaskSpec, n)
		for i := range s {
			s[i] = task.TaskSpec{Duration: 10, Containers: 1}
		}
		return s
	}
	jobs := []task.Job{
		{Arrival: 0, Estimate: 80, Stages: []task.Stage{{Tasks: tasks(8)}}},
		{Arrival: 0.01, Estimate: 10, Stages: []task.Stage{{Tasks: tasks(1)}}},
	}
	tl := &TaskLevel{Cluster: task.Uniform(1, 4), Jobs: jobs}
	x, err := tl.TaskExperiment([]string{"fifo", "fair:pool=user"})
	if err != nil {
		t.Fatal(err)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
	if !near(x.Deadlines[0], 34) || !near(x.Deadlines[1], 22.999) || !near(x.Alone.Times[0], 20) || !near(x.Alone.Times[1], 10) || x.Alone.Floor != task.SlowdownFloor {
		t.Fatalf("deadlines %v, alone %v; want [34 22.999], 20 and 10, floor 1", x.Deadlines, x.Alone)
	}
	out, err := experiment.RunExperiments(context.Background(), experiment.RunOptions{}, x)
	if err != nil {
		t.Fatal(err)
	}
	// FIFO: responses 20 and 29.99: slowdowns 20/20 = 1 and 29.99/10
	// (work/rate would give 20/20 and 29.99/2.5); B misses, A does not.
	s := out[0].Policies[0].Aggregate().Mean
	if !near(s.Slowdown.Min, 1) || !near(s.Slowdown.Max, 2.999) || s.Missed != 1 || !near(s.MaxLate, 7.001) {
		t.Errorf("fifo summary %+v", s)
	}
	if f := out[0].Policies[1].Aggregate().Mean; f.Missed != 0 {
		t.Errorf("fair, the reference, misses %d deadlines", f.Missed)
	}

	w := &Window{Jobs: x.Jobs, Capacity: x.Capacity}
	xs, err := SimulateExperiment(w, tl, []string{"fifo"}, estimate.ErrorModel{}, 1, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	if !near(xs.Deadlines[1], 22.999) || xs.Resolution != experiment.Resolution(tl) {
		t.Errorf("simulate at task level: deadlines %v, resolution %v", xs.Deadlines, xs.Resolution)
	}
	xf, err := SimulateExperiment(w, nil, []string{"fifo"}, estimate.ErrorModel{}, 1, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	if !near(xf.Deadlines[1], 5.01) || !near(xf.Deadlines[0], 22.5) || xf.Resolution != nil { // PS at 4
		t.Errorf("simulate fluid: deadlines %v, resolution %v", xf.Deadlines, xf.Resolution)
	}
}
