package tasklevel

import (
	"context"
	"math"
	"testing"

	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/experiment"
)

// A task-level run's slowdowns are over each job's time alone with the
// 1 s floor (task.FluidAlone, carried beside the jobs as
// experiment.Experiment.Alone), in every path that computes them: the
// summaries of TaskExperiment, PooledExperiment and simulate's
// experiment, the per-job rows, and task.Summarize's per-user groups.
// aloneFloorJobs, on one machine of 4 containers: A (user a) 3 tasks of
// 10 s at 0, B (user b) 2 tasks of 0.2 s at 0.01. Alone: A 10 (its tasks side by side), B
// 0.2. FIFO: A's tasks hold 3 containers 0–10; B's run one after the
// other on the fourth, 0.01–0.21–0.41. Responses 10 and 0.4: slowdowns
// 10/10 = 1 and 0.4 / max(0.2, min(0.4, 1)) = 1 (B responds within the
// floor). Without the floor B's would be 0.4/0.2 = 2; over work ÷ rate
// (the fluid server's) A's would be 10/7.5 and B's 0.4/0.1 = 4 (0.4/0.4
// = 1 with the floor).
func TestTaskSlowdownOverAloneAndFloor(t *testing.T) {
	jobs, cl := aloneFloorJobs()
	near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }
	check := func(name string, got []float64, want ...float64) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %v, want %v", name, got, want)
		}
		for i := range want {
			if !near(got[i], want[i]) {
				t.Errorf("%s: %v, want %v", name, got, want)
				return
			}
		}
	}
	tl := &TaskLevel{Cluster: cl, Jobs: jobs}
	tx, err := tl.TaskExperiment([]string{"fifo"})
	if err != nil {
		t.Fatal(err)
	}
	check("times alone", tx.Alone.Times, 10, 0.2)
	px, err := tl.PooledExperiment([]string{"fifo", DefaultTaskReference})
	if err != nil {
		t.Fatal(err)
	}
	w := &Window{Jobs: tx.Jobs, Capacity: tx.Capacity}
	sx, err := SimulateExperiment(w, tl, []string{"fifo"}, estimate.ErrorModel{}, 1, 1, true)
	if err != nil {
		t.Fatal(err)
	}
	out, err := experiment.RunExperiments(context.Background(), experiment.RunOptions{Workers: 2}, tx, px, sx)
	if err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{"TaskExperiment", "PooledExperiment", "SimulateExperiment"} {
		s := out[i].Policies[0].Summaries[0]
		check(name+" fifo responses (mean, max)", []float64{s.Response.Mean, s.Response.Max}, 5.2, 10)
		check(name+" fifo slowdowns (min, max, mean)", []float64{s.Slowdown.Min, s.Slowdown.Max, s.Slowdown.Mean}, 1, 1, 1)
	}
	rows := out[2].Policies[0].Rows
	check("rows' responses", rows.Response, 10, 0.4)
	check("rows' slowdowns", rows.Slowdown, 1, 1)

	var s task.Simulator
	r, err := s.Run(jobs, tl.Cluster, &task.FIFO{}, task.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep := task.Summarize(jobs, tl.Cluster, r, nil)
	check("Summarize per job", rep.PerJob.Slowdown, 1, 1)
	if len(rep.Users) != 2 {
		t.Fatalf("users %+v", rep.Users)
	}
	check("Summarize per user", []float64{rep.Users[0].Summary.Slowdown.Max, rep.Users[1].Summary.Slowdown.Max}, 1, 1)
}

// aloneFloorJobs are TestTaskSlowdownOverAloneAndFloor's two jobs and
// their cluster, one machine of 4 containers: A (user a) 3 tasks of 10 s
// at 0, B (user b) 2 tasks of 0.2 s at 0.01.
func aloneFloorJobs() ([]task.Job, *task.Cluster) {
	tasks := func(n int, d float64) []task.TaskSpec {
		s := make([]task.TaskSpec, n)
		for i := range s {
			s[i] = task.TaskSpec{Duration: d, Containers: 1}
		}
		return s
	}
	return []task.Job{
		{Arrival: 0, Estimate: 30, User: "a", Stages: []task.Stage{{Tasks: tasks(3, 10)}}},
		{Arrival: 0.01, Estimate: 0.4, User: "b", Stages: []task.Stage{{Tasks: tasks(2, 0.2)}}},
	}, task.Uniform(1, 4)
}
