package tasklevel

import (
	"testing"

	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/cluster/yarn"
)

// An explicit maxRunningApps of 0 lets no application of the queue run in
// Hadoop (MaxRunningAppsEnforcer.canAppBeRunnable: runnable ≥ limit); the
// replay read it as no limit and ran them all. It now carries
// task.NoRunningApps, and task.Fair refuses a job placed under it; an
// unset limit stays none and a positive one is kept.
func TestFairQueueMaxRunningAppsZero(t *testing.T) {
	fs, err := yarn.ParseFairScheduler([]byte(`<allocations>
  <queue name="none"><maxRunningApps>0</maxRunningApps></queue>
  <queue name="two"><maxRunningApps>2</maxRunningApps></queue>
  <queue name="free"/>
</allocations>`))
	if err != nil {
		t.Fatal(err)
	}
	root := FairQueue(fs, fs.Root, 1024)
	want := map[string]int{"none": task.NoRunningApps, "two": 2, "free": 0}
	for _, c := range root.Children {
		if c.MaxRunningApps != want[c.Name] {
			t.Errorf("queue %s: MaxRunningApps %d, want %d", c.Name, c.MaxRunningApps, want[c.Name])
		}
	}
	jobs := []task.Job{{ID: 0, User: "u", Queue: "root.none", Stages: []task.Stage{{Tasks: []task.TaskSpec{{Duration: 1, Containers: 1}}}}}}
	_, err = task.Simulate(jobs, task.Uniform(1, 1), &task.Fair{Root: root}, task.Options{})
	if err == nil {
		t.Error("a job in a queue with maxRunningApps 0 was simulated; Hadoop never runs it")
	}
	jobs[0].Queue = "root.free"
	if _, err := task.Simulate(jobs, task.Uniform(1, 1), &task.Fair{Root: root}, task.Options{}); err != nil {
		t.Errorf("a job beside the queue with maxRunningApps 0: %v", err)
	}
}
