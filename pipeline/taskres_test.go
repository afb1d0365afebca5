package pipeline

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/cluster/yarn"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
)

// The YARN files convert to the task level's queue trees with YARN's
// meaning: capacities are percentages of the parent's
// (CSQueueUtils.updateAbsoluteCapacitiesByNodeLabels), minResources are
// memory (FairScheduler's AllocationFileQueueParser), rounded up to whole
// containers.
func TestYARNFilesToTaskTrees(t *testing.T) {
	csXML := `<configuration>
<property><name>yarn.scheduler.capacity.root.queues</name><value>a,b</value></property>
<property><name>yarn.scheduler.capacity.root.a.capacity</name><value>30</value></property>
<property><name>yarn.scheduler.capacity.root.a.maximum-capacity</name><value>50</value></property>
<property><name>yarn.scheduler.capacity.root.b.capacity</name><value>70</value></property>
<property><name>yarn.scheduler.capacity.root.b.user-limit-factor</name><value>2</value></property>
<property><name>yarn.scheduler.capacity.root.b.ordering-policy</name><value>fair</value></property>
<property><name>yarn.scheduler.capacity.root.b.minimum-user-limit-percent</name><value>25</value></property>
<property><name>schedplan.las-mq.root.a.demote-after-held-container-seconds</name><value>120</value></property>
</configuration>`
	cs, err := yarn.ParseCapacityScheduler([]byte(csXML))
	if err != nil {
		t.Fatal(err)
	}
	dem, err := tasklevel.DemotionsByPath(cs)
	if err != nil {
		t.Fatal(err)
	}
	root := tasklevel.CapacityQueue(cs, cs.Root, dem)
	if len(root.Children) != 2 {
		t.Fatalf("children %+v", root.Children)
	}
	a, b := root.Children[0], root.Children[1]
	if a.Name != "a" || !near(a.Capacity, 30) || !near(a.MaxCapacity, 50) || b.Name != "b" || !near(b.Capacity, 70) || !near(b.MaxCapacity, 100) || b.UserLimitFactor != 2 {
		t.Errorf("a %+v, b %+v", a, b)
	}
	// b is the last sibling: no demotion (a threshold there is refused, see
	// yarn.TestControllerRejects).
	if a.FairOrder || !b.FairOrder || a.MinUserLimitPercent != 100 || b.MinUserLimitPercent != 25 ||
		a.DemoteAfter != 120 || a.DemoteTo != "b" || b.DemoteAfter != 0 || b.DemoteTo != "" {
		t.Errorf("ordering, user limit or demotion: a %+v, b %+v", a, b)
	}
	fsXML := `<allocations>
<queue name="alice"><weight>3</weight><minResources>2049 mb, 1 vcores</minResources><maxRunningApps>4</maxRunningApps></queue>
<queue name="default"><schedulingPolicy>fifo</schedulingPolicy></queue>
</allocations>`
	fs, err := yarn.ParseFairScheduler([]byte(fsXML))
	if err != nil {
		t.Fatal(err)
	}
	fr := tasklevel.FairQueue(fs, fs.Root, 1024)
	al, df := fr.Children[0], fr.Children[1]
	if al.Weight != 3 || al.MinShare != 3 || al.MaxRunningApps != 4 || al.FIFO || !df.FIFO || df.MinShare != 0 {
		t.Errorf("alice %+v, default %+v", al, df)
	}

	// Through the resolution: files load, jobs are placed, the registry's
	// policies dispatch by name.
	dir := t.TempDir()
	csPath, fsPath := filepath.Join(dir, "cs.xml"), filepath.Join(dir, "fs.xml")
	os.WriteFile(csPath, []byte(csXML), 0o644)
	os.WriteFile(fsPath, []byte(fsXML), 0o644)
	r := &tasklevel.TaskLevel{Cluster: task.Uniform(2, 2), Jobs: []task.Job{{User: "alice", Stages: []task.Stage{{Tasks: []task.TaskSpec{{Duration: 1, Containers: 1}}}}}}}
	for _, spec := range []string{"fair:file=" + fsPath, "las", "fifo", "srpt"} {
		if _, err := r.Policy(spec); err != nil {
			t.Errorf("%s: %v", spec, err)
		}
	}
	if _, err := r.Policy("capacity:file=" + csPath); err == nil || !strings.Contains(err.Error(), "default") {
		t.Errorf("a job placed in a queue the file lacks (root.default) was accepted: %v", err)
	}
	if _, err := r.Policy("fifo:file=" + fsPath); err == nil {
		t.Error("fifo:file= was accepted")
	}
	if info, _ := r.Policy("srpt"); !info.Uses.Estimates {
		t.Error("srpt does not say it uses estimates")
	}
}

// A fair-scheduler.xml's per-user application limits reach the task level
// (AllocationConfiguration.getUserMaxApps): user u may run one job, so of
// u's two jobs (4 tasks of 1 s each, two machines of 2 containers) the
// second waits for the first: they end at 1 and 2; without the <user>
// element they share the cluster and both end at 2. userMaxAppsDefault
// does the same for users without an element, queueMaxAppsDefault for
// queues without maxRunningApps; a limit of 0 is refused.
func TestFairFileUserLimits(t *testing.T) {
	job := task.Job{User: "u", Queue: "", Stages: []task.Stage{{Tasks: make([]task.TaskSpec, 4)}}}
	for i := range job.Stages[0].Tasks {
		job.Stages[0].Tasks[i] = task.TaskSpec{Duration: 1, Containers: 1}
	}
	for _, tc := range []struct {
		name, extra string
		want        []float64
	}{
		{"no limit", "", []float64{2, 2}},
		{"user element", `<user name="u"><maxRunningApps>1</maxRunningApps></user>`, []float64{1, 2}},
		{"userMaxAppsDefault", `<userMaxAppsDefault>1</userMaxAppsDefault>`, []float64{1, 2}},
		// queueMaxAppsDefault applies to every queue without maxRunningApps
		// (AllocationConfiguration.getQueueMaxApps), u's and root.
		{"queueMaxAppsDefault", `<queueMaxAppsDefault>1</queueMaxAppsDefault>`, []float64{1, 2}},
		{"queueMaxAppsDefault 0", `<queueMaxAppsDefault>0</queueMaxAppsDefault>`, nil},
		{"limit 0", `<user name="u"><maxRunningApps>0</maxRunningApps></user>`, nil},
	} {
		path := filepath.Join(t.TempDir(), "fair-scheduler.xml")
		xml := "<allocations>" + tc.extra + `<queue name="u"/><queue name="default"/></allocations>`
		if err := os.WriteFile(path, []byte(xml), 0o644); err != nil {
			t.Fatal(err)
		}
		r := &tasklevel.TaskLevel{Cluster: task.Uniform(2, 2), Jobs: []task.Job{job, job}}
		res, err := r.NewSimulator().Simulate(context.Background(), task.FluidJobs(r.Jobs), 0, r.Cluster.Rate(), "fair:file="+path)
		if tc.want == nil {
			if err == nil {
				t.Errorf("%s: accepted", tc.name)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for k, w := range tc.want {
			if !near(res.Response[k], w) {
				t.Errorf("%s: job %d response %v, want %v", tc.name, k, res.Response[k], w)
			}
		}
	}
}
