package pipeline

import (
	"testing"

	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/pipeline/validation"
)

// blocksOn is a LocalityOracle: job j's blocks are on node on[j] only.
type blocksOn []int

func (b blocksOn) HasLocal(job, node int) bool { return b[job] == node }

// firstOnNode records the job of the first task started on each node.
type firstOnNode struct {
	task.Checker
	first map[int]int
}

func (f *firstOnNode) TaskStarted(s *task.State, t task.TaskRef) {
	if _, ok := f.first[t.Node]; !ok {
		f.first[t.Node] = t.Job
	}
	f.Checker.TaskStarted(s, t)
}

// TestSeed003BaselineHadoopLocality: COSHHBaseline's FIFO follows Hadoop 1's
// JobQueueTaskScheduler.assignTasks, which gives a free slot to the head
// job's local map, else its non-local one, and never passes the head job
// over for a later job's local block; Fair's delay scheduling does pass a
// job over for a node without its blocks. Two jobs of two maps arrive
// together on two one-container nodes; job 0's blocks are on node 1, job
// 1's on node 0.
func TestSeed003BaselineHadoopLocality(t *testing.T) {
	jobs := make([]task.Job, 2)
	for j := range jobs {
		jobs[j] = task.Job{ID: j, User: "u", Stages: []task.Stage{{Tasks: []task.TaskSpec{{Duration: 10, Containers: 1}, {Duration: 10, Containers: 1}}}}}
	}
	cl := &task.Cluster{Types: []task.MachineType{{Name: "m", Count: 2, Containers: 1, ExecRate: 1}}}
	for _, tc := range []struct {
		policy      string
		firstOnNode map[int]int
	}{
		{"fifo", map[int]int{0: 0, 1: 0}}, // the head job on both nodes, non-local on node 0
		{"fair", map[int]int{0: 1, 1: 0}}, // each job waits for its node
	} {
		p, err := validation.COSHHBaseline(tc.policy, cl.Nodes())
		if err != nil {
			t.Fatal(err)
		}
		p.(interface{ SetLocality(task.LocalityOracle) }).SetLocality(blocksOn{1, 0})
		obs := &firstOnNode{first: map[int]int{}}
		var s task.Simulator
		if _, err := s.Run(jobs, cl, p, task.Options{Observer: obs}); err != nil {
			t.Fatalf("%s: %v", tc.policy, err)
		}
		t.Logf("%s: the first task on node 0 is job %d's, on node 1 job %d's (job 0's blocks on node 1, job 1's on node 0)", tc.policy, obs.first[0], obs.first[1])
		for node, want := range tc.firstOnNode {
			if got := obs.first[node]; got != want {
				t.Errorf("%s: first task on node %d is job %d's, want job %d's", tc.policy, node, got, want)
			}
		}
	}
}
