package tasklevel

import (
	"context"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/cluster/task/prism"
)

// A spec's resources block gives the machines' capacity vectors; fields not
// given take seed 004's machine's.
func TestPhaseMachines(t *testing.T) {
	spec := &cluster.Spec{Resources: []cluster.ResourceType{
		{Name: "a", Count: 2, Resources: &cluster.MachineResources{CPUCores: 16, DiskMBs: 400}},
		{Name: "b", Count: 1},
	}}
	ms := PhaseMachines(spec)
	want := []prism.Vector{{16, 8, 400, 125}, {16, 8, 400, 125}, prism.Seed004Machine()}
	if len(ms) != len(want) {
		t.Fatalf("machines %v", ms)
	}
	for i := range want {
		if ms[i] != want[i] {
			t.Errorf("machine %d: %v, want %v", i, ms[i], want[i])
		}
	}
}

// The resolution runs the phase-level policies as prism.PhaseSim does on
// the same jobs, and checks their parameters.
func TestPhasePolicies(t *testing.T) {
	jobs := []task.Job{
		{ID: 0, Arrival: 0, Weight: 1, Stages: []task.Stage{{Tasks: []task.TaskSpec{{Duration: 10, Containers: 1}, {Duration: 30, Containers: 1}}}, {Tasks: []task.TaskSpec{{Duration: 20, Containers: 1}}}}},
		{ID: 1, Arrival: 4, Weight: 1, Stages: []task.Stage{{Tasks: []task.TaskSpec{{Duration: 5, Containers: 1}}}}},
	}
	r := &TaskLevel{Cluster: task.Uniform(2, 2), Jobs: jobs, Machines: []prism.Vector{prism.Seed004Machine(), prism.Seed004Machine()}}
	sj := task.FluidJobs(jobs)
	for _, tc := range []struct {
		spec  string
		sched prism.PhaseScheduler
	}{{"prism:alpha=0.5", prism.SchedPrism}, {"fair-slots:map=2,reduce=1", prism.SchedFair}, {"yarn-containers", prism.SchedYARN}} {
		if _, err := r.Policy(tc.spec); err != nil {
			t.Fatalf("%s: %v", tc.spec, err)
		}
		got, err := r.NewSimulator().Simulate(context.Background(), sj, 0, r.Cluster.Rate(), tc.spec)
		if err != nil {
			t.Fatalf("%s: %v", tc.spec, err)
		}
		pp, _ := r.parsePhase(tc.spec)
		if def := prism.Seed004Config(tc.sched, r.Machines); pp.cfg.Scheduler != tc.sched || pp.cfg.Thrash != def.Thrash || pp.cfg.Heartbeat != def.Heartbeat ||
			pp.cfg.OutOfBand != def.OutOfBand || pp.cfg.FairAssign != def.FairAssign || pp.cfg.AMContainer != def.AMContainer || pp.cfg.MaxActiveApps != def.MaxActiveApps ||
			(tc.sched == prism.SchedYARN && pp.cfg.Container != def.Container) {
			t.Errorf("%s: config %+v", tc.spec, pp.cfg)
		}
		pj, _ := pp.runner.PhaseJobs(jobs)
		s, _ := prism.NewPhaseSim(pp.cfg, pj)
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
	// replicas=3 loads the reduce's disk and network with the output's two
	// remote replicas (prism.ReplicateHDFSWrites): end to end, the same
	// jobs use more disk.
	for _, spec := range []string{"fair-slots", "fair-slots:replicas=3"} {
		if _, err := r.NewSimulator().Simulate(context.Background(), sj, 0, r.Cluster.Rate(), spec); err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
	}
	if m := r.PhaseMetricsOf([]string{"fair-slots", "fair-slots:replicas=3"}); len(m) != 2 || !(m[1].Utilisation["disk"] > m[0].Utilisation["disk"]) {
		t.Errorf("replicas=3: metrics %+v, want more disk used than with one replica", m)
	}
	fs, _ := r.parsePhase("fair-slots:map=2,reduce=1")
	if fs.cfg.MapSlots != 2 || fs.cfg.ReduceSlots != 1 {
		t.Errorf("fair-slots slots %d/%d", fs.cfg.MapSlots, fs.cfg.ReduceSlots)
	}
	yc, _ := r.parsePhase("yarn-containers:map=4")
	if c := yc.cfg.Container[prism.MapSide]; c[prism.CPU] != 1 || c[prism.Memory] != 2 {
		t.Errorf("yarn map container %v, want 1 core, 2 GB (a machine / 4)", c)
	}
	// Container memory is granted in 1 GB steps (prism.YARNNormalize), as
	// Seed004Config's: a machine / 3 asks 8/3 GB and gets 3 GB, the default
	// reduce container (8/6 GB) 2 GB.
	yc, _ = r.parsePhase("yarn-containers:map=3")
	if c := yc.cfg.Container; c[prism.MapSide][prism.Memory] != 3 || c[prism.MapSide][prism.CPU] != 4.0/3 || c[prism.ReduceSide][prism.Memory] != 2 {
		t.Errorf("yarn containers %v, want map 4/3 cores and 3 GB, reduce 2 GB", c)
	}
	// oob= is the heartbeat model's (all three); phaseoob= and hold=
	// PRISM's; assignmultiple= fair-slots'.
	for _, tc := range []struct {
		spec              string
		oob, phase, multi bool
	}{{"prism:hold=1,oob=0,phaseoob=1", false, true, false}, {"fair-slots:oob=0,map=2", false, false, false},
		{"fair-slots:assignmultiple=1", true, false, true}, {"yarn-containers:oob=true", true, false, false}} {
		pp, err := r.parsePhase(tc.spec)
		if err != nil {
			t.Fatalf("%s: %v", tc.spec, err)
		}
		if pp.cfg.OutOfBand != tc.oob || pp.cfg.PhaseOutOfBand != tc.phase || (pp.cfg.FairAssign == prism.FairMapAndReduce) != tc.multi ||
			(pp.cfg.Scheduler == prism.SchedPrism) != pp.cfg.Prism.Hold {
			t.Errorf("%s: out of band %v, phases %v, assign %d, hold %v", tc.spec, pp.cfg.OutOfBand, pp.cfg.PhaseOutOfBand, pp.cfg.FairAssign, pp.cfg.Prism.Hold)
		}
	}
	if pp, _ := r.parsePhase("prism"); !pp.cfg.OutOfBand || pp.cfg.PhaseOutOfBand || pp.cfg.Prism.Hold {
		t.Errorf("prism: want task-end heartbeats (Hadoop 0.20.2), no phase-end ones and no hold by default")
	}
	if pp, _ := r.parsePhase("yarn-containers"); pp.cfg.OutOfBand || pp.cfg.Heartbeat != prism.Seed004YARNHeartbeat || pp.cfg.AMContainer == (prism.Vector{}) {
		t.Errorf("yarn-containers: want 1 s heartbeats, none out of band, an AM container: %+v", pp.cfg)
	}
	// replicas= is the workload's (all three): HDFS replicas of a reduce's
	// output write.
	for spec, want := range map[string]int{"prism": 1, "prism:replicas=3": 3, "fair-slots:replicas=3,map=4": 3, "yarn-containers:replicas=2": 2} {
		if pp, err := r.parsePhase(spec); err != nil || pp.replicas != want {
			t.Errorf("%s: replicas %v (%v), want %d", spec, pp, err, want)
		}
	}
	for _, bad := range []string{"prism:replicas=0", "fair-slots:replicas=x", "yarn-containers:replicas=513", "prism:oob=2", "fair-slots:oob=x", "prism:phaseoob=x", "fair-slots:phaseoob=1", "yarn-containers:assignmultiple=1", "fair-slots:assignmultiple=2", "prism:hold=yes", "prism:k=-1", "prism:beta=1", "fair-slots:map=x", "fair-slots:reduce=0", "yarn-containers:map=100000", "yarn-containers:cores=1"} {
		if _, err := r.Policy(bad); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
	// On machines of 0.5 GB no YARN container fits (memory is granted in
	// 1 GB steps, an AM gets 2 GB): refused before simulating, naming the
	// container, not a stalled run.
	small := &TaskLevel{Cluster: r.Cluster, Jobs: jobs, Machines: []prism.Vector{{4, 0.5, 100, 125}}}
	for _, spec := range []string{"yarn-containers", "yarn-containers:map=1,reduce=1"} {
		if _, err := small.Policy(spec); err == nil || !strings.Contains(err.Error(), "fits no machine") {
			t.Errorf("%s on a 0.5 GB machine: %v, want the container that fits no machine", spec, err)
		}
	}
	if _, err := small.Policy("fair-slots"); err != nil {
		t.Errorf("fair-slots on a 0.5 GB machine: %v (slots reserve no memory)", err)
	}
	// An unknown name lists the phase-level policies among the known.
	if _, err := r.Policy("gps"); err == nil || !strings.Contains(err.Error(), "yarn-containers") {
		t.Errorf("gps at task level: %v, want the known list with the phase-level policies", err)
	}
	if _, err := (&TaskLevel{Cluster: r.Cluster, Jobs: jobs}).Policy("prism"); err == nil {
		t.Error("no machines: accepted")
	}
}
