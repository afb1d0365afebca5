package experiment

import (
	"sync"

	"github.com/schedplan/schedplan/cluster/sim"
)

// scaledCopy is an experiment's jobs with every size and estimate
// multiplied by its Scale (a load factor): built by the first of its
// units to run and dropped when the last one is done, so that the pool's
// workers share one copy (64 B a job: 0.19 GB for the 10 M log's 3 M
// validation jobs) instead of each holding its own.
type scaledCopy struct {
	mu      sync.Mutex
	jobs    []sim.Job
	pending int // units of the experiment not done yet
	builds  int // how many times the copy was built (tests)
}

// newScaledCopies returns each experiment's scaledCopy (nil: not scaled)
// for the pool's units.
func newScaledCopies(xs []*Experiment, units []unit) []*scaledCopy {
	out := make([]*scaledCopy, len(xs))
	for _, u := range units {
		if x := xs[u.x]; x.Scale > 0 && x.Scale != 1 {
			if out[u.x] == nil {
				out[u.x] = &scaledCopy{}
			}
			out[u.x].pending++
		}
	}
	return out
}

// get returns the scaled jobs, building them on the first call after the
// copy was dropped (the same bits as scaling a copy in place: size ×
// Scale, estimate × Scale). The caller must not change them.
func (c *scaledCopy) get(x *Experiment) []sim.Job {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.jobs == nil {
		if scaledCopyHook != nil {
			scaledCopyHook(nil)
		}
		c.jobs = make([]sim.Job, len(x.Jobs))
		for i, j := range x.Jobs {
			j.Size *= x.Scale
			j.Estimate *= x.Scale
			c.jobs[i] = j
		}
		c.builds++
		if scaledCopyHook != nil {
			scaledCopyHook(c.jobs)
		}
	}
	return c.jobs
}

// scaledCopyHook, when set (tests), is called before a scaled copy is
// built (with nil) and after (with the copy).
var scaledCopyHook func(jobs []sim.Job)

// done records that one of the experiment's units is done; the copy is
// dropped after the last.
func (c *scaledCopy) done() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.pending--; c.pending <= 0 {
		c.jobs = nil
	}
}
