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

// UserWaiting counts each user's jobs with a ready task through arrivals,
// stage releases, starts and preemptions (Fair with preemption kills
// tasks), at events and at heartbeats.
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
			if _, err := Simulate(jobs, cl, p, Options{SlowStart: 0.5, Observer: w}); err != nil {
				t.Fatalf("%s seed %d: %v", spec, seed, err)
			}
			if w.calls == 0 {
				t.Fatalf("%s seed %d: no observer call", spec, seed)
			}
		}
	}
}
