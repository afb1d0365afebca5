package tunedeploy

import (
	"context"
	"testing"

	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// Replay's pooled deadlines (the current scheduler's run in the pool) give
// every pair the scores a separate reference run (TaskExperiment) gives.
func TestReplayPooledAsSeparate(t *testing.T) {
	shapes := make([]task.Shape, 300)
	for i := range shapes {
		shapes[i] = task.Shape{ID: i, Arrival: float64(i) * 1.7, User: []string{"a", "b", "c"}[i%3], Weight: 1, MapTasks: 1 + i%13, ReduceTasks: i % 3, Size: float64(30 + 11*(i%17))}
	}
	var pairs []DeployPair
	for s := range 3 {
		jobs, err := task.Synthesize(shapes, task.SynthOptions{Skew: 0.5, Seed: uint64(s + 1)})
		if err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, DeployPair{0, s, &tasklevel.TaskLevel{Cluster: task.Uniform(4, 3), Jobs: jobs, Reference: "fair"}})
	}
	specs := []string{"fair", "fifo", "srpt", "fair", "las"}
	got, err := Replay(context.Background(), pairs, specs)
	if err != nil {
		t.Fatal(err)
	}
	for p, pr := range pairs {
		x, err := pr.Res.TaskExperiment(specs)
		if err != nil {
			t.Fatal(err)
		}
		out, err := experiment.RunExperiments(context.Background(), experiment.RunOptions{}, x)
		if err != nil {
			t.Fatal(err)
		}
		for k := range specs {
			if w := tuner.ScoreOf(out[0].Policies[k].Aggregate().Mean); w != got[p][k] {
				t.Errorf("pair %d %s: pooled %+v, separate %+v", p, specs[k], got[p][k], w)
			}
		}
	}
}
