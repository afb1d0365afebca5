package task

import (
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
)

// Hand-computed size-based runs on one container (seed 000's IDEAL
// baseline, seed 001's SRPT, LAS, FSP): A at 0 with 3 tasks of 1 s, B at
// 0.5 with 1 task of 1 s.
func TestSizeBasedHand(t *testing.T) {
	jobs := func(estB float64) []Job {
		a, b := mr(0, 3, 1, 0, 0, 0), mr(0.5, 1, 1, 0, 0, 0)
		b.Estimate = estB
		return []Job{a, b}
	}
	one := Uniform(1, 1)
	for _, tc := range []struct {
		spec string
		estB float64
		want []float64
	}{
		// At t=1, A's remaining estimate is 3 − 1 = 2 > B's 1: B runs 1–2.
		{"srpt", 1, []float64{4, 1.5}},
		// B's estimate 10 exceeds A's remaining 2: A runs on, B at 3–4.
		{"srpt", 10, []float64{3, 3.5}},
		// At t=1 A has service 1, B 0.
		{"las", 10, []float64{4, 1.5}},
		// Virtual PS at rate 1: A's tag 3; at 0.5 V = 0.5, B's tag 1.5.
		{"fsp", 1, []float64{4, 1.5}},
		// B's estimate 10: tag 10.5 > 3: A first.
		{"fsp", 10, []float64{3, 3.5}},
		{"fifo", 1, []float64{3, 3.5}},
	} {
		j := jobs(tc.estB)
		r := runSpec(t, j, one, tc.spec, Options{})
		checkResponses(t, tc.spec, responses(j, r), tc.want)
	}
}

// randomWorkload draws n map-reduce jobs with skewed tasks, users and
// queues, arriving as a Poisson process at about the given load on cl.
func randomWorkload(rng *rand.Rand, n int, cl *Cluster, load float64) []Job {
	shapes := make([]Shape, n)
	t := 0.0
	users := []string{"u1", "u2", "u3"}
	queues := []string{"a", "b"}
	meanWork := 0.0
	for i := range shapes {
		m := 1 + rng.IntN(30)
		r := rng.IntN(6)
		sh := Shape{MapTasks: m, ReduceTasks: r, MapSeconds: float64(m) * (1 + 10*rng.Float64()), User: users[rng.IntN(3)], Queue: queues[rng.IntN(2)], Weight: float64(1 + rng.IntN(3))}
		if r > 0 {
			sh.ReduceSeconds = float64(r) * (1 + 20*rng.Float64())
		}
		if rng.IntN(15) == 0 {
			sh = Shape{User: sh.User, Queue: sh.Queue} // a job without tasks
		}
		shapes[i] = sh
		meanWork += sh.MapSeconds + 2*sh.ReduceSeconds
	}
	meanWork /= float64(n)
	for i := range shapes {
		if rng.IntN(8) != 0 {
			t += rng.ExpFloat64() * meanWork / (load * cl.Rate())
		}
		shapes[i].Arrival = t
	}
	jobs, err := Synthesize(shapes, SynthOptions{Skew: 0.7, Seed: rng.Uint64()})
	if err != nil {
		panic(err)
	}
	for i := range jobs {
		jobs[i].Estimate *= math.Exp(0.5 * rng.NormFloat64())
	}
	return jobs
}

// forPolicy adapts the queues of random jobs (queues a, b, or none) to a
// Capacity configuration: one queue "default", or jobs without a queue in
// a.
func forPolicy(p Policy, jobs []Job) []Job {
	c, ok := p.(*Capacity)
	if !ok {
		return jobs
	}
	out := append([]Job(nil), jobs...)
	for i := range out {
		switch {
		case len(c.Root.Children) == 1:
			out[i].Queue = ""
		case out[i].Queue == "":
			out[i].Queue = "a"
		}
	}
	return out
}

// testSpecs covers every registered policy and the main options.
var testSpecs = []string{
	"fifo", "srpt", "fsp", "las",
	"las_mq", "las_mq:k=3,alpha0=20,p=4,limit=0", "las_mq:k=4,alpha0=10,p=10,order=fifo,stage=false,leftover=priority,limit=5",
	"las_mq:k=3,alpha0=50,decay=0", "las_mq:k=3,alpha0=50,weights=4/2/1",
	"fair", "fair:pool=queue,within=fifo", "fair:pool=single", "fair:pool=queue,preempt=20", "fair:preempt=3",
	"capacity", "capacity:queues=a:60:100/b:40:50,ulf=1.5", "capacity:queues=a:50/b:50,ulf=-1",
}

// Every policy on random workloads, with the invariant checker: on a
// heterogeneous cluster at events and with heartbeats, with a stage
// barrier and with slow start.
func TestRandomInvariants(t *testing.T) {
	het := &Cluster{Types: []MachineType{
		{Name: "slow", Count: 3, Containers: 2, ExecRate: 0.5},
		{Name: "fast", Count: 2, Containers: 4, ExecRate: 2},
		{Name: "mid", Count: 2, Containers: 3, ExecRate: 1}}}
	hb := *het
	hb.Heartbeat, hb.MaxAssign = 0.7, 2
	for seed := uint64(1); seed <= 4; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		for _, cl := range []*Cluster{het, &hb} {
			jobs := randomWorkload(rng, 60, cl, 0.8)
			for _, ss := range []float64{0, 0.3} {
				for _, spec := range testSpecs {
					p, err := ParsePolicy(spec)
					if err != nil {
						t.Fatal(err)
					}
					r := run(t, forPolicy(p, jobs), cl, p, Options{SlowStart: ss})
					if r.Tasks == 0 || r.Decisions == 0 {
						t.Fatalf("%s: %d tasks, %d decisions", spec, r.Tasks, r.Decisions)
					}
				}
			}
		}
	}
}

// Identical inputs give identical runs, for every policy; synthesised
// jobs depend only on the seed.
func TestDeterminism(t *testing.T) {
	cl := &Cluster{Types: []MachineType{{Name: "a", Count: 3, Containers: 4, ExecRate: 1}, {Name: "b", Count: 2, Containers: 2, ExecRate: 1.5}}}
	w1 := randomWorkload(rand.New(rand.NewPCG(9, 9)), 80, cl, 0.9)
	w2 := randomWorkload(rand.New(rand.NewPCG(9, 9)), 80, cl, 0.9)
	if !reflect.DeepEqual(w1, w2) {
		t.Fatal("same seed, different workloads")
	}
	w3 := randomWorkload(rand.New(rand.NewPCG(10, 9)), 80, cl, 0.9)
	if reflect.DeepEqual(w1, w3) {
		t.Fatal("different seeds, same workload")
	}
	for _, spec := range testSpecs {
		var s Simulator
		p1, _ := ParsePolicy(spec)
		w1, w2 := forPolicy(p1, w1), forPolicy(p1, w2)
		c1 := NewChecker(p1)
		r1, err := s.Run(w1, cl, p1, Options{Observer: c1})
		if err != nil {
			t.Fatal(err)
		}
		if err := c1.Finish(w1, r1); err != nil {
			t.Fatal(err)
		}
		first := append([]float64(nil), r1.Completion...)
		// The same Simulator and policy reused, and fresh ones.
		c2 := NewChecker(p1)
		r2, err := s.Run(w2, cl, p1, Options{Observer: c2})
		if err != nil {
			t.Fatal(err)
		}
		if err := c2.Finish(w2, r2); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(first, r2.Completion) {
			t.Errorf("%s: a reused simulator and policy give another run", spec)
		}
		r3 := runSpec(t, w2, cl, spec, Options{})
		if !reflect.DeepEqual(first, r3.Completion) {
			t.Errorf("%s: runs differ", spec)
		}
	}
}
