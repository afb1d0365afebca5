package task

import (
	"math"
	"testing"
)

// Hand-computed FIFO runs on one machine of 2 containers. Job A (t=0): 3
// maps of 2 s, 1 reduce of 1 s on 2 containers; job B (t=1): 1 map of 1 s.
func TestFIFOHand(t *testing.T) {
	jobs := []Job{mr(0, 3, 2, 1, 1, 2), mr(1, 1, 1, 0, 0, 0)}
	cl := Uniform(1, 2)
	// Barrier: A's maps run at 0–2 (two) and 2–4 (third); B takes the
	// container left at 2 (A has nothing else ready) and ends at 3; A's
	// reduce runs 4–5.
	r := runSpec(t, jobs, cl, "fifo", Options{})
	checkResponses(t, "barrier", responses(jobs, r), []float64{5, 2})
	// Slow start 0.5: at t=2 two of three maps are done, so A's reduce is
	// ready too. A's third map takes one container; A's reduce needs 2, so
	// it reserves the node and B waits (YARN reservation). At 4 the reduce
	// starts (ends at 5), then B runs 5–6.
	r = runSpec(t, jobs, cl, "fifo", Options{SlowStart: 0.5})
	checkResponses(t, "slow start", responses(jobs, r), []float64{5, 5})
	// Slow start 1/3: the reduce is ready at 2 as well; at 2 two maps have
	// completed; same as above.
	// An early reduce holds its containers until the maps finish: 2 maps
	// of 2 s and 1 of 4 s, 1 reduce of 1 s on 1 container, slow start 0.5,
	// 2 containers. t=0: m1, m2; t=2: m3 (to 6), reduce starts at 2, its
	// work ends at 3 but it finishes with the map stage at 6.
	j := mr(0, 3, 2, 1, 1, 1)
	j.Stages[0].Tasks[2].Duration = 4
	r = runSpec(t, []Job{j}, cl, "fifo", Options{SlowStart: 0.5})
	checkResponses(t, "early reduce", responses([]Job{j}, r), []float64{6})
}

// Heartbeats: one machine of 2 containers heartbeating every 1 s, at most
// one container per heartbeat. A job of 2 tasks of 0.5 s arriving at 0.2
// starts a task at 1 (ends 1.5) and one at 2 (ends 2.5).
func TestHeartbeat(t *testing.T) {
	jobs := []Job{mr(0.2, 2, 0.5, 0, 0, 0)}
	cl := Uniform(1, 2)
	cl.Heartbeat, cl.MaxAssign = 1, 1
	r := runSpec(t, jobs, cl, "fifo", Options{})
	checkResponses(t, "heartbeat", responses(jobs, r), []float64{2.3})
	cl.MaxAssign = 0
	r = runSpec(t, jobs, cl, "fifo", Options{})
	checkResponses(t, "heartbeat, no limit", responses(jobs, r), []float64{1.3})
}

// The checker catches what it claims to: fed events a correct simulator
// never produces, it reports each violation.
func TestCheckerCatches(t *testing.T) {
	jobs := []Job{mr(0, 3, 1, 1, 1, 2)}
	cl := Uniform(1, 2)
	fresh := func() (*Checker, *State) {
		var s Simulator
		s.setup(jobs, cl, 1, Options{})
		return NewChecker(&FIFO{}), &s.st
	}
	for _, tc := range []struct {
		name string
		do   func(c *Checker, s *State)
	}{
		{"started twice", func(c *Checker, s *State) {
			s.free[0] = 1
			c.TaskStarted(s, TaskRef{Job: 0, Stage: 0, Task: 0, Node: 0, Containers: 1})
			c.TaskStarted(s, TaskRef{Job: 0, Stage: 0, Task: 0, Node: 0, Containers: 1})
		}},
		{"before slow start", func(c *Checker, s *State) {
			s.free[0] = 0
			c.TaskStarted(s, TaskRef{Job: 0, Stage: 1, Task: 0, Node: 0, Containers: 2})
		}},
		{"double-booked", func(c *Checker, s *State) {
			s.free[0] = 1
			c.TaskStarted(s, TaskRef{Job: 0, Stage: 0, Task: 0, Node: 0, Containers: 1})
			s.free[0] = 0
			c.TaskStarted(s, TaskRef{Job: 0, Stage: 0, Task: 1, Node: 0, Containers: 1})
			c.TaskStarted(s, TaskRef{Job: 0, Stage: 0, Task: 2, Node: 0, Containers: 1})
		}},
		{"ended early", func(c *Checker, s *State) {
			s.free[0] = 1
			c.TaskStarted(s, TaskRef{Job: 0, Stage: 0, Task: 0, Node: 0, Containers: 1})
			s.free[0] = 2
			c.TaskEnded(s, TaskRef{Job: 0, Stage: 0, Task: 0, Node: 0, Containers: 1})
		}},
		{"idle container", func(c *Checker, s *State) {
			s.js[0].arrived = true
			s.ss[0].released = true
			s.ready, s.js[0].ready = 2, 2
			c.Dispatched(s)
		}},
		{"task never ran", func(c *Checker, s *State) {
			c.init = true
			c.setup(s)
			r := &Result{Completion: []float64{5}}
			c.Finish(jobs, r)
		}},
	} {
		c, s := fresh()
		tc.do(c, s)
		if c.Err() == nil {
			t.Errorf("%s: no violation reported", tc.name)
		} else {
			t.Logf("%s: %v", tc.name, c.Err())
		}
	}
}

// avoidNode0 is FIFO on every machine but machine 0: a per-node policy.
type avoidNode0 struct {
	FIFO
	perNode bool
}

func (a *avoidNode0) PerNode() bool { return a.perNode }
func (a *avoidNode0) Pick(n Node) (int, int) {
	if n.Index == 0 {
		return -1, -1
	}
	return a.FIFO.Pick(n)
}

// A policy that declines one machine (PerNode) is offered the others of
// its type; one that declines a type (the default) ends the round there.
func TestPerNodeDecline(t *testing.T) {
	jobs := []Job{mr(0, 2, 1, 0, 0, 0)}
	cl := Uniform(3, 1)
	r := run(t, jobs, cl, &avoidNode0{perNode: true}, Options{})
	checkResponses(t, "per node", responses(jobs, r), []float64{1})
	if _, err := Simulate(jobs, cl, &avoidNode0{}, Options{}); err == nil {
		t.Error("declining machine 0 as a type placed tasks")
	}
}

// Options.AdmitLimit (seed 000's admission module): three jobs of one
// 10 s task each arrive at 0, 1 and 2 on 4 containers; with a limit of 1
// the second is admitted when the first completes (10) and the third at
// 20, and they run one after another; without it, all at once.
func TestAdmitLimit(t *testing.T) {
	jobs := []Job{mr(0, 1, 10, 0, 0, 0), mr(1, 1, 10, 0, 0, 0), mr(2, 1, 10, 0, 0, 0)}
	cl := Uniform(1, 4)
	for _, tc := range []struct {
		limit          int
		admitted, done []float64
	}{
		{0, []float64{0, 1, 2}, []float64{10, 11, 12}},
		{1, []float64{0, 10, 20}, []float64{10, 20, 30}},
		{2, []float64{0, 1, 10}, []float64{10, 11, 20}},
	} {
		for _, spec := range []string{"fifo", "fair", "las_mq"} {
			r := runSpec(t, jobs, cl, spec, Options{AdmitLimit: tc.limit})
			for j := range jobs {
				if !near(r.Admitted[j], tc.admitted[j], 1e-9) || !near(r.Completion[j], tc.done[j], 1e-9) {
					t.Errorf("%s, limit %d: job %d admitted %v, done %v; want %v, %v", spec, tc.limit, j+1, r.Admitted[j], r.Completion[j], tc.admitted[j], tc.done[j])
				}
			}
		}
	}
}

// Options.ReduceRampup: one job of 4 maps of 10 s and 1 reduce of 1 s (1
// container) on 2 containers, slow start 0.25. At 10 two maps are done
// (half the stage), so the reduce may hold half the job's containers:
// the first free container goes to map 3 (the job holds none, the
// reduce's share would be all), the second to the reduce, which waits for
// the maps; map 4 runs 20–30 and the job ends at 30. Without ramp-up the
// maps run first (10–20) and the reduce 20–21. Fair and FIFO ask the
// engine's choice through nextTask, LAS_MQ leaves it to the engine.
func TestReduceRampup(t *testing.T) {
	jobs := []Job{mr(0, 4, 10, 1, 1, 1)}
	cl := Uniform(1, 2)
	for _, spec := range []string{"fifo", "fair", "las_mq"} {
		for _, tc := range []struct {
			rampup, want float64
		}{{0, 21}, {0.5, 30}, {1, 30}} {
			r := runSpec(t, jobs, cl, spec, Options{SlowStart: 0.25, ReduceRampup: tc.rampup})
			if !near(r.Completion[0], tc.want, 1e-9) {
				t.Errorf("%s, ramp-up %v: job done at %v, want %v", spec, tc.rampup, r.Completion[0], tc.want)
			}
		}
	}
}

// The wall clock is read only with Options.TimeRounds: off, SchedNanos
// stays 0 (the clock reads cost more than a FIFO decision); on, a run
// with decisions has a positive figure; the completions are the same.
func TestTimeRounds(t *testing.T) {
	jobs := make([]Job, 200)
	for i := range jobs {
		jobs[i] = mr(float64(i)*0.5, 1+i%7, 2, i%3, 1, 1+i%2)
	}
	cl := Uniform(3, 4)
	for _, spec := range []string{"fifo", "fair", "las_mq"} {
		off := runSpec(t, jobs, cl, spec, Options{})
		if off.SchedNanos != 0 {
			t.Errorf("%s: SchedNanos %d without TimeRounds, want 0", spec, off.SchedNanos)
		}
		done := append([]float64(nil), off.Completion...)
		on := runSpec(t, jobs, cl, spec, Options{TimeRounds: true})
		if on.Decisions == 0 || on.SchedNanos <= 0 {
			t.Errorf("%s: %d decisions in %d ns with TimeRounds, want a positive time", spec, on.Decisions, on.SchedNanos)
		}
		for j := range done {
			if math.Float64bits(done[j]) != math.Float64bits(on.Completion[j]) {
				t.Fatalf("%s: job %d completes at %v timed, %v untimed", spec, j, on.Completion[j], done[j])
			}
		}
	}
}
