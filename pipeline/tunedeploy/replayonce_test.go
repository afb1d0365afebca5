package tunedeploy

import (
	"context"
	"testing"

	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
)

// Equal specs are replayed once per pair (keep is the current scheduler;
// candidates with equal files share one), and each gets the scores of that
// one replay, the same a replay of its own gives.
func TestReplayEqualSpecsOnce(t *testing.T) {
	shapes := make([]task.Shape, 60)
	for i := range shapes {
		shapes[i] = task.Shape{ID: i, Arrival: float64(i * 3), User: []string{"a", "b"}[i%2], Weight: 1, MapTasks: 1 + i%5, ReduceTasks: i % 2, Size: float64(20 + 7*(i%9))}
	}
	jobs, err := task.Synthesize(shapes, task.SynthOptions{Skew: 0.5, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	pairs := []DeployPair{{0, 0, &tasklevel.TaskLevel{Cluster: task.Uniform(2, 3), Jobs: jobs, Reference: "fair"}}, {1, 0, &tasklevel.TaskLevel{Cluster: task.Uniform(3, 2), Jobs: jobs, Reference: "fair"}}}
	var ran []int
	defer func(f func(context.Context, experiment.RunOptions, ...*experiment.Experiment) ([]*experiment.ExperimentResult, error)) {
		runExperiments = f
	}(runExperiments)
	runExperiments = func(ctx context.Context, opt experiment.RunOptions, xs ...*experiment.Experiment) ([]*experiment.ExperimentResult, error) {
		for _, x := range xs {
			ran = append(ran, len(x.Policies))
		}
		return experiment.RunExperiments(ctx, opt, xs...)
	}
	dup, err := Replay(context.Background(), pairs, []string{"fair", "fifo", "fair", "fifo", "srpt"})
	if err != nil {
		t.Fatal(err)
	}
	if len(ran) != 2 || ran[0] != 3 || ran[1] != 3 {
		t.Errorf("policies replayed per pair %v, want [3 3] (fair, fifo, srpt)", ran)
	}
	one, err := Replay(context.Background(), pairs, []string{"fair", "fifo", "srpt"})
	if err != nil {
		t.Fatal(err)
	}
	for p := range pairs {
		want := []int{0, 1, 0, 1, 2}
		for k, w := range want {
			if dup[p][k] != one[p][w] {
				t.Errorf("pair %d, spec %d: %+v, its own replay %+v", p, k, dup[p][k], one[p][w])
			}
		}
	}
}
