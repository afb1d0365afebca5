package task

import (
	"math/rand/v2"
	"testing"
)

// Hand-computed bounds on a job's time alone (Job.Alone).
func TestAloneHand(t *testing.T) {
	// a: 1 machine of 2 containers at rate 1; b: 1 machine of 1 container
	// at rate 2; c: no machines (left out, however fast). R = 4, e = 2.
	het := &Cluster{Types: []MachineType{{Name: "a", Count: 1, Containers: 2, ExecRate: 1}, {Name: "b", Count: 1, Containers: 1, ExecRate: 2}, {Name: "c", Count: 0, Containers: 4, ExecRate: 100}}}
	scaled := func(j Job, s ...float64) Job { j.TypeScale = s; return j }
	for _, tc := range []struct {
		name string
		job  Job
		cl   *Cluster
		ss   float64
		want float64
	}{
		// max(10/8, 10/1): the task cannot use more than one container.
		{"one task", mr(0, 1, 10, 0, 0, 0), Uniform(2, 4), 0, 10},
		// max(20/4, 2/1): ten tasks on four containers, work-bound.
		{"many tasks", mr(0, 10, 2, 0, 0, 0), Uniform(1, 4), 0, 5},
		// max(6/4, 2/1): three tasks fit at once, critical-task-bound.
		{"tasks that fit", mr(0, 3, 2, 0, 0, 0), Uniform(1, 4), 0, 2},
		// map max(8/4, 1) = 2, then reduce max(1·3·2/4, 3) = 3.
		{"two stages", mr(0, 8, 1, 1, 3, 2), Uniform(1, 4), 0, 5},
		{"two stages, slow start 1", mr(0, 8, 1, 1, 3, 2), Uniform(1, 4), 1, 5},
		// Stages may overlap: max((8+6)/4, max(1, 3)).
		{"two stages, slow start 0.5", mr(0, 8, 1, 1, 3, 2), Uniform(1, 4), 0.5, 3.5},
		// max(12/4, 4/2) and max(4/4, 4/2).
		{"heterogeneous, work-bound", mr(0, 3, 4, 0, 0, 0), het, 0, 3},
		{"heterogeneous, one task", mr(0, 1, 4, 0, 0, 0), het, 0, 2},
		// TypeScale 1 on a, 4 on b: e_a = 1, e_b = 2/4 = 0.5, R = 2·1 +
		// 1·0.5 = 2.5, best e = 1 (type a now runs it fastest).
		{"type scale, one task", scaled(mr(0, 1, 4, 0, 0, 0), 1, 4, 1), het, 0, 4},
		{"type scale, work-bound", scaled(mr(0, 5, 1, 0, 0, 0), 1, 4, 1), het, 0, 2},
		// TypeScale 3 on a: e_a = 1/3, e_b = 2: R = 2/3 + 2, best 2:
		// max(4/(8/3), 4/2) = 2.
		{"type scale, best type b", scaled(mr(0, 1, 4, 0, 0, 0), 3, 1, 1), het, 0, 2},
		{"no tasks", Job{}, het, 0, 0},
		{"zero-length tasks", mr(0, 3, 0, 0, 0, 0), het, 0, 0},
	} {
		if got := tc.job.Alone(tc.cl, tc.ss); !near(got, tc.want, 1e-12) {
			t.Errorf("%s: Alone = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// The bound is exact for a job whose stages fit at once on the fastest
// containers: the engine runs it alone in exactly that time (without
// heartbeats), and a larger one takes at least the bound.
func TestAloneMatchesEngine(t *testing.T) {
	het := &Cluster{Types: []MachineType{{Name: "a", Count: 2, Containers: 2, ExecRate: 1}, {Name: "b", Count: 1, Containers: 3, ExecRate: 2}}}
	for _, tc := range []struct {
		name  string
		job   Job
		exact bool
	}{
		{"map-only, fits on b", mr(0, 3, 4, 0, 0, 0), true},
		{"map and reduce, fit on b", mr(0, 2, 4, 1, 6, 1), true},
		{"more maps than containers", mr(0, 9, 4, 0, 0, 0), false},
	} {
		r := runSpec(t, []Job{tc.job}, het, "fifo", Options{})
		b := tc.job.Alone(het, 0)
		if got := r.Completion[0]; (tc.exact && !near(got, b, 1e-12)) || got < b*(1-1e-12) {
			t.Errorf("%s: alone run %v, bound %v (exact: %v)", tc.name, got, b, tc.exact)
		}
	}
}

// Invariant: no job's response under any policy, alone or not, is below
// its bound, nor is the time alone (AloneTimes), and a job alone meets its
// capped fair-share deadline's arrival + Alone. (A slowdown, over the time
// alone, may be below 1: a job that finds the slow containers held by
// others runs on fast ones only, sooner than alone.)
func TestAloneBoundsResponses(t *testing.T) {
	cl := &Cluster{Types: []MachineType{{Name: "a", Count: 3, Containers: 2, ExecRate: 1}, {Name: "b", Count: 1, Containers: 4, ExecRate: 2.5}}}
	rng := rand.New(rand.NewPCG(7, 11))
	jobs := make([]Job, 40)
	at := 0.0
	for i := range jobs {
		at += rng.ExpFloat64() * 3
		jobs[i] = mr(at, 1+rng.IntN(12), 0.5+rng.Float64()*8, rng.IntN(3), 0.5+rng.Float64()*5, 1+rng.IntN(2))
		jobs[i].User = string(rune('u' + i%3))
		if i%4 == 0 {
			jobs[i].TypeScale = []float64{1 + rng.Float64()*3, 1 + rng.Float64()*3}
		}
	}
	alone, err := AloneTimes(jobs, cl, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range jobs {
		if b := jobs[i].Alone(cl, 0); alone[i] < b*(1-1e-9) {
			t.Errorf("job %d: time alone %v below its bound %v", i+1, alone[i], b)
		}
	}
	for _, ss := range []float64{0, 0.4} {
		for _, spec := range []string{"fifo", "fair:pool=user", "las_mq:k=3,alpha0=5,p=4", "srpt", "fsp", "las"} {
			r := runSpec(t, jobs, cl, spec, Options{SlowStart: ss})
			for i := range jobs {
				if resp, b := r.Completion[i]-jobs[i].Arrival, jobs[i].Alone(cl, ss); resp < b*(1-1e-9) {
					t.Errorf("%s, slow start %v: job %d responds in %v, below its alone bound %v", spec, ss, i+1, resp, b)
				}
			}
		}
	}
	for i := range jobs[:5] {
		dl, err := PSDeadlines(jobs[i:i+1], cl)
		if err != nil {
			t.Fatal(err)
		}
		if want := jobs[i].Arrival + jobs[i].Alone(cl, 0); !near(dl[0], want, 1e-9) {
			t.Errorf("job %d alone: deadline %v, want arrival + Alone = %v", i+1, dl[0], want)
		}
	}
}

// Hand-computed times alone under the engine's rules (AloneTimes), beside
// the lower bound Job.Alone, which ignores heartbeats, the assignment
// limit and the slow containers the engine fills.
func TestAloneTimesHand(t *testing.T) {
	tasks := func(d ...float64) Job {
		j := Job{Arrival: 0.4, Stages: []Stage{{}}}
		for _, x := range d {
			j.Stages[0].Tasks = append(j.Stages[0].Tasks, TaskSpec{Duration: x, Containers: 1})
		}
		return j
	}
	hb := func(cl *Cluster, h float64, limit int) *Cluster { cl.Heartbeat, cl.MaxAssign = h, limit; return cl }
	twoStages := mr(0.4, 2, 1, 1, 2, 2)
	for _, tc := range []struct {
		name         string
		job          Job
		cl           *Cluster
		alone, lower float64
	}{
		// Two machines of one container, heartbeat 1 s: node 0 beats at
		// 0, 1, 2, …, node 1 at 0.5, 1.5, …. Tasks 1, 2, 0.5 s arrive at
		// 0.4: node 1 takes the first at 0.5 (ends 1.5), node 0 the
		// second at 1 (ends 3), node 1 the third at its 1.5 beat (ends
		// 2): done at 3, 2.6 after arrival. Bound: max(3.5/2, 2) = 2.
		{"heartbeats", tasks(1, 2, 0.5), hb(Uniform(2, 1), 1, 0), 2.6, 2},
		// One machine of 2 containers, heartbeat 1 s, one task per beat:
		// beats at 1 (task 1, ends 2), 2 (task 2, ends 4), 3 (task 3,
		// ends 3.5): done at 4, 3.6 after arrival. Bound max(3.5/2, 2).
		{"assignment limit", tasks(1, 2, 0.5), hb(Uniform(1, 2), 1, 1), 3.6, 2},
		// No heartbeats: the fast container runs the first task (1 s),
		// the slow one (rate 0.01) the second: 100 s. Bound max(2/1.01, 1).
		{"slow container", tasks(1, 1), &Cluster{Types: []MachineType{{Name: "fast", Count: 1, Containers: 1, ExecRate: 1}, {Name: "slow", Count: 1, Containers: 1, ExecRate: 0.01}}}, 100, 2 / 1.01},
		// Stage barrier, heartbeat 1 s on one machine of 2 containers:
		// both maps at 1 (end 2), the reduce (2 containers, 2 s) at the
		// beat of 2: done at 4, 3.6 after arrival; bound 1 + 2.
		{"stages", twoStages, hb(Uniform(1, 2), 1, 0), 3.6, 3},
		{"no tasks", Job{Arrival: 3}, Uniform(1, 1), 0, 0},
	} {
		got, err := AloneTimes([]Job{tc.job}, tc.cl, Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if !near(got[0], tc.alone, 1e-9) {
			t.Errorf("%s: AloneTimes = %v, want %v", tc.name, got[0], tc.alone)
		}
		if b := tc.job.Alone(tc.cl, 0); !near(b, tc.lower, 1e-12) {
			t.Errorf("%s: Job.Alone = %v, want %v", tc.name, b, tc.lower)
		}
	}
}

// The time alone is attained: every work-conserving policy (Capacity
// without a binding user limit), given the job alone, completes
// it exactly then; FluidAlone passes it and SlowdownFloor to package sim.
func TestAloneTimesAttained(t *testing.T) {
	jobs, cl := wcInstance(3, 12, 2)
	cl.Heartbeat = 0.3
	jobs = append(jobs, Job{Arrival: jobs[len(jobs)-1].Arrival + 1, Queue: "a"})
	alone, err := AloneTimes(jobs, cl, Options{})
	if err != nil {
		t.Fatal(err)
	}
	fl := FluidAlone(jobs, cl)
	if fl.Floor != SlowdownFloor || len(fl.Times) != len(jobs) {
		t.Fatalf("FluidAlone: %d times, floor %v; want %d and %v", len(fl.Times), fl.Floor, len(jobs), SlowdownFloor)
	}
	for i := range jobs {
		if fl.Times[i] != alone[i] {
			t.Errorf("job %d: FluidAlone time %v, want %v", i+1, fl.Times[i], alone[i])
		}
		for _, spec := range []string{"fifo", "fair:pool=user", "las_mq", "srpt", "fsp", "las", "capacity:queues=a:50/b:50,ulf=100"} {
			r := runSpec(t, jobs[i:i+1], cl, spec, Options{})
			if got := r.Completion[0] - jobs[i].Arrival; !near(got, alone[i], 1e-9) {
				t.Errorf("%s: job %d alone responds in %v, AloneTimes %v", spec, i+1, got, alone[i])
			}
		}
	}
}

// AloneTimes reuses one Simulator: its runs, one a job, allocate nothing
// per job once the buffers have grown (the user and queue indexes
// included).
func TestAloneTimesAllocs(t *testing.T) {
	jobs := make([]Job, 200)
	for i := range jobs {
		jobs[i] = mr(float64(i), 3, 2, 1, 1, 2)
		jobs[i].User, jobs[i].Queue = "u"+string(rune('a'+i%5)), "q"+string(rune('a'+i%3))
	}
	cl := Uniform(4, 4)
	allocs := testing.AllocsPerRun(3, func() {
		if _, err := AloneTimes(jobs, cl, Options{}); err != nil {
			t.Fatal(err)
		}
	})
	if perJob := allocs / float64(len(jobs)); perJob > 0.5 {
		t.Errorf("AloneTimes: %v allocations for %d jobs (%.2f a job), want under 0.5 a job", allocs, len(jobs), perJob)
	}
}
