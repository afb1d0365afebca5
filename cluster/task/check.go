package task

import (
	"fmt"
	"math"
)

// Checker is an Observer that verifies a run's invariants with its own
// bookkeeping, independent of the simulator's:
//
//   - no container is double-booked: the containers in use on a machine
//     never exceed its containers, and the simulator's free count agrees;
//   - no task of a later stage starts before its job's slow-start point,
//     and none ends before the previous stage has completed;
//   - every task starts once and ends once (a preempted task starts
//     again), at max(start + duration · Job.TypeScale / exec_rate, end of
//     the previous stage), and every job completes when its last task ends;
//   - work conservation, for policies whose WorkConserving() is true:
//     after a scheduling round at events, no machine without a
//     reservation has as many free containers as an eligible job's next
//     ready task needs (a job is eligible unless the policy's Eligible(j)
//     says otherwise); with heartbeats, the same of each node after its
//     heartbeat, unless the assignment limit (MaxAssign) ended it.
//
// It records the first violation; Err returns it. Use one Checker per run.
type Checker struct {
	p  Policy
	wc bool
	// forceWC checks work conservation whatever the policy's
	// WorkConserving says, every arrived job eligible (the tests of
	// every policy).
	forceWC bool
	elig    func(int) bool
	init    bool
	err     error
	off     []int     // first task of each global stage
	state   []uint8   // per task: 0 not started, 1 running, 2 ended
	start   []float64 // per task: start time
	node    []int32   // per task: node
	stEnd   []float64 // per global stage: completion time (NaN: not yet)
	stDone  []int32   // per global stage: ended tasks
	s0      []int     // per job: first global stage
	used    []int     // per node: containers in use
	last    []float64 // per job: last task end
}

// NewChecker returns a checker for a run of policy p.
func NewChecker(p Policy) *Checker {
	return &Checker{p: p}
}

// Err is the first violation seen, or nil.
func (c *Checker) Err() error { return c.err }

func (c *Checker) failf(format string, a ...any) {
	if c.err == nil {
		c.err = fmt.Errorf("invariant: "+format, a...)
	}
}

func (c *Checker) setup(s *State) {
	c.init = true
	// Asked after the policy's Start, which may decide it.
	if w, ok := c.p.(interface{ WorkConserving() bool }); ok {
		c.wc = w.WorkConserving()
	}
	if e, ok := c.p.(interface{ Eligible(int) bool }); ok {
		c.elig = e.Eligible
	}
	if c.forceWC {
		c.wc, c.elig = true, nil
	}
	jobs := s.Jobs()
	c.s0 = make([]int, len(jobs))
	c.last = make([]float64, len(jobs))
	n := 0
	for j := range jobs {
		c.s0[j] = len(c.off)
		for _, st := range jobs[j].Stages {
			c.off = append(c.off, n)
			n += len(st.Tasks)
		}
	}
	c.off = append(c.off, n)
	c.state = make([]uint8, n)
	c.start = make([]float64, n)
	c.node = make([]int32, n)
	c.stEnd = make([]float64, len(c.off)-1)
	c.stDone = make([]int32, len(c.off)-1)
	for i := range c.stEnd {
		c.stEnd[i] = math.NaN()
	}
	c.used = make([]int, s.NumNodes())
}

func (c *Checker) idx(t TaskRef) (g, k int) {
	g = c.s0[t.Job] + t.Stage
	return g, c.off[g] + t.Task
}

func (c *Checker) TaskStarted(s *State, t TaskRef) {
	if !c.init {
		c.setup(s)
	}
	g, k := c.idx(t)
	jobs := s.Jobs()
	spec := jobs[t.Job].Stages[t.Stage].Tasks[t.Task]
	if c.state[k] != 0 {
		c.failf("job %d stage %d task %d started while running or after its end (at %v)", t.Job+1, t.Stage+1, t.Task+1, s.Now())
	}
	if t.Containers != spec.Containers {
		c.failf("job %d stage %d task %d holds %d containers, needs %d", t.Job+1, t.Stage+1, t.Task+1, t.Containers, spec.Containers)
	}
	if s.Now() < jobs[t.Job].Arrival {
		c.failf("job %d: task started at %v before the job's arrival %v", t.Job+1, s.Now(), jobs[t.Job].Arrival)
	}
	if t.Stage > 0 {
		n := c.off[g] - c.off[g-1]
		if done := c.stDone[g-1]; done < int32(n) && float64(done) < s.SlowStart()*float64(n)*(1-1e-12) {
			c.failf("job %d stage %d task %d started at %v with %d of %d tasks of stage %d completed (slow start %v)",
				t.Job+1, t.Stage+1, t.Task+1, s.Now(), done, n, t.Stage, s.SlowStart())
		}
	}
	c.state[k], c.start[k], c.node[k] = 1, s.Now(), int32(t.Node)
	c.used[t.Node] += t.Containers
	if capN := s.NodeContainers(t.Node); c.used[t.Node] > capN {
		c.failf("node %d double-booked at %v: %d containers in use of %d", t.Node, s.Now(), c.used[t.Node], capN)
	}
	c.agree(s, t.Node)
}

func (c *Checker) agree(s *State, n int) {
	if f := s.NodeFree(n); f != s.NodeContainers(n)-c.used[n] {
		c.failf("node %d at %v: simulator says %d free containers, checker %d", n, s.Now(), f, s.NodeContainers(n)-c.used[n])
	}
}

func (c *Checker) TaskEnded(s *State, t TaskRef) {
	if !c.init {
		c.setup(s)
	}
	g, k := c.idx(t)
	if c.state[k] != 1 {
		c.failf("job %d stage %d task %d ended without running (state %d)", t.Job+1, t.Stage+1, t.Task+1, c.state[k])
		return
	}
	if int(c.node[k]) != t.Node {
		c.failf("job %d stage %d task %d ended on node %d, started on %d", t.Job+1, t.Stage+1, t.Task+1, t.Node, c.node[k])
	}
	spec := s.Jobs()[t.Job].Stages[t.Stage].Tasks[t.Task]
	ty := s.NodeType(t.Node)
	d := spec.Duration / s.Cluster().Types[ty].ExecRate
	if sc := s.Jobs()[t.Job].TypeScale; sc != nil {
		d *= sc[ty] // Job.TypeScale
	}
	want := c.start[k] + d
	if t.Stage > 0 {
		if math.IsNaN(c.stEnd[g-1]) {
			c.failf("job %d stage %d task %d ended at %v before stage %d completed", t.Job+1, t.Stage+1, t.Task+1, s.Now(), t.Stage)
		} else {
			want = math.Max(want, c.stEnd[g-1])
		}
	}
	if math.Abs(s.Now()-want) > 1e-9*math.Max(1, math.Abs(want)) {
		c.failf("job %d stage %d task %d ended at %v, want %v", t.Job+1, t.Stage+1, t.Task+1, s.Now(), want)
	}
	c.state[k] = 2
	c.used[t.Node] -= t.Containers
	c.agree(s, t.Node)
	c.last[t.Job] = s.Now()
	c.stDone[g]++
	if int(c.stDone[g]) == c.off[g+1]-c.off[g] {
		c.stEnd[g] = s.Now()
	}
}

// TaskKilled: a preempted task frees its containers and may start again.
func (c *Checker) TaskKilled(s *State, t TaskRef) {
	if !c.init {
		c.setup(s)
	}
	_, k := c.idx(t)
	if c.state[k] != 1 || int(c.node[k]) != t.Node {
		c.failf("job %d stage %d task %d preempted on node %d without running there (state %d)", t.Job+1, t.Stage+1, t.Task+1, t.Node, c.state[k])
		return
	}
	c.state[k] = 0
	c.used[t.Node] -= t.Containers
	c.agree(s, t.Node)
}

func (c *Checker) Dispatched(s *State) {
	if !c.init {
		c.setup(s)
	}
	need, who := c.leastNeed(s)
	if who < 0 {
		return
	}
	for n := 0; n < s.NumNodes(); n++ {
		if c.idle(s, n, need, who) {
			return
		}
	}
}

// Heartbeat checks work conservation on node n after its heartbeat (with
// heartbeats, a node is a decision point only at its own heartbeats),
// unless the heartbeat's assignment limit ended it.
func (c *Checker) Heartbeat(s *State, n int, limited bool) {
	if !c.init {
		c.setup(s)
	}
	if limited {
		return
	}
	if need, who := c.leastNeed(s); who >= 0 {
		c.idle(s, n, need, who)
	}
}

// leastNeed returns the fewest containers a ready task of an eligible job
// needs, and that job (−1: none, or the check is off).
func (c *Checker) leastNeed(s *State) (need, who int) {
	need, who = math.MaxInt, -1
	if !c.wc || s.TotalReady() == 0 {
		return need, who
	}
	jobs := s.Jobs()
	for j := range jobs {
		if !s.Arrived(j) || s.Done(j) || s.Ready(j) == 0 || (c.elig != nil && !c.elig(j)) {
			continue
		}
		for st := range jobs[j].Stages {
			if k := s.NextContainers(j, st); k > 0 && k < need {
				need, who = k, j
			}
		}
	}
	return need, who
}

// idle records a violation if node n, not reserved, has need free
// containers while job who waits.
func (c *Checker) idle(s *State, n, need, who int) bool {
	if s.NodeReserved(n) < 0 && s.NodeFree(n) >= need {
		c.failf("work conservation at %v: node %d has %d free containers while job %d waits with a ready task of %d", s.Now(), n, s.NodeFree(n), who+1, need)
		return true
	}
	return false
}

// Finish checks the end of a run: every task ran once, every job
// completed when its last task ended.
func (c *Checker) Finish(jobs []Job, r *Result) error {
	if c.err != nil {
		return c.err
	}
	for j := range jobs {
		if !c.init {
			if jobs[j].NumTasks() > 0 {
				c.failf("job %d has tasks, but no task ran", j+1)
				return c.err
			}
			if r.Completion[j] != jobs[j].Arrival {
				c.failf("job %d without tasks completed at %v, arrived at %v", j+1, r.Completion[j], jobs[j].Arrival)
				return c.err
			}
			continue
		}
		for st := range jobs[j].Stages {
			g := c.s0[j] + st
			for k := c.off[g]; k < c.off[g+1]; k++ {
				if c.state[k] != 2 {
					c.failf("job %d stage %d task %d: state %d at the end (want ended once)", j+1, st+1, k-c.off[g]+1, c.state[k])
					return c.err
				}
			}
		}
		want := jobs[j].Arrival
		if jobs[j].NumTasks() > 0 {
			want = c.last[j]
		}
		if r.Completion[j] != want {
			c.failf("job %d completed at %v, its last task ended at %v", j+1, r.Completion[j], want)
			return c.err
		}
	}
	for n, u := range c.used {
		if u != 0 {
			c.failf("node %d: %d containers still in use at the end", n, u)
			return c.err
		}
	}
	return nil
}
