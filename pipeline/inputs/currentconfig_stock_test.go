package inputs

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
)

// --current-config accepts the scheduler files clusters have: Hadoop
// 3.4.1's stock capacity-scheduler.xml (one queue, no labels), a typical
// nested one with user and group mappings, and a typical allocation file;
// each runs at task level on a cluster whose machines carry schedplan's
// labels (the old code refused the stock file: "its jobs request label
// \"\", which no machine has").
func TestCurrentConfigStockFiles(t *testing.T) {
	cl := &task.Cluster{Types: []task.MachineType{
		{Name: "R1", Count: 1, Containers: 4, ExecRate: 1, Label: "R1"},
		{Name: "R2", Count: 1, Containers: 2, ExecRate: 0.5, Label: "R2"},
	}}
	var jobs []task.Job
	for i, u := range []string{"alice", "bob", "carol", "alice", "dave"} {
		jobs = append(jobs, task.Job{ID: i, User: u, Arrival: float64(i), Weight: 1,
			Stages: []task.Stage{{Tasks: []task.TaskSpec{{Duration: 3, Containers: 1}, {Duration: 2, Containers: 1}}}}})
	}
	for _, file := range []string{"capacity-scheduler.xml", "nested-capacity-scheduler.xml", "fair-scheduler.xml"} {
		t.Run(file, func(t *testing.T) {
			spec, err := CurrentConfigSpec(filepath.Join("..", "testdata", "hadoop", file))
			if err != nil {
				t.Fatal(err)
			}
			r := &tasklevel.TaskLevel{Cluster: cl, Jobs: jobs}
			x, err := r.TaskExperiment([]string{spec})
			if err != nil {
				t.Fatal(err)
			}
			res, err := r.NewSimulator().Simulate(context.Background(), x.Jobs, 0, x.Capacity, spec)
			if err != nil {
				t.Fatalf("%s: %v", spec, err)
			}
			for i, resp := range res.Response {
				if !(resp > 0) {
					t.Errorf("%s: job %d response %v", spec, i, resp)
				}
			}
		})
	}
}
