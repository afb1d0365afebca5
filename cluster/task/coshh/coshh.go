package coshh

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/schedplan/schedplan/cluster/task"
)

// COSHH is seed 003's scheduler as a task-level policy: a COSHHRouter
// (queuing, Alg. 1, at each arrival; routing, Alg. 2, at each free
// container of a machine type) driven by the core's notifications. Its
// plan (classes and the LP's suggested sets) comes from outside — package
// pipeline builds it from a classification and lp.SolveCOSHH
// (pipeline.NewCOSHHPolicy) — and so do the jobs' feature vectors in the
// plan's spaces. A job is waiting while it has a ready task; Pick returns
// the router's job and lets the core choose its earliest ready stage.
//
// Cost per call: that of the router (see COSHHRouter), plus O(1) to map
// the core's notifications.
type COSHH struct {
	task.Base
	// Plan is the routing plan; required before Start.
	Plan *COSHHPlan
	// Users gives each user (by name, as Job.User) her min share
	// (containers) and weight; a user not listed has min share 0 and
	// weight 1.
	Users map[string]COSHHUser
	// X1[j] and X2[j] are job j's feature vectors in the primary and
	// secondary classifications' spaces (X1 may be nil, or X1[j] nil, for
	// jobs of users without a min share).
	X1, X2 [][]float64
	// Tolerance and Replan as COSHHConfig's.
	Tolerance float64
	Replan    COSHHReplan
	// TimeDecisions times every Alg. 1 and Alg. 2 call (COSHHConfig).
	TimeDecisions bool

	s      *task.State
	router *COSHHRouter
	users  []int // state user index → router user index
	err    error
}

// Name implements Policy.
func (c *COSHH) Name() string { return "coshh" }

// Start implements Policy: it builds the router for the run's cluster and
// users.
func (c *COSHH) Start(s *task.State) error {
	if c.Plan == nil {
		return errors.New("coshh: no plan (classes and suggested sets): build the policy with pipeline.NewCOSHHPolicy")
	}
	n := len(s.Jobs())
	if len(c.X2) != n || (c.X1 != nil && len(c.X1) != n) {
		return fmt.Errorf("coshh: feature vectors for %d (primary %d) jobs, the run has %d", len(c.X2), len(c.X1), n)
	}
	names := s.Users()
	us := make([]COSHHUser, len(names))
	c.users = make([]int, len(names))
	for i, name := range names {
		u, ok := c.Users[name]
		if !ok {
			u = COSHHUser{Weight: 1}
		}
		us[i], c.users[i] = u, i
	}
	cl := s.Cluster()
	machines := make([]int, len(cl.Types))
	for t, mt := range cl.Types {
		machines[t] = mt.Count
	}
	r, err := NewCOSHHRouter(COSHHConfig{Users: us, Machines: machines, Plan: c.Plan, Tolerance: c.Tolerance,
		Replan: c.Replan, TimeDecisions: c.TimeDecisions})
	if err != nil {
		return err
	}
	c.s, c.router, c.err = s, r, nil
	return nil
}

// Router returns the run's router (nil before Start): its Overhead, Plan
// and ReplicaCandidates.
func (c *COSHH) Router() *COSHHRouter { return c.router }

// Arrive implements Policy (Alg. 1). Start has checked the feature
// vectors' lengths; an error of the router here (a non-finite vector, a
// failing re-plan) is kept for Err, and the job is never picked.
func (c *COSHH) Arrive(j int) {
	var x1 []float64
	if c.X1 != nil {
		x1 = c.X1[j]
	}
	if err := c.router.Arrive(j, c.users[c.s.User(j)], x1, c.X2[j]); err != nil {
		if c.err == nil {
			c.err = err
		}
		return
	}
	c.router.Waiting(j, c.s.Ready(j) > 0)
}

// Err returns the first error of the run's queuing process (nil: none);
// a run with an error has jobs that were never scheduled.
func (c *COSHH) Err() error { return c.err }

// Released implements Policy.
func (c *COSHH) Released(j, _ int) {
	if c.router.known(j) {
		c.router.Waiting(j, c.s.Ready(j) > 0)
	}
}

// Started implements Policy.
func (c *COSHH) Started(t task.TaskRef) {
	c.router.Started(t.Job, t.Containers)
	c.router.Waiting(t.Job, c.s.Ready(t.Job) > 0)
}

// Ended implements Policy.
func (c *COSHH) Ended(t task.TaskRef) { c.router.Ended(t.Job, t.Containers) }

// Done implements Policy.
func (c *COSHH) Done(j int) { c.router.Done(j) }

// Pick implements Policy (Alg. 2 for the node's machine type).
func (c *COSHH) Pick(n task.Node) (int, int) {
	j, _ := c.router.Pick(n.Type)
	return j, -1
}

// makeCOSHH is the registry's constructor: it takes only the tolerance;
// the plan and feature vectors come from pipeline.NewCOSHHPolicy.
func makeCOSHH(_ string, p map[string]string) (task.Policy, error) {
	c := &COSHH{}
	for k, v := range p {
		switch k {
		case "tolerance":
			f, err := strconv.ParseFloat(v, 64)
			if err != nil || !(f >= 0) {
				return nil, fmt.Errorf("coshh: parameter tolerance=%q: want a number ≥ 0", v)
			}
			c.Tolerance = f
		default:
			return nil, fmt.Errorf("coshh: unknown parameter %q (known: tolerance)", k)
		}
	}
	return c, nil
}

// COSHHObserver measures seed 003 §5.1's user and locality metrics of a
// run under any policy (so that FIFO and Fair are measured as COSHH is):
// each user's containers and demand (a ready task) feed COSHHShareMetrics;
// each map task (first stage) reads one input block of its job, placed by
// Blocks (COSHHBlocks: COSHHReplication replicas from Candidates(job), nil
// meaning every machine, Hadoop's default placement; made from Candidates
// and Seed when nil), a block local to the task's node first as Hadoop's
// JobInProgress hands them out, and is local if one replica is on its
// node. Demand is refreshed
// for the task's user at each start and end and for every user after each
// scheduling round (Dispatched, O(users)); with heartbeats, rounds
// without a task start are not seen.
type COSHHObserver struct {
	Users      map[string]COSHHUser
	Candidates func(dst []int, job int) []int
	Seed       uint64
	// Blocks places the jobs' input blocks (nil: made at the first call).
	Blocks *COSHHBlocks
	// Next, when set, also sees every call (e.g. the Checker).
	Next task.Observer

	Locality COSHHLocality
	// JobLocality counts each job's map tasks and local ones (by job).
	JobLocality []COSHHLocality
	Metrics     *COSHHShareMetrics

	names    []string // the run's users
	user     []int    // job → user
	assigned []float64
	seen     int // jobs seen arrived (at the last scan)
}

func (o *COSHHObserver) init(s *task.State) {
	if o.Metrics != nil {
		return
	}
	names := s.Users()
	us := make([]COSHHUser, len(names))
	for i, name := range names {
		u, ok := o.Users[name]
		if !ok {
			u = COSHHUser{Weight: 1}
		}
		us[i] = u
	}
	o.Metrics = NewCOSHHShareMetrics(us, s.Now())
	o.names = names
	o.user = make([]int, len(s.Jobs()))
	for j := range o.user {
		o.user[j] = s.User(j)
	}
	o.assigned = make([]float64, len(names))
	o.JobLocality = make([]COSHHLocality, len(s.Jobs()))
	if o.Blocks == nil {
		o.Blocks = NewCOSHHBlocks(s.Jobs(), s.Cluster().Nodes(), o.Seed, o.Candidates)
	}
}

// demand reports whether one of the jobs seen arrived at the last scan
// has a ready task: the user's jobs with one (State.UserWaiting) less
// those that arrived since (jobs arrive in index order). O(jobs arrived
// since the last scan).
func (o *COSHHObserver) demand(s *task.State, user int) bool {
	n := s.UserWaiting(user)
	for j := o.seen; n > 0 && j < len(s.Jobs()) && s.Arrived(j); j++ {
		if s.User(j) == user && s.Ready(j) > 0 {
			n--
		}
	}
	return n > 0
}

// TaskStarted implements Observer.
func (o *COSHHObserver) TaskStarted(s *task.State, t task.TaskRef) {
	o.init(s)
	o.scan(s)
	if t.Stage == 0 {
		local := o.Blocks.Take(t.Job, t.Node)
		o.Locality.Add(local)
		o.JobLocality[t.Job].Add(local)
	}
	u := s.User(t.Job)
	o.assigned[u] += float64(t.Containers)
	o.Metrics.Update(s.Now(), u, o.assigned[u], o.demand(s, u))
	if o.Next != nil {
		o.Next.TaskStarted(s, t)
	}
}

// TaskEnded implements Observer; the end of a job's last task is an
// evaluation point of the §5.1 metrics (COSHHShareMetrics.Sample).
func (o *COSHHObserver) TaskEnded(s *task.State, t task.TaskRef) {
	o.release(s, t)
	if jobEnds(s, t) {
		o.Metrics.Sample()
	}
	if o.Next != nil {
		o.Next.TaskEnded(s, t)
	}
}

// jobEnds reports whether task t's end, being observed, completes its job:
// it is of the last stage and the stage's other tasks are done (the
// engine counts it done before its observers hear of it).
func jobEnds(s *task.State, t task.TaskRef) bool {
	last := s.Stages(t.Job) - 1
	return t.Stage == last && s.StageDone(t.Job, last) == len(s.Jobs()[t.Job].Stages[last].Tasks)
}

// TaskKilled implements Observer: a preempted task gives its containers
// back, as an ended one does, for the share metrics.
func (o *COSHHObserver) TaskKilled(s *task.State, t task.TaskRef) {
	o.release(s, t)
	if o.Next != nil {
		o.Next.TaskKilled(s, t)
	}
}

// release takes a task's containers off its user's share.
func (o *COSHHObserver) release(s *task.State, t task.TaskRef) {
	o.init(s)
	u := s.User(t.Job)
	o.assigned[u] -= float64(t.Containers)
	o.Metrics.Update(s.Now(), u, o.assigned[u], o.demand(s, u))
}

// scan counts the newly arrived jobs as seen.
func (o *COSHHObserver) scan(s *task.State) {
	n := len(s.Jobs())
	for o.seen < n && s.Arrived(o.seen) {
		o.seen++
	}
}

// Dispatched implements Observer: every user's demand after the round.
func (o *COSHHObserver) Dispatched(s *task.State) {
	o.init(s)
	o.scan(s)
	for u := range o.assigned {
		o.Metrics.Update(s.Now(), u, o.assigned[u], s.UserWaiting(u) > 0)
	}
	if o.Next != nil {
		o.Next.Dispatched(s)
	}
}

// COSHHTypeScale returns Job.TypeScale for a job from the execution-time
// model's times on each machine type (seed 003 §3.1; classify.MachineType
// .ExecTime: compute/(slots·exec_rate) + data/retrieve_rate, +Inf when the
// job's tasks do not fit the type's memory) and the types' slots and
// exec_rates: scale_t = time_t·slots_t·exec_rate_t / compute, so that a
// task runs (compute share)/exec_rate plus its share of the data term. A
// type the job does not fit gets MaxCOSHHTypeScale (the task runs, as
// paging would let it, but slowly). compute ≤ 0 or a non-finite result
// gives 1 (no data term to add).
func COSHHTypeScale(times []float64, slots []int, execRates []float64, compute float64) []float64 {
	out := make([]float64, len(times))
	for t, tm := range times {
		f := 1.0
		switch {
		case math.IsInf(tm, 1):
			f = MaxCOSHHTypeScale
		case compute > 0:
			f = tm * float64(slots[t]) * execRates[t] / compute
		}
		if !(f >= 1) || math.IsInf(f, 0) {
			f = math.Max(1, math.Min(f, MaxCOSHHTypeScale))
			if math.IsNaN(f) {
				f = 1
			}
		}
		out[t] = math.Min(f, MaxCOSHHTypeScale)
	}
	return out
}

// MaxCOSHHTypeScale caps a type scale (a job that does not fit a type's
// memory, or whose data term dwarfs its compute).
const MaxCOSHHTypeScale = 1e3

// COSHHRunMetrics are seed 003 §5.1's metrics of one task-level run.
type COSHHRunMetrics struct {
	Policy string
	// MeanCompletion is the mean of completion − arrival over the jobs, in
	// seconds.
	MeanCompletion float64
	// Dissatisfaction and Fairness are time averages over the run (from
	// the first scheduling round, at the first arrival, to the last
	// completion; COSHHShareMetrics).
	Dissatisfaction, Fairness float64
	// PaperDissatisfaction and PaperFairness are seed 003 §5.1's
	// Dissatisfaction(t) and Fairness(t) averaged over the run's job
	// completions, where the paper's simulator evaluates them (§5.2;
	// COSHHShareMetrics.AtCompletions): the figures of Tables 6–9; the
	// time averages when no job with tasks completed.
	PaperDissatisfaction, PaperFairness float64
	// Locality is the share of local map tasks, in percent; JobLocality
	// counts each job's map tasks and local ones.
	Locality    float64
	JobLocality []COSHHLocality
	// End is the last completion time (s): Dissatisfaction and Fairness
	// are averaged over [first arrival, End]. To compare runs of different
	// lengths, evaluate Shares at a common horizon (seed 003 compares
	// Dissatisfaction(T) at one T): after its last completion a run adds
	// no dissatisfaction.
	End    float64
	Shares *COSHHShareMetrics
	// Users holds per-user figures, in the order of State.Users (first
	// appearance in the jobs).
	Users []COSHHUserMetrics
	// Overhead is COSHH's scheduler overhead (Alg. 1–2 calls and time,
	// re-plans); zero for other policies. SchedNanos is the core's time in
	// scheduling rounds for every policy, in ns.
	Overhead   COSHHOverhead
	SchedNanos int64
}

// COSHHUserMetrics are one user's figures of a run: jobs, mean completion
// − arrival (s), and, over [first arrival, End], the time-averaged
// UserDissatisfaction and containers held.
type COSHHUserMetrics struct {
	Name                        string
	Jobs                        int
	MeanCompletion              float64
	Dissatisfaction, Containers float64
}

// SimulateCOSHHMetrics runs jobs on cl under p with a COSHHObserver and
// returns the metrics of seed 003 §5.1 beside the run's Result. users
// gives min shares and weights by user name; seed draws the replicas. For
// a *COSHH policy, replicas are placed on the machines of its jobs'
// suggested types (COSHHRouter.ReplicaCandidates, seed 003 §3.4) and Alg.
// 1–2 are timed; for others, on any machine (HDFS's default). A policy
// with a SetLocality(LocalityOracle) method gets the run's block
// placement (COSHHBlocks), which FIFO's LocalityPreference and Fair's
// LocalityDelay use when set. opt's
// Observer, if any, still sees every call. A run stops with ctx.Err() when
// ctx is done (Simulator.RunContext).
func SimulateCOSHHMetrics(ctx context.Context, jobs []task.Job, cl *task.Cluster, p task.Policy, users map[string]COSHHUser, seed uint64, opt task.Options) (*COSHHRunMetrics, *task.Result, error) {
	obs := &COSHHObserver{Users: users, Seed: seed, Next: opt.Observer}
	c, isCOSHH := p.(*COSHH)
	if isCOSHH {
		c.TimeDecisions = true
		obs.Candidates = func(dst []int, job int) []int { return c.Router().ReplicaCandidates(dst, job) }
	}
	obs.Blocks = NewCOSHHBlocks(jobs, cl.Nodes(), seed, obs.Candidates)
	if la, ok := p.(interface{ SetLocality(task.LocalityOracle) }); ok {
		la.SetLocality(obs.Blocks)
	}
	opt.Observer = obs
	opt.TimeRounds = true // COSHHRunMetrics.SchedNanos
	var s task.Simulator
	res, err := s.RunContext(ctx, jobs, cl, p, opt)
	if err != nil {
		return nil, nil, err
	}
	if isCOSHH && c.Err() != nil {
		return nil, nil, c.Err()
	}
	m := &COSHHRunMetrics{Policy: p.Name(), SchedNanos: res.SchedNanos, Locality: obs.Locality.Percent(), JobLocality: obs.JobLocality}
	end := 0.0
	for j := range jobs {
		m.MeanCompletion += res.Completion[j] - jobs[j].Arrival
		end = math.Max(end, res.Completion[j])
	}
	if len(jobs) > 0 {
		m.MeanCompletion /= float64(len(jobs))
	}
	m.End, m.Shares = end, obs.Metrics
	if obs.Metrics != nil {
		m.Dissatisfaction, m.Fairness = obs.Metrics.Dissatisfaction(end), obs.Metrics.Fairness(end)
		var n int
		if m.PaperDissatisfaction, m.PaperFairness, n = obs.Metrics.AtCompletions(); n == 0 {
			m.PaperDissatisfaction, m.PaperFairness = m.Dissatisfaction, m.Fairness // no job with tasks completed
		}
		m.Users = make([]COSHHUserMetrics, len(obs.names))
		for u, name := range obs.names {
			m.Users[u].Name = name
			m.Users[u].Dissatisfaction, m.Users[u].Containers = obs.Metrics.User(u, end)
		}
		for j := range jobs {
			um := &m.Users[obs.user[j]]
			um.Jobs++
			um.MeanCompletion += res.Completion[j] - jobs[j].Arrival
		}
		for u := range m.Users {
			if m.Users[u].Jobs > 0 {
				m.Users[u].MeanCompletion /= float64(m.Users[u].Jobs)
			}
		}
	}
	if isCOSHH {
		m.Overhead = c.Router().Overhead()
	}
	return m, res, nil
}
