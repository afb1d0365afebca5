package experiment

import (
	"cmp"
	"fmt"
	"slices"
	"sync"

	"github.com/schedplan/schedplan/cluster/sim"
)

// scaledCopies are a pool's copies of its experiments' jobs: one per
// experiment with a Scale (a load factor), each experiment's jobs with
// every size and estimate multiplied by its Scale, and one per Source and
// scale, which every experiment of that Source and scale shares. Each is
// built by the first of its units to run and dropped when the last one is
// done, so that the pool's workers share one copy (48 B a job: 0.14 GB
// for the 10 M log's 3 M validation jobs) instead of each holding its
// own, and jobs a Source builds are live only while their runs are.
//
// At most one copy is live at a time where waiting is safe: a worker
// about to build a copy while another's is live, and every unit of that
// other copy is already running, waits for them to end (before, the
// copies of two load factors were live together whenever one worker
// began a factor while the other finished the last: 0.36 GB of the 10 M
// log's validate peak; and the validation window of the exact-size and σ
// runs beside the first factor's copy: 0.37 GB of its 1.03 GB peak).
// runLongestFirst orders each factor's units so that the one left
// running at such a handover is short.
type scaledCopies struct {
	mu     sync.Mutex
	ended  sync.Cond     // broadcast when a copy is dropped
	of     []*scaledCopy // by experiment (nil: x reads its Jobs)
	all    []*scaledCopy // each copy once
	builds int           // copies built (tests)
	// spare is the array of the copy dropped last, which the next build
	// reuses while another copy is still to be built (nil otherwise).
	spare  []sim.Job
	reused int // builds into spare (tests)
}

// scaledCopy is one copy of scaledCopies, shared by the experiments that
// read it.
type scaledCopy struct {
	id        int // its index in all
	src       *Source
	scale     float64 // 1: none
	jobs      []sim.Job
	pending   int  // units of its experiments not done yet
	unstarted int  // units not begun
	waits     bool // its units may wait for another copy (every copy may be waited for)
}

// copyKey names the copy of a Source at a scale.
type copyKey struct {
	src   *Source
	scale float64
}

// newScaledCopies returns the pool's copies (of[x] nil: x reads its Jobs,
// unscaled). The units of an experiment whose runs wait for others' (a
// Sink, which passes rows in order, or a Reference) do not wait for
// another copy, nor do those of a copy it shares (blocked says why such a
// copy may still be waited for).
func newScaledCopies(xs []*Experiment, units []unit) *scaledCopies {
	s := &scaledCopies{of: make([]*scaledCopy, len(xs))}
	s.ended.L = &s.mu
	bySource := map[copyKey]*scaledCopy{}
	for xi, x := range xs {
		scaled := x.Scale > 0 && x.Scale != 1
		if !scaled && x.Source == nil {
			continue
		}
		k := copyKey{x.Source, 1}
		if scaled {
			k.scale = x.Scale
		}
		c := bySource[k]
		if c == nil || x.Source == nil {
			c = &scaledCopy{id: len(s.all), src: x.Source, scale: k.scale, waits: true}
			s.all = append(s.all, c)
			if x.Source != nil {
				bySource[k] = c
			}
		}
		c.waits = c.waits && x.Sink == nil && x.Reference == nil
		s.of[xi] = c
	}
	for _, u := range units {
		if c := s.of[u.x]; c != nil {
			c.pending++
			c.unstarted++
		}
	}
	return s
}

// scaled reports whether experiment x reads a copy (scaled, or built by
// its Source).
func (s *scaledCopies) scaled(x int) bool { return s.of[x] != nil }

// begin records that one of experiment x's units has begun.
func (s *scaledCopies) begin(x int) {
	if c := s.of[x]; c != nil {
		s.mu.Lock()
		c.unstarted--
		s.mu.Unlock()
	}
}

// get returns experiment x's copy (x is xs[xi]), building it on the
// first call after it was dropped — from the Source, else from a copy of
// x's Jobs; either way the same bits as scaling a copy of the jobs in
// place: size × Scale, estimate × Scale — after waiting for any other
// live copy whose units have all begun. The caller must not change the
// jobs.
func (s *scaledCopies) get(xi int, x *Experiment) ([]sim.Job, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.of[xi]
	for c.jobs == nil && c.waits && s.blocked(c) {
		s.ended.Wait()
	}
	if c.jobs == nil {
		spare := s.spare
		if s.spare = nil; !c.reuses(x, spare) {
			spare = nil // garbage before the build, not beside it
		}
		if scaledCopyHook != nil {
			scaledCopyHook(nil, spare, s.live())
		}
		jobs, err := c.build(x, spare)
		if err != nil {
			return nil, err
		}
		if spare != nil && &jobs[0] == &spare[0] {
			s.reused++
		}
		c.jobs = jobs
		s.builds++
		if scaledCopyHook != nil {
			scaledCopyHook(c.jobs, nil, s.live()-1)
		}
	}
	return c.jobs, nil
}

// reuses reports whether the copy is built into spare's array (a dropped
// copy's): it holds the jobs, and they are x's Jobs or its Source builds
// into an array (Into).
func (c *scaledCopy) reuses(x *Experiment, spare []sim.Job) bool {
	n := len(x.Jobs)
	if c.src != nil {
		n = c.src.N
	}
	return n > 0 && cap(spare) >= n && (c.src == nil || c.src.Into != nil)
}

// build builds the copy's jobs: its Source's, else x's Jobs copied, each
// job's size and estimate scaled; into spare's array when it is not nil
// (reuses).
func (c *scaledCopy) build(x *Experiment, spare []sim.Job) (jobs []sim.Job, err error) {
	switch {
	case c.src != nil && spare != nil:
		jobs, err = c.src.Into(spare[:0])
	case c.src != nil:
		jobs, err = c.src.Build()
	case spare != nil:
		jobs = append(spare[:0], x.Jobs...)
	default:
		jobs = slices.Clone(x.Jobs)
	}
	if err != nil {
		return nil, err
	}
	if c.src != nil && len(jobs) != c.src.N {
		return nil, fmt.Errorf("a source built %d jobs, want %d", len(jobs), c.src.N)
	}
	if c.scale != 1 {
		for i := range jobs {
			jobs[i].Size *= c.scale
			jobs[i].Estimate *= c.scale
		}
	}
	return jobs, nil
}

// blocked reports whether another copy is live that c may wait for: one
// whose units have all begun, so that it is dropped without c's help.
// Each of those units runs on a worker of its own and ends without the
// waiting one: a unit waits in get only while its copy is not built (and
// this one is), and one of a copy that does not wait (a Sink's, a
// Reference's) never waits in get; it may wait for an earlier unit's
// turn at the Sink, or for a reference run, but those began before it
// (planPool's order: sink turns in starting order, reference runs first)
// and do not wait in get either (a Sink's experiment's copy does not
// wait, nor does a Reference's Of, which names the Reference itself). So
// no chain of waits comes back to a worker waiting here.
func (s *scaledCopies) blocked(c *scaledCopy) bool {
	for _, o := range s.all {
		if o != c && o.jobs != nil && o.unstarted == 0 {
			return true
		}
	}
	return false
}

// live is the number of copies held (tests).
func (s *scaledCopies) live() int {
	n := 0
	for _, o := range s.all {
		if o.jobs != nil {
			n++
		}
	}
	return n
}

// done records that one of experiment x's units is done; the copy is
// dropped after the last of its units, and drop (the worker's buffers
// that may hold it) called before any worker waiting for it goes on.
func (s *scaledCopies) done(x int, drop func()) {
	c := s.of[x]
	if c == nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if c.pending--; c.pending <= 0 && c.jobs != nil {
		if s.toBuild() {
			// No unit reads it any more, nor does a worker's simulator
			// (drop, leave) that will run again.
			s.spare = c.jobs
		}
		c.jobs = nil
		drop()
		s.ended.Broadcast()
	}
}

// toBuild reports whether a copy is still to be built (one not held with
// units not done), which the spare would serve.
func (s *scaledCopies) toBuild() bool {
	for _, o := range s.all {
		if o.jobs == nil && o.pending > 0 {
			return true
		}
	}
	return false
}

// runLongestFirst reorders order (unit indices into units) so that within
// each run of consecutive units of one scaled experiment without a Sink or
// a Reference, the policies
// that read size estimates (SRPT, FSP, PFSP: the ones that keep trees of
// virtual schedules, the longest at every load) come first, in a stable
// order. A worker that begins the next factor then waits, if at all, for
// a short unit of the last one (scaledCopies). Which unit runs where does
// not change a result.
func runLongestFirst(order []int, units []unit, s *scaledCopies, uses func(u unit) sim.Uses) {
	for a := 0; a < len(order); {
		x := units[order[a]].x
		b := a + 1
		for b < len(order) && units[order[b]].x == x {
			b++
		}
		// Not an experiment with a Sink or a Reference: planPool gave their
		// units their sink turns and reference runs in the order as it was,
		// and a unit moved ahead of one it waits for deadlocks a pool with
		// fewer workers than the units moved.
		if c := s.of[x]; c != nil && c.waits {
			slices.SortStableFunc(order[a:b], func(i, j int) int {
				return cmp.Compare(rank(uses(units[i])), rank(uses(units[j])))
			})
		}
		a = b
	}
}

// rank is 0 for a policy that reads estimates, else 1.
func rank(u sim.Uses) int {
	if u.Estimates {
		return 0
	}
	return 1
}

// scaledCopyHook, when set (tests), is called before a scaled copy is
// built (with nil, and the dropped copy it is built into, if any) and
// after (with the copy), with the number of the pool's other copies held.
var scaledCopyHook func(jobs, into []sim.Job, others int)
