package task

import (
	"math/rand/v2"
	"testing"
)

func inQueue(q string, j Job) Job { j.Queue = q; return j }

// Hand-computed Fair Scheduler runs (Hadoop FairSharePolicy's comparator:
// needy queues by usage / min(minShare, demand), then usage / weight;
// MaxRunningAppsEnforcer for maxRunningApps). Two machines of 2 containers
// unless said; all tasks 1 s on 1 container, so the cluster runs in
// rounds of 4 tasks.
func TestFairHand(t *testing.T) {
	two := Uniform(2, 2)
	for _, tc := range []struct {
		name string
		root FairQueue
		cl   *Cluster
		jobs []Job
		want []float64
	}{
		// a (weight 3) and b (weight 1, min share 2). b is needy first and
		// takes 2 containers per round, a the other 2: b (4 tasks) ends
		// at 2, a (12 tasks) at 4.
		{"min share before weights",
			FairQueue{Children: []FairQueue{{Name: "a", Weight: 3}, {Name: "b", MinShare: 2}}}, two,
			[]Job{inQueue("a", mr(0, 12, 1, 0, 0, 0)), inQueue("b", mr(0, 4, 1, 0, 0, 0))}, []float64{4, 2}},
		// Without the min share, weights 3:1 give a 3 and b 1 per round:
		// both end at 4.
		{"weights",
			FairQueue{Children: []FairQueue{{Name: "a", Weight: 3}, {Name: "b"}}}, two,
			[]Job{inQueue("a", mr(0, 12, 1, 0, 0, 0)), inQueue("b", mr(0, 4, 1, 0, 0, 0))}, []float64{4, 4}},
		// Deficit order: a (min 2, 3 tasks), b (min 6, 12 tasks), c (no
		// min, 2 tasks). Round 1 by smallest usage/minShare: a (0/2, tie
		// by name), b (0/6), b (1/6), b (2/6 < a's 1/2): a 1, b 3, c 0.
		// Round 2 the same. Round 3: a's demand is 1 (min(2, 1) = 1): a 1,
		// b 3; a ends at 3. Round 4: b's last 3 (min(6, 3) = 3), c 1; b
		// ends at 4, c's last task runs in round 5.
		{"deficit order",
			FairQueue{Children: []FairQueue{{Name: "a", MinShare: 2}, {Name: "b", MinShare: 6}, {Name: "c"}}}, two,
			[]Job{inQueue("a", mr(0, 3, 1, 0, 0, 0)), inQueue("b", mr(0, 12, 1, 0, 0, 0)), inQueue("c", mr(0, 2, 1, 0, 0, 0))},
			[]float64{3, 4, 5}},
		// Fair within a queue: two jobs of 4 tasks share 2 + 2.
		{"fair within a queue",
			FairQueue{Children: []FairQueue{{Name: "a"}}}, two,
			[]Job{inQueue("a", mr(0, 4, 1, 0, 0, 0)), inQueue("a", mr(0, 4, 1, 0, 0, 0))}, []float64{2, 2}},
		{"fifo within a queue",
			FairQueue{Children: []FairQueue{{Name: "a", FIFO: true}}}, two,
			[]Job{inQueue("a", mr(0, 4, 1, 0, 0, 0)), inQueue("a", mr(0, 4, 1, 0, 0, 0))}, []float64{1, 2}},
		// maxRunningApps 1 on the parent of x and y: y's job waits for
		// x's; z is outside the limit.
		{"maxRunningApps",
			FairQueue{Children: []FairQueue{{Name: "p", MaxRunningApps: 1, Children: []FairQueue{{Name: "x"}, {Name: "y"}}}, {Name: "z"}}}, two,
			[]Job{inQueue("p.x", mr(0, 2, 1, 0, 0, 0)), inQueue("root.p.y", mr(0, 2, 1, 0, 0, 0)), inQueue("z", mr(0, 2, 1, 0, 0, 0))},
			[]float64{1, 2, 1}},
		// Equal keys (both idle, weight 1) go by name, not by the file's
		// order (FairShareComparator: FSQueue.getStartTime is 0, then
		// getName): a, declared second, runs first on the one container.
		{"ties by name",
			FairQueue{Children: []FairQueue{{Name: "b"}, {Name: "a"}}}, Uniform(1, 1),
			[]Job{inQueue("b", mr(0, 1, 1, 0, 0, 0)), inQueue("a", mr(0, 1, 1, 0, 0, 0))}, []float64{2, 1}},
		// Nested: root.p.z and root.q tie at root, p first by name; inside
		// p, y (declared after z) before z.
		{"nested ties by name",
			FairQueue{Children: []FairQueue{{Name: "q"}, {Name: "p", Children: []FairQueue{{Name: "z"}, {Name: "y"}}}}}, Uniform(1, 1),
			[]Job{inQueue("q", mr(0, 1, 1, 0, 0, 0)), inQueue("p.z", mr(0, 1, 1, 0, 0, 0)), inQueue("p.y", mr(0, 1, 1, 0, 0, 0))}, []float64{3, 2, 1}},
		// maxShare 1 on a: a's 2 tasks run one at a time while b idles
		// nothing (it has 1 task).
		{"maxShare",
			FairQueue{Children: []FairQueue{{Name: "a", MaxShare: 1}, {Name: "b"}}}, two,
			[]Job{inQueue("a", mr(0, 2, 1, 0, 0, 0)), inQueue("b", mr(0, 1, 1, 0, 0, 0))}, []float64{2, 1}},
	} {
		f := &Fair{Root: tc.root}
		r := run(t, tc.jobs, tc.cl, f, Options{})
		checkResponses(t, tc.name, responses(tc.jobs, r), tc.want)
	}
}

// Placement: one pool per user from the registry; unknown queues are
// created; parent queues and the root reject jobs.
func TestFairPlacement(t *testing.T) {
	jobs := []Job{mr(0, 4, 1, 0, 0, 0), mr(0, 4, 1, 0, 0, 0), mr(0, 4, 1, 0, 0, 0)}
	jobs[0].User, jobs[1].User, jobs[2].User = "u", "u", "v"
	// Pools u and v share 2 + 2 (u's two jobs 1 + 1): v's job ends at 2,
	// then u's jobs (2 tasks left each) take all 4 and end at 3.
	r := runSpec(t, jobs, Uniform(2, 2), "fair", Options{})
	checkResponses(t, "pool per user", responses(jobs, r), []float64{3, 3, 2})
	r = runSpec(t, jobs, Uniform(2, 2), "fair:pool=single,within=fifo", Options{})
	checkResponses(t, "one FIFO pool", responses(jobs, r), []float64{1, 2, 3})
	for _, q := range []string{"root", "p", "p.x.y"} {
		f := &Fair{Root: FairQueue{Children: []FairQueue{{Name: "p", Children: []FairQueue{{Name: "x"}}}}}}
		j := []Job{inQueue(q, mr(0, 1, 1, 0, 0, 0))}
		if _, err := Simulate(j, Uniform(1, 1), f, Options{}); err == nil {
			t.Errorf("queue %q: no error", q)
		} else {
			t.Logf("queue %q: %v", q, err)
		}
	}
}

// Preemption (Hadoop FairScheduler with yarn.scheduler.fair.preemption):
// one machine of 4 containers; A (queue a) takes all 4 with tasks of 100 s
// at 0; B (queue b, 2 tasks of 1 s) arrives at 1.
func TestFairPreemption(t *testing.T) {
	jobs := []Job{inQueue("a", mr(0, 4, 100, 0, 0, 0)), inQueue("b", mr(1, 2, 1, 0, 0, 0))}
	cl := Uniform(1, 4)
	for _, tc := range []struct {
		name    string
		b       FairQueue
		preempt bool
		want    []float64
		killed  int
	}{
		// Off: B waits for A's tasks.
		{"off", FairQueue{Name: "b", MinShare: 2, MinSharePreemptionTimeout: 5}, false, []float64{100, 100}, 0},
		// Min share 2, timeout 5: b is starved by 2 from t=1; at 6 A's two
		// newest tasks are killed (A keeps its fair share, 2 of 4); B
		// runs 6–7 and A's two tasks again 7–107.
		{"min share", FairQueue{Name: "b", MinShare: 2, MinSharePreemptionTimeout: 5}, true, []float64{107, 6}, 2},
		// Fair share 2, threshold 0.5: b is starved by 1 from t=1; at 6
		// one task of A is killed; B's tasks run 6–7 and 7–8, A's killed
		// task 8–108.
		{"fair share", FairQueue{Name: "b", FairSharePreemptionTimeout: 5}, true, []float64{108, 7}, 1},
	} {
		f := &Fair{Root: FairQueue{Children: []FairQueue{{Name: "a"}, tc.b}}, Preemption: tc.preempt}
		r := run(t, jobs, cl, f, Options{})
		checkResponses(t, tc.name, responses(jobs, r), tc.want)
		if r.Preempted != tc.killed || r.Tasks != 6+tc.killed {
			t.Errorf("%s: %d preempted, %d task starts; want %d and %d", tc.name, r.Preempted, r.Tasks, tc.killed, 6+tc.killed)
		}
	}
}

// Preemption on random workloads of long tasks, at events and with
// heartbeats, with and without slow start (early reduces are preempted
// too): the invariant checker passes and tasks are preempted.
func TestFairPreemptionRandom(t *testing.T) {
	root := FairQueue{FairSharePreemptionTimeout: 4, Children: []FairQueue{
		{Name: "a", MinShare: 4, MinSharePreemptionTimeout: 2},
		{Name: "b", Weight: 2, Children: []FairQueue{{Name: "x"}, {Name: "y", MinShare: 3, MinSharePreemptionTimeout: 1}}},
		{Name: "c", FIFO: true, FairSharePreemptionThreshold: 0.9}}}
	queues := []string{"a", "b.x", "b.y", "c"}
	het := &Cluster{Types: []MachineType{{Name: "s", Count: 3, Containers: 2, ExecRate: 0.5}, {Name: "f", Count: 2, Containers: 4, ExecRate: 2}}}
	hb := *het
	hb.Heartbeat, hb.MaxAssign = 0.5, 3
	for seed := uint64(1); seed <= 3; seed++ {
		rng := rand.New(rand.NewPCG(seed, 11))
		jobs := randomWorkload(rng, 50, het, 0.9)
		for i := range jobs {
			jobs[i].Queue = queues[rng.IntN(len(queues))]
			for s := range jobs[i].Stages {
				for k := range jobs[i].Stages[s].Tasks {
					jobs[i].Stages[s].Tasks[k].Duration *= 5
				}
			}
			jobs[i].Arrival *= 5
		}
		for _, cl := range []*Cluster{het, &hb} {
			for _, ss := range []float64{0, 0.2} {
				r := run(t, jobs, cl, &Fair{Root: root, Preemption: true}, Options{SlowStart: ss})
				if r.Preempted == 0 {
					t.Errorf("seed %d, heartbeat %v, slow start %v: nothing preempted", seed, cl.Heartbeat, ss)
				}
			}
		}
	}
}

// maxRunningApps per user (MaxRunningAppsEnforcer.canAppBeRunnable and
// updateRunnabilityOnAppRemoval), hand-computed on two machines of 2
// containers, tasks of 1 s on 1 container.
func TestFairUserMaxApps(t *testing.T) {
	two := Uniform(2, 2)
	as := func(u, q string, j Job) Job { j.User, j.Queue = u, q; return j }
	for _, tc := range []struct {
		name  string
		f     *Fair
		jobs  []Job
		want  []float64
		fails bool
	}{
		// No limit: a and b share 2 + 2; J0 and J2 share a's 2. J1 and J2
		// end at 2, J0 (4 tasks) at 3.
		{"no limit", &Fair{Root: FairQueue{Children: []FairQueue{{Name: "a"}, {Name: "b"}}}},
			[]Job{as("u", "a", mr(0, 4, 1, 0, 0, 0)), as("u", "b", mr(0, 4, 1, 0, 0, 0)), as("v", "a", mr(0, 2, 1, 0, 0, 0))},
			[]float64{3, 2, 2}, false},
		// u may run one job across queues: J1 (queue b) waits for J0 and
		// b's share goes to a: J0 and J2 2 + 2, J2 ends at 1, J0 at 2,
		// then J1 takes all 4 and ends at 3.
		{"user limit across queues", &Fair{Root: FairQueue{Children: []FairQueue{{Name: "a"}, {Name: "b"}}}, UserMaxApps: map[string]int{"u": 1}},
			[]Job{as("u", "a", mr(0, 4, 1, 0, 0, 0)), as("u", "b", mr(0, 4, 1, 0, 0, 0)), as("v", "a", mr(0, 2, 1, 0, 0, 0))},
			[]float64{2, 3, 1}, false},
		// The same by userMaxAppsDefault; v (1 job) is not held back.
		{"userMaxAppsDefault", &Fair{Root: FairQueue{Children: []FairQueue{{Name: "a"}, {Name: "b"}}}, UserMaxAppsDefault: 1},
			[]Job{as("u", "a", mr(0, 4, 1, 0, 0, 0)), as("u", "b", mr(0, 4, 1, 0, 0, 0)), as("v", "a", mr(0, 2, 1, 0, 0, 0))},
			[]float64{2, 3, 1}, false},
		// Queue a runs one job, user u one. J0 runs alone (4 tasks, ends
		// at 1). Then the lists of leaf a (J2, J3) and of u (J1, J2), in
		// submission order: J1 runs (u's slot), J2 may not (u is full),
		// J3 runs (a's slot) although J2 is ahead of it in a; two lists,
		// two jobs. J1 and J3 end at 2, then J2 runs and ends at 3.
		{"submission order over the lists", &Fair{Root: FairQueue{Children: []FairQueue{{Name: "a", MaxRunningApps: 1}, {Name: "b"}}}, UserMaxApps: map[string]int{"u": 1}},
			[]Job{as("u", "a", mr(0, 4, 1, 0, 0, 0)), as("u", "b", mr(0, 2, 1, 0, 0, 0)), as("u", "a", mr(0, 2, 1, 0, 0, 0)), as("v", "a", mr(0, 2, 1, 0, 0, 0))},
			[]float64{1, 2, 3, 2}, false},
		// queueMaxAppsDefault 1 for the queues created for jobs: x's two
		// jobs run one after the other (x1 shares with y 2 + 2 and ends at
		// 2, then x2 alone ends at 3); y is another queue.
		{"queueMaxAppsDefault", &Fair{QueueMaxAppsDefault: 1},
			[]Job{as("u", "x", mr(0, 4, 1, 0, 0, 0)), as("u", "x", mr(0, 4, 1, 0, 0, 0)), as("u", "y", mr(0, 4, 1, 0, 0, 0))},
			[]float64{2, 3, 2}, false},
		{"negative queueMaxAppsDefault", &Fair{QueueMaxAppsDefault: -1},
			[]Job{as("u", "a", mr(0, 1, 1, 0, 0, 0))}, nil, true},
		{"a user with jobs and a limit of 0", &Fair{Root: FairQueue{Children: []FairQueue{{Name: "a"}}}, UserMaxApps: map[string]int{"u": 0}},
			[]Job{as("u", "a", mr(0, 1, 1, 0, 0, 0))}, nil, true},
		{"negative default", &Fair{Root: FairQueue{Children: []FairQueue{{Name: "a"}}}, UserMaxAppsDefault: -1},
			[]Job{as("u", "a", mr(0, 1, 1, 0, 0, 0))}, nil, true},
	} {
		if tc.fails {
			if _, err := Simulate(tc.jobs, two, tc.f, Options{}); err == nil {
				t.Errorf("%s: no error", tc.name)
			}
			continue
		}
		r := run(t, tc.jobs, two, tc.f, Options{})
		checkResponses(t, tc.name, responses(tc.jobs, r), tc.want)
	}
}

// TestFairStartPlacesEachPairOnce checks that Start places each distinct
// queue and user once, not every job: its allocations do not grow with
// the jobs (a nested path's walk builds a string per level and job).
func TestFairStartPlacesEachPairOnce(t *testing.T) {
	cl := Uniform(4, 4)
	allocs := func(n int) float64 {
		jobs := make([]Job, n)
		for i := range jobs {
			jobs[i] = mr(float64(i), 1, 1, 0, 0, 1)
			jobs[i].User = string(rune('a' + i%3))
			jobs[i].Queue = "root.team.q" + string(rune('a'+i%2))
		}
		var s Simulator
		s.setup(jobs, cl, 1, Options{})
		f := &Fair{Placement: PlaceByQueue, Root: FairQueue{Name: "root", Children: []FairQueue{{Name: "team", Children: []FairQueue{{Name: "qa"}, {Name: "qb"}}}}}}
		return testing.AllocsPerRun(3, func() {
			if err := f.Start(&s.st); err != nil {
				t.Fatal(err)
			}
		})
	}
	small, large := allocs(100), allocs(10000)
	if large > small+20 {
		t.Errorf("Start allocated %.0f times for 100 jobs and %.0f for 10,000: placement grows with the jobs", small, large)
	}
}
