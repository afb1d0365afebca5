package coshh

import (
	"testing"

	"github.com/schedplan/schedplan/cluster/task"
)

// demandChecker compares COSHHObserver.demand, before each of its calls,
// with the list it replaced: whether a job among those seen arrived at
// the observer's last scan is not done and has a ready task.
type demandChecker struct {
	*COSHHObserver
	t *testing.T
}

func (c demandChecker) check(s *task.State) {
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

func (c demandChecker) TaskStarted(s *task.State, t task.TaskRef) {
	c.check(s)
	c.COSHHObserver.TaskStarted(s, t)
}
func (c demandChecker) TaskEnded(s *task.State, t task.TaskRef) {
	c.check(s)
	c.COSHHObserver.TaskEnded(s, t)
}
func (c demandChecker) TaskKilled(s *task.State, t task.TaskRef) {
	c.check(s)
	c.COSHHObserver.TaskKilled(s, t)
}
func (c demandChecker) Dispatched(s *task.State) { c.check(s); c.COSHHObserver.Dispatched(s) }

// The observer's demand, now State.UserWaiting less the jobs arrived
// since its last scan, answers as the list of seen jobs did: through
// arrivals, stage releases, starts and preemptions (Fair with preemption
// kills tasks), at events and at heartbeats.
func TestCOSHHObserverDemand(t *testing.T) {
	for _, spec := range []string{"fifo", "fair", "fair:preempt=1"} {
		for seed := uint64(1); seed <= 6; seed++ {
			jobs, cl := indexInstance(seed, 60, 2)
			if seed%2 == 0 {
				cl.Heartbeat = 0.5
			}
			p, err := task.ParsePolicy(spec)
			if err != nil {
				t.Fatal(err)
			}
			c := demandChecker{&COSHHObserver{Seed: seed}, t}
			if _, err := task.Simulate(jobs, cl, p, task.Options{SlowStart: 0.5, Observer: c}); err != nil {
				t.Fatalf("%s seed %d: %v", spec, seed, err)
			}
		}
	}
}
