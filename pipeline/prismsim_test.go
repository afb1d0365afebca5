package pipeline

import (
	"context"
	"testing"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/task"
)

// A spec's resources block gives the machines' capacity vectors; fields not
// given take seed 004's machine's.
func TestPhaseMachines(t *testing.T) {
	spec := &cluster.Spec{Resources: []cluster.ResourceType{
		{Name: "a", Count: 2, Resources: &cluster.MachineResources{CPUCores: 16, DiskMBs: 400}},
		{Name: "b", Count: 1},
	}}
	ms := PhaseMachines(spec)
	want := []task.Vector{{16, 8, 400, 125}, {16, 8, 400, 125}, task.Seed004Machine()}
	if len(ms) != len(want) {
		t.Fatalf("machines %v", ms)
	}
	for i := range want {
		if ms[i] != want[i] {
			t.Errorf("machine %d: %v, want %v", i, ms[i], want[i])
		}
	}
}

// The resolution runs the phase-level policies as task.PhaseSim does on
// the same jobs, and checks their parameters.
func TestPhasePolicies(t *testing.T) {
	jobs := []task.Job{
		{ID: 0, Arrival: 0, Weight: 1, Stages: []task.Stage{{Tasks: []task.TaskSpec{{Duration: 10, Containers: 1}, {Duration: 30, Containers: 1}}}, {Tasks: []task.TaskSpec{{Duration: 20, Containers: 1}}}}},
		{ID: 1, Arrival: 4, Weight: 1, Stages: []task.Stage{{Tasks: []task.TaskSpec{{Duration: 5, Containers: 1}}}}},
	}
	r := &TaskLevel{Cluster: task.Uniform(2, 2), Jobs: jobs, Machines: []task.Vector{task.Seed004Machine(), task.Seed004Machine()}}
	sj := task.FluidJobs(jobs)
	for _, tc := range []struct {
		spec  string
		sched task.PhaseScheduler
	}{{"prism:alpha=0.5", task.SchedPrism}, {"fair-slots:map=2,reduce=1", task.SchedFair}, {"yarn-containers", task.SchedYARN}} {
		if _, err := r.Policy(tc.spec); err != nil {
			t.Fatalf("%s: %v", tc.spec, err)
		}
		got, err := r.NewSimulator().Simulate(context.Background(), sj, 0, r.Cluster.Rate(), tc.spec)
		if err != nil {
			t.Fatalf("%s: %v", tc.spec, err)
		}
		pp, _ := r.parsePhase(tc.spec)
		if pp.cfg.Scheduler != tc.sched || pp.cfg.Thrash != task.Seed004Thrash() || pp.cfg.Heartbeat != PhaseHeartbeat {
			t.Errorf("%s: config %+v", tc.spec, pp.cfg)
		}
		pj, _ := pp.runner.PhaseJobs(jobs)
		s, _ := task.NewPhaseSim(pp.cfg, pj)
		want, err := s.Run()
		if err != nil {
			t.Fatal(err)
		}
		for i := range jobs {
			if got.Completion[i] != want.Completion[i] || got.Response[i] != want.RunTime[i] {
				t.Errorf("%s job %d: completion %v, response %v; direct %v, %v", tc.spec, i, got.Completion[i], got.Response[i], want.Completion[i], want.RunTime[i])
			}
		}
		if m := r.PhaseMetricsOf([]string{tc.spec}); len(m) != 1 || m[0].MeanRunTime != want.MeanRun {
			t.Errorf("%s: metrics %+v, want mean %v s", tc.spec, m, want.MeanRun)
		}
	}
	fs, _ := r.parsePhase("fair-slots:map=2,reduce=1")
	if fs.cfg.MapSlots != 2 || fs.cfg.ReduceSlots != 1 {
		t.Errorf("fair-slots slots %d/%d", fs.cfg.MapSlots, fs.cfg.ReduceSlots)
	}
	yc, _ := r.parsePhase("yarn-containers:map=4")
	if c := yc.cfg.Container[task.MapSide]; c[task.CPU] != 1 || c[task.Memory] != 2 {
		t.Errorf("yarn map container %v, want 1 core, 2 GB (a machine / 4)", c)
	}
	// oob= is the heartbeat model's (all three); hold= PRISM's.
	for _, spec := range []string{"prism:hold=1,oob=1", "fair-slots:oob=1,map=2", "yarn-containers:oob=true"} {
		pp, err := r.parsePhase(spec)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if !pp.cfg.OutOfBand || (pp.cfg.Scheduler == task.SchedPrism) != pp.cfg.Prism.Hold {
			t.Errorf("%s: out of band %v, hold %v", spec, pp.cfg.OutOfBand, pp.cfg.Prism.Hold)
		}
	}
	if pp, _ := r.parsePhase("prism"); pp.cfg.OutOfBand || pp.cfg.Prism.Hold {
		t.Errorf("prism: out of band or hold on by default")
	}
	for _, bad := range []string{"prism:oob=2", "fair-slots:oob=x", "prism:hold=yes", "prism:k=-1", "prism:beta=1", "fair-slots:map=x", "fair-slots:reduce=0", "yarn-containers:map=100000", "yarn-containers:cores=1"} {
		if _, err := r.Policy(bad); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
	if _, err := (&TaskLevel{Cluster: r.Cluster, Jobs: jobs}).Policy("prism"); err == nil {
		t.Error("no machines: accepted")
	}
}
