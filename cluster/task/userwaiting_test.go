package task

import "testing"

// waitingChecker compares State.UserWaiting with a count over every job
// at each observer call.
type waitingChecker struct {
	t     *testing.T
	calls int
}

func (c *waitingChecker) check(s *State) {
	c.calls++
	want := make([]int, len(s.Users()))
	for j := range s.Jobs() {
		if s.Ready(j) > 0 {
			want[s.User(j)]++
		}
	}
	for u, w := range want {
		if got := s.UserWaiting(u); got != w {
			c.t.Fatalf("t=%v: user %d has %d jobs with a ready task, UserWaiting says %d", s.Now(), u, w, got)
		}
	}
}

func (c *waitingChecker) TaskStarted(s *State, _ TaskRef) { c.check(s) }
func (c *waitingChecker) TaskEnded(s *State, _ TaskRef)   { c.check(s) }
func (c *waitingChecker) TaskKilled(s *State, _ TaskRef)  { c.check(s) }
func (c *waitingChecker) Dispatched(s *State)             { c.check(s) }

// demandChecker compares COSHHObserver.demand, before each of its calls,
// with the list it replaced: whether a job among those seen arrived at
// the observer's last scan is not done and has a ready task.
type demandChecker struct {
	*COSHHObserver
	t *testing.T
}

func (c demandChecker) check(s *State) {
	c.init(s)
	for u := range s.Users() {
		want := false
		for j := 0; j < c.seen; j++ {
			if s.User(j) == u && !s.Done(j) && s.Ready(j) > 0 {
				want = true
			}
		}
		if got := c.demand(s, u); got != want {
			c.t.Fatalf("t=%v, user %d: demand %v, want %v", s.Now(), u, got, want)
		}
	}
}

func (c demandChecker) TaskStarted(s *State, t TaskRef) {
	c.check(s)
	c.COSHHObserver.TaskStarted(s, t)
}
func (c demandChecker) TaskEnded(s *State, t TaskRef)  { c.check(s); c.COSHHObserver.TaskEnded(s, t) }
func (c demandChecker) TaskKilled(s *State, t TaskRef) { c.check(s); c.COSHHObserver.TaskKilled(s, t) }
func (c demandChecker) Dispatched(s *State)            { c.check(s); c.COSHHObserver.Dispatched(s) }

// UserWaiting counts each user's jobs with a ready task, and the COSHH
// observer's demand, now that count less the jobs arrived since its last
// scan, answers as the list of seen jobs did: through arrivals, stage
// releases, starts and preemptions (Fair with preemption kills tasks), at
// events and at heartbeats.
func TestUserWaiting(t *testing.T) {
	for _, spec := range []string{"fifo", "fair", "fair:preempt=1", "hpfsp"} {
		for seed := uint64(1); seed <= 6; seed++ {
			jobs, cl := wcInstance(seed, 60, 2)
			if seed%2 == 0 {
				cl.Heartbeat = 0.5
			}
			p, err := ParsePolicy(spec)
			if err != nil {
				t.Fatal(err)
			}
			w := &waitingChecker{t: t}
			c := demandChecker{&COSHHObserver{Seed: seed, Next: w}, t}
			if _, err := Simulate(jobs, cl, p, Options{SlowStart: 0.5, Observer: c}); err != nil {
				t.Fatalf("%s seed %d: %v", spec, seed, err)
			}
			if w.calls == 0 {
				t.Fatalf("%s seed %d: no observer call", spec, seed)
			}
		}
	}
}
