package tasklevel

import (
	"math"
	"testing"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/data"
	_ "github.com/schedplan/schedplan/data/logs" // the Spark reader
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/experiment"
)

// TestTaskJobsWithRealTasks builds the task-level job of the real Spark
// 1.2 log from its tasks table: one stage of its eight successful tasks,
// each lasting its own finish − launch time, where TaskJobs synthesises
// durations from the job's task-seconds.
func TestTaskJobsWithRealTasks(t *testing.T) {
	lg, err := data.ReadLog("../../data/testdata/logs/spark/local-1426633911242", data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	spec, err := cluster.LoadSpec("default")
	if err != nil {
		t.Fatal(err)
	}
	sizes, _, err := estimate.Sizes(lg.Jobs, estimate.DefaultSizeOptions())
	if err != nil {
		t.Fatal(err)
	}
	fl, err := experiment.JobsOf(lg.Jobs, sizes, spec)
	if err != nil {
		t.Fatal(err)
	}
	real, err := TaskJobsWith(lg.Jobs, lg.Tasks, fl, 0, spec.Capacity(), spec.Capacity(), 1)
	if err != nil {
		t.Fatal(err)
	}
	synth, err := TaskJobs(lg.Jobs, fl, 0, spec.Capacity(), spec.Capacity(), 1)
	if err != nil {
		t.Fatal(err)
	}
	want := 0.0
	for i := 0; i < lg.Tasks.Len(); i++ {
		s, _ := lg.Tasks.Start.At(i)
		f, _ := lg.Tasks.Finish.At(i)
		want += f - s
	}
	j := real[0]
	if len(j.Stages) != 1 || len(j.Stages[0].Tasks) != 8 || math.Abs(j.Work()-want) > 1e-9 || j.Estimate != j.Work() {
		t.Fatalf("real tasks: %d stages, work %v (want 8 tasks, %v s)", len(j.Stages), j.Work(), want)
	}
	for k, ts := range j.Stages[0].Tasks {
		if ts.Containers != 1 || !(ts.Duration > 0.04 && ts.Duration < 0.07) {
			t.Errorf("task %d: %+v (the log's tasks last 48 to 61 ms)", k, ts)
		}
	}
	// Synthesised, the job's durations sum to its task-seconds (8 × 15 ms
	// of executor run time), spread with a skew.
	sum := 0.0
	for _, st := range synth[0].Stages {
		for _, ts := range st.Tasks {
			sum += ts.Duration
		}
	}
	if math.Abs(sum-0.12) > 1e-9 {
		t.Errorf("synthesised from task-seconds: durations sum to %v s, want 0.12 s", sum)
	}
}
