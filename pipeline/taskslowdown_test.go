package pipeline

import (
	"context"
	"math"
	"testing"

	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/estimate"
)

// Task-level slowdowns divide by the job's time alone (task.Job.Alone) and
// task-level deadlines are capped fair sharing (task.PSDeadlines), in
// TaskExperiment and in simulate's experiment; the fluid experiment keeps
// uncapped PS. One machine of 4 containers: A (8 tasks of 1 s) at 0, B (1
// task of 1 s) at 0.001. Alone: A max(8/4, 1) = 2, B max(1/4, 1) = 1.
// Capped fair sharing: B runs at its cap 1 from 0.001 to 1.001, A at 3
// then 4: 0.004 + 3 + 4.996 = 8 at 2.25. Uncapped PS gives B 2 from 0.001:
// 0.501, and A 2.25 too. FIFO runs A's tasks 0–1 and 1–2, then B 2–3.
func TestTaskLevelSlowdownAndDeadlines(t *testing.T) {
	tasks := func(n int) []task.TaskSpec {
		s := make([]task.TaskSpec, n)
		for i := range s {
			s[i] = task.TaskSpec{Duration: 1, Containers: 1}
		}
		return s
	}
	jobs := []task.Job{
		{Arrival: 0, Estimate: 8, Stages: []task.Stage{{Tasks: tasks(8)}}},
		{Arrival: 0.001, Estimate: 1, Stages: []task.Stage{{Tasks: tasks(1)}}},
	}
	tl := &TaskLevel{Cluster: task.Uniform(1, 4), Jobs: jobs}
	x, err := tl.TaskExperiment([]string{"fifo"})
	if err != nil {
		t.Fatal(err)
	}
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
	if !near(x.Deadlines[0], 2.25) || !near(x.Deadlines[1], 1.001) || x.Jobs[0].Alone != 2 || x.Jobs[1].Alone != 1 {
		t.Fatalf("deadlines %v, alone %v %v; want [2.25 1.001], 2 and 1", x.Deadlines, x.Jobs[0].Alone, x.Jobs[1].Alone)
	}
	out, err := RunExperiments(context.Background(), RunOptions{}, x)
	if err != nil {
		t.Fatal(err)
	}
	// Responses 2 and 2.999: slowdowns 2/2 = 1 and 2.999/1 (work/rate
	// would give 2/2 and 2.999/0.25); B misses its deadline, A does not.
	s := out[0].Policies[0].Aggregate().Mean
	if !near(s.Slowdown.Min, 1) || !near(s.Slowdown.Max, 2.999) || s.Missed != 1 || !near(s.MaxLate, 1.999) {
		t.Errorf("summary %+v", s)
	}

	w := &Window{Jobs: x.Jobs, Capacity: x.Capacity}
	xs, err := SimulateExperiment(w, tl, []string{"fifo"}, estimate.ErrorModel{}, 1, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	if !near(xs.Deadlines[1], 1.001) || xs.Resolution != Resolution(tl) {
		t.Errorf("simulate at task level: deadlines %v, resolution %v", xs.Deadlines, xs.Resolution)
	}
	xf, err := SimulateExperiment(w, nil, []string{"fifo"}, estimate.ErrorModel{}, 1, 1, false)
	if err != nil {
		t.Fatal(err)
	}
	if !near(xf.Deadlines[1], 0.501) || !near(xf.Deadlines[0], 2.25) || xf.Resolution != nil {
		t.Errorf("simulate fluid: deadlines %v, resolution %v", xf.Deadlines, xf.Resolution)
	}
}
