package tasklevel

import (
	"context"
	"testing"

	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/pipeline/experiment"
)

// Capacity without a file is the stock Capacity Scheduler: its queues
// name no node label, so on the spec's cluster (every machine type
// labelled with the name the emitted file gives it) it runs on machines
// without labels, as a file that names none does, instead of failing
// because no machine is in the default partition.
func TestStockCapacityRunsOnLabelledCluster(t *testing.T) {
	cl := &task.Cluster{Types: []task.MachineType{
		{Name: "a", Count: 1, Containers: 2, ExecRate: 1, Label: "a"},
		{Name: "b", Count: 1, Containers: 2, ExecRate: 1, Label: "b"},
	}}
	tasks := func(n int) []task.TaskSpec {
		ts := make([]task.TaskSpec, n)
		for i := range ts {
			ts[i] = task.TaskSpec{Duration: 10, Containers: 1}
		}
		return ts
	}
	jobs := []task.Job{
		{Arrival: 0, Stages: []task.Stage{{Tasks: tasks(4)}}},
		{Arrival: 1, Stages: []task.Stage{{Tasks: tasks(2)}}},
	}
	tl := &TaskLevel{Cluster: cl, Jobs: jobs}
	for _, spec := range []string{"capacity", "capacity:ulf=2"} {
		x, err := tl.TaskExperiment([]string{spec})
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		out, err := experiment.RunExperiments(context.Background(), experiment.RunOptions{}, x)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		// Four containers: the first job's four tasks run at once (0–10),
		// the second's two after them (10–20).
		if got := out[0].Policies[0].Aggregate().Mean.Response.Mean; got != (10+19)/2.0 {
			t.Errorf("%s: mean response %v, want 14.5", spec, got)
		}
	}
}
