package task

import (
	"context"
	"fmt"
	"math"
	"time"
)

// Options tune a run.
type Options struct {
	// SlowStart is the fraction of a stage's tasks that must complete
	// before the next stage's tasks become runnable, in [0, 1] (Hadoop's
	// mapreduce.job.reduce.slowstart.completedmaps). The zero value means
	// 1: a stage starts when the previous one has finished (seed 000). A
	// task of a later stage that starts early holds its containers from its
	// start but cannot finish before the previous stage has: it ends at
	// max(start + duration/exec_rate, end of the previous stage).
	SlowStart float64
	// ReduceRampup, with SlowStart below 1, lets a job's early-released
	// next stage (reduces) start while its current stage (maps) still has
	// tasks waiting, as Hadoop's MapReduce ApplicationMaster ramps up
	// reduces (RMContainerAllocator.scheduleReduces,
	// mapreduce.job.reduce.rampup.limit, default 0.5): the next stage's
	// tasks may hold up to min(completed share of the current stage,
	// ReduceRampup) of the containers the job holds (counting the one
	// being offered), and within that limit they go first (the AM asks for
	// reduces at a higher priority than maps). 0: an early-released stage
	// starts only when the current one has no task waiting. In [0, 1].
	ReduceRampup float64
	// Observer, when not nil, sees every task start and end and every
	// scheduling round (the invariant checker is one).
	Observer Observer
	// UtilBuckets is the most buckets of the utilisation series (0: 512).
	UtilBuckets int
	// AdmitLimit is the most jobs in the system at once (0: no limit):
	// seed 000's job admission module (§4), which admits an arriving job
	// only while fewer than the limit are running and otherwise keeps it
	// pending until a job completes (30 on its testbed, for every policy
	// it compares: §5.2). Pending jobs are admitted in arrival order; the
	// policy sees a job (Arrive) at its admission, Result.Admitted.
	AdmitLimit int
	// Estimates, when not nil, are the run's size estimates, one per job,
	// in place of Job.Estimate (an error model's draws), and Queues, when
	// not nil, the queues the jobs name, one per job, in place of
	// Job.Queue (a YARN file's placement): a run with other estimates or
	// queues needs no copy of its jobs. Policies read them through
	// State.Estimate and State.QueueName.
	Estimates []float64
	Queues    []string
	// TimeRounds times every scheduling round with the wall clock
	// (Result.SchedNanos). Off, SchedNanos is 0 and a run reads no clock:
	// two clock reads a round cost more than a FIFO decision.
	TimeRounds bool
}

// Preempter is implemented by policies that preempt running tasks. After
// every round of events the simulator asks NextPreempt when the policy
// wants to look next (+Inf: not before something happens); at that time
// it calls Preempt, which kills tasks with kill (a killed task frees its
// containers at once, loses its work and is ready again), and then
// schedules.
type Preempter interface {
	NextPreempt() float64
	Preempt(kill func(TaskRef) error)
}

// Observer watches a run.
type Observer interface {
	TaskStarted(s *State, t TaskRef)
	TaskEnded(s *State, t TaskRef)
	// TaskKilled: a preempted task released its containers; it is ready
	// again.
	TaskKilled(s *State, t TaskRef)
	// Dispatched is called after each scheduling round at events (not
	// with heartbeats): when it returns, the policy has declined every
	// machine type that still has free containers.
	Dispatched(s *State)
}

// HeartbeatObserver is an Observer that also sees each node's heartbeat
// that offered the node to the policy: limited says the heartbeat's
// assignment limit (Cluster.MaxAssign) ended it.
type HeartbeatObserver interface {
	Heartbeat(s *State, node int, limited bool)
}

// Result is the outcome of one run.
type Result struct {
	// Completion[j] is job j's completion time, FirstStart[j] the start
	// of its first task (NaN for a job without tasks).
	Completion []float64
	FirstStart []float64
	// Admitted[j] is when job j entered the system: its arrival, or later
	// with an Options.AdmitLimit. Seed 000 measures a response from it
	// (§4).
	Admitted []float64
	// Events counts arrivals, task ends and heartbeats; Tasks the tasks
	// run; Decisions the policy's Pick calls.
	Events, Tasks, Decisions int
	// Preempted counts the tasks killed by a preempting policy (each ran
	// again: Tasks counts every start).
	Preempted int
	// SchedNanos is the wall-clock time spent in scheduling rounds (Pick
	// calls and the placements and notifications they cause), in ns, with
	// Options.TimeRounds (else 0). It is the one field that differs
	// between identical runs.
	SchedNanos int64
	// TypeBusy is the busy container-seconds per machine type.
	TypeBusy []float64
	// Util[t][b] is the mean share of machine type t's containers that
	// were busy during bucket b = [UtilStart + b·UtilWidth, … + UtilWidth),
	// from the first arrival to the last completion.
	UtilStart, UtilWidth float64
	Util                 [][]float64
}

// OverheadPerDecision is the mean scheduling time per decision in ns.
func (r *Result) OverheadPerDecision() float64 {
	if r.Decisions == 0 {
		return 0
	}
	return float64(r.SchedNanos) / float64(r.Decisions)
}

// event is a task end (g ≥ 0: global stage, task, run: its runInfo) or a
// heartbeat (g = −1, run: the node).
type event struct {
	t    float64
	g    int32
	task int32
	run  int32
	gen  int32 // the run's generation: a preempted task's event is stale
}

func (a *event) before(b *event) bool {
	if a.t != b.t {
		return a.t < b.t
	}
	if a.g != b.g {
		return a.g < b.g
	}
	if a.task != b.task {
		return a.task < b.task
	}
	return a.run < b.run || (a.run == b.run && a.gen < b.gen)
}

// runInfo is what a running task's end needs, kept from its start.
type runInfo struct {
	inv, sod float64 // progress terms 1/d and (start − arrival)/d; 0 when d = 0
	crate    float64 // containers × exec_rate
	start    float64
	g, task  int32
	node     int32
	c        int32
	gen      int32 // bumped when the slot is freed
	live     bool
	deferred bool // work done, waiting for the previous stage
}

// eventHeap is a 4-ary min-heap (shallower than binary: fewer cache
// misses with ~10^4 running tasks).
type eventHeap []event

func (h *eventHeap) push(e event) {
	*h = append(*h, e)
	a := *h
	i := len(a) - 1
	for i > 0 {
		p := (i - 1) / 4
		if !e.before(&a[p]) {
			break
		}
		a[i] = a[p]
		i = p
	}
	a[i] = e
}

func (h *eventHeap) pop() event {
	a := *h
	top := a[0]
	last := len(a) - 1
	x := a[last]
	a = a[:last]
	*h = a
	if last == 0 {
		return top
	}
	i := 0
	for {
		c := 4*i + 1
		if c >= last {
			break
		}
		m := c
		for k := c + 1; k < c+4 && k < last; k++ {
			if a[k].before(&a[m]) {
				m = k
			}
		}
		if !a[m].before(&x) {
			break
		}
		a[i] = a[m]
		i = m
	}
	a[i] = x
	return top
}

// Simulator runs task-level simulations and reuses its buffers between
// runs. It is not safe for concurrent use.
type Simulator struct {
	st  State
	p   Policy
	obs Observer
	res Result
	err error

	ev        eventHeap
	runFree   []int32
	pre       Preempter
	preAt     float64 // when the Preempter wants to look next
	preSame   int     // rounds at one time that preempted
	killFn    func(TaskRef) error
	perNode   bool      // the policy declines machines, not machine types
	declined  []int32   // machines a per-node policy declined this round
	hb        eventHeap // heartbeats (g = −1)
	order     []int32   // machine types, fastest first
	freeSet   []iheap   // per type: machines offered at events, by number
	nk        heapKeys  // their keys (all equal: order by number)
	hbMode    bool
	timed     bool // Options.TimeRounds
	hbArmed   []bool
	asleep    []bool
	sleeping  []int32
	hbIdle    int // heartbeats since anything changed
	util      utilAcc
	userIdx   map[string]int32
	queueIdx  map[string]int32
	decisions int
	admitMax  int // Options.AdmitLimit (0: none)
	inSys     int // jobs admitted and not done
}

// Simulate runs policy p over jobs on cluster cl. The Result is freshly
// allocated.
func Simulate(jobs []Job, cl *Cluster, p Policy, opt Options) (*Result, error) {
	var s Simulator
	return s.Run(jobs, cl, p, opt)
}

// Run simulates policy p over jobs on cluster cl. The Result and its
// slices belong to the Simulator and are overwritten by its next run.
func (s *Simulator) Run(jobs []Job, cl *Cluster, p Policy, opt Options) (*Result, error) {
	return s.RunContext(context.Background(), jobs, cl, p, opt)
}

// CancelCheckEvery is how many rounds of events a simulation runs between
// two looks at its context: a cancelled run stops within a few
// milliseconds, at a cost lost in the noise.
const CancelCheckEvery = 4096

// RunContext is Run that stops when ctx is done, returning ctx.Err()
// (checked every CancelCheckEvery rounds of events).
func (s *Simulator) RunContext(ctx context.Context, jobs []Job, cl *Cluster, p Policy, opt Options) (*Result, error) {
	if err := cl.Validate(); err != nil {
		return nil, err
	}
	if err := CheckJobs(jobs, cl); err != nil {
		return nil, err
	}
	ss := opt.SlowStart
	if ss == 0 {
		ss = 1
	}
	if !(ss >= 0 && ss <= 1) {
		return nil, fmt.Errorf("slow start %v is not in [0, 1]", opt.SlowStart)
	}
	if !(opt.ReduceRampup >= 0 && opt.ReduceRampup <= 1) {
		return nil, fmt.Errorf("reduce ramp-up %v is not in [0, 1]", opt.ReduceRampup)
	}
	if opt.AdmitLimit < 0 {
		return nil, fmt.Errorf("admission limit %d is negative", opt.AdmitLimit)
	}
	if opt.UtilBuckets < 0 || opt.UtilBuckets > 1<<20 {
		return nil, fmt.Errorf("utilisation buckets %d: need 0 to %d", opt.UtilBuckets, 1<<20)
	}
	if err := checkOverrides(jobs, opt); err != nil {
		return nil, err
	}
	s.setup(jobs, cl, ss, opt)
	s.p = p
	s.pre, s.preAt, s.preSame = nil, inf, 0
	if pr, ok := p.(Preempter); ok {
		s.pre = pr
		s.killFn = func(t TaskRef) error {
			if err := s.kill(t); err != nil {
				s.fail("%v", err)
				return err
			}
			return nil
		}
	}
	s.perNode = false
	if pn, ok := p.(interface{ PerNode() bool }); ok {
		s.perNode = pn.PerNode()
	}
	if err := p.Start(&s.st); err != nil {
		return nil, fmt.Errorf("%s: %w", p.Name(), err)
	}
	if err := s.loop(ctx); err != nil {
		return nil, err
	}
	s.finish()
	return &s.res, nil
}

func (s *Simulator) setup(jobs []Job, cl *Cluster, slow float64, opt Options) {
	st := &s.st
	stages := 0
	for i := range jobs {
		stages += len(jobs[i].Stages)
	}
	clear(st.exts) // the last run's lists
	*st = State{jobs: jobs, est: opt.Estimates, queueOf: opt.Queues, cl: cl, slowStart: slow, js: st.js[:0], ss: st.ss[:0], exts: st.exts[:0], types: st.types[:0], runs: st.runs[:0],
		nodeType: st.nodeType[:0], free: st.free[:0], resJob: st.resJob[:0], resStage: st.resStage[:0],
		users: st.users[:0], queues: st.queues[:0], userWaiting: st.userWaiting[:0], containers: cl.Containers(), rate: cl.Rate()}
	if cap(st.js) < len(jobs) {
		st.js = make([]jobRT, 0, len(jobs))
	}
	if cap(st.ss) < stages {
		st.ss = make([]stageRT, 0, stages)
	}
	if s.userIdx == nil {
		s.userIdx, s.queueIdx = map[string]int32{}, map[string]int32{}
	}
	clear(s.userIdx) // reused: AloneTimes runs one small simulation a job
	clear(s.queueIdx)
	for i := range jobs {
		j := &jobs[i]
		r := jobRT{s0: int32(len(st.ss)), ns: int32(len(j.Stages)), svcT: j.Arrival,
			user: intern(&st.users, s.userIdx, j.User), queue: intern(&st.queues, s.queueIdx, st.QueueName(i))}
		r.open = r.s0
		for k := range j.Stages {
			g := stageRT{job: int32(i), idx: int32(k), n: int32(len(j.Stages[k].Tasks)), svcT: j.Arrival}
			for _, t := range j.Stages[k].Tasks {
				g.totC += int32(t.Containers)
			}
			r.remC += g.totC
			st.ss = append(st.ss, g)
		}
		st.js = append(st.js, r)
	}
	st.userWaiting = append(st.userWaiting, make([]int32, len(st.users))...)
	nodes := cl.Nodes()
	for ti, t := range cl.Types {
		st.types = append(st.types, typeRT{first: int32(len(st.nodeType)), count: int32(t.Count), cpn: int32(t.Containers), rate: t.ExecRate})
		for k := 0; k < t.Count; k++ {
			st.nodeType = append(st.nodeType, int32(ti))
			st.free = append(st.free, int32(t.Containers))
			st.resJob = append(st.resJob, -1)
			st.resStage = append(st.resStage, -1)
		}
	}
	s.order = s.order[:0]
	for ti := range cl.Types {
		s.order = append(s.order, int32(ti))
	}
	// Fastest machine types first, then in spec order (insertion sort:
	// there are few types).
	for i := 1; i < len(s.order); i++ {
		for k := i; k > 0 && cl.Types[s.order[k]].ExecRate > cl.Types[s.order[k-1]].ExecRate; k-- {
			s.order[k], s.order[k-1] = s.order[k-1], s.order[k]
		}
	}
	s.hbMode = cl.Heartbeat > 0
	s.nk.reset(nodes)
	s.hbArmed = resizeBool(s.hbArmed, nodes)
	s.asleep = resizeBool(s.asleep, nodes)
	s.sleeping = s.sleeping[:0]
	s.hbIdle = 0
	s.ev, s.hb = s.ev[:0], s.hb[:0]
	s.runFree = s.runFree[:0]
	if len(s.freeSet) < len(cl.Types) {
		s.freeSet = append(s.freeSet, make([]iheap, len(cl.Types)-len(s.freeSet))...)
	}
	s.freeSet = s.freeSet[:len(cl.Types)]
	for ti := range s.freeSet {
		s.freeSet[ti].init(&s.nk)
		if !s.hbMode {
			t := st.types[ti]
			for n := t.first; n < t.first+t.count; n++ {
				s.freeSet[ti].push(n)
			}
		}
	}
	t0 := 0.0
	if len(jobs) > 0 {
		t0 = jobs[0].Arrival
	}
	if s.hbMode {
		// Every node heartbeats from the first arrival; idle ones fall
		// asleep at their first heartbeat.
		for n := range nodes {
			s.arm(int32(n), t0)
		}
	}
	buckets := opt.UtilBuckets
	if buckets == 0 {
		buckets = 512
	}
	s.util.reset(len(cl.Types), t0, buckets)
	s.obs = opt.Observer
	s.err = nil
	s.decisions, s.timed = 0, opt.TimeRounds
	r := &s.res
	r.Completion = resize(r.Completion, len(jobs))
	r.FirstStart = resize(r.FirstStart, len(jobs))
	r.Admitted = resize(r.Admitted, len(jobs))
	for i := range r.Completion {
		r.Completion[i], r.FirstStart[i], r.Admitted[i] = math.NaN(), math.NaN(), math.NaN()
	}
	s.admitMax, s.inSys, st.rampup = opt.AdmitLimit, 0, opt.ReduceRampup
	r.Events, r.Tasks, r.Decisions, r.SchedNanos, r.Preempted = 0, 0, 0, 0, 0
	st.now = t0
}

// checkOverrides checks Options.Estimates and Options.Queues: one per
// job, and estimates finite and non-negative (as CheckJobs checks
// Job.Estimate).
func checkOverrides(jobs []Job, opt Options) error {
	if opt.Estimates != nil && len(opt.Estimates) != len(jobs) {
		return fmt.Errorf("%d estimates for %d jobs", len(opt.Estimates), len(jobs))
	}
	if opt.Queues != nil && len(opt.Queues) != len(jobs) {
		return fmt.Errorf("%d queues for %d jobs", len(opt.Queues), len(jobs))
	}
	for i, e := range opt.Estimates {
		if !(e >= 0) || math.IsInf(e, 0) {
			return fmt.Errorf("job %d: estimate %v is not a finite non-negative number", i+1, e)
		}
	}
	return nil
}

func resizeBool(s []bool, n int) []bool {
	s = resize(s, n)
	clear(s)
	return s
}

func (s *Simulator) loop(ctx context.Context) error {
	st := &s.st
	jobs := st.jobs
	next := 0
	for round := 1; ; round++ {
		if round%CancelCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		t, stuck := s.nextTime(next)
		if stuck || math.IsInf(t, 1) {
			break
		}
		if t > st.now {
			st.now = t
		}
		for len(s.ev) > 0 && s.ev[0].t <= st.now {
			e := s.ev.pop()
			if s.st.runs[e.run].gen != e.gen {
				continue // the task was preempted
			}
			s.res.Events++
			s.endTask(e)
		}
		for next < len(jobs) && jobs[next].Arrival <= st.now && s.admits() {
			s.res.Events++
			s.arrive(int32(next))
			next++
		}
		preempted, err := s.preemptStep()
		if err != nil {
			return err
		}
		if s.hbMode {
			for len(s.hb) > 0 && s.hb[0].t <= st.now {
				e := s.hb.pop()
				s.res.Events++
				s.heartbeat(e.run)
			}
		} else {
			s.dispatch()
		}
		if s.err != nil {
			return s.err
		}
		s.nextPreempt(preempted)
	}
	return s.checkFinished()
}

// nextTime returns the time of the next event (+Inf: none) given that
// jobs[next:] have not arrived; stuck reports heartbeats alone with
// nothing happening.
func (s *Simulator) nextTime(next int) (t float64, stuck bool) {
	jobs := s.st.jobs
	t = inf
	if next < len(jobs) && s.admits() {
		t = max(jobs[next].Arrival, s.st.now)
	}
	if len(s.ev) > 0 && s.ev[0].t < t {
		t = s.ev[0].t
	}
	if s.preAt < t {
		t = s.preAt
	}
	if len(s.hb) > 0 && s.hb[0].t < t {
		if len(s.ev) == 0 && next == len(jobs) && s.hbIdle > 2*len(s.st.free) {
			return t, true // heartbeats alone, and nothing happens: stuck
		}
		t = s.hb[0].t
	}
	return t, false
}

// preemptStep lets a preempting policy kill tasks when its preemption time
// has come; it reports whether any task was killed.
func (s *Simulator) preemptStep() (preempted bool, err error) {
	st := &s.st
	if s.pre == nil || s.preAt > st.now {
		return false, nil
	}
	n0 := s.res.Preempted
	s.pre.Preempt(s.killFn)
	if preempted = s.res.Preempted > n0; preempted {
		if s.preSame++; s.preSame > 64+len(st.free) {
			return true, fmt.Errorf("policy %s preempts without end at time %v (internal error)", s.p.Name(), st.now)
		}
	}
	return preempted, nil
}

// nextPreempt asks a preempting policy for its next preemption time.
func (s *Simulator) nextPreempt(preempted bool) {
	if s.pre == nil {
		return
	}
	if s.preAt = s.pre.NextPreempt(); s.preAt <= s.st.now && !preempted {
		s.preAt = inf // looked at now and found nothing to do
	}
	if !preempted {
		s.preSame = 0
	}
}

// checkFinished reports a job the policy left unfinished.
func (s *Simulator) checkFinished() error {
	st := &s.st
	for j := range st.js {
		if !st.js[j].done {
			return fmt.Errorf("policy %s left job %d (of %d) unfinished: %d ready and %d running containers, no event left (a queue or label that can never run it?)",
				s.p.Name(), j+1, len(st.jobs), st.js[j].readyC, st.js[j].runC)
		}
	}
	return nil
}

func (s *Simulator) fail(format string, a ...any) {
	if s.err == nil {
		s.err = fmt.Errorf("policy %s: "+format, append([]any{s.p.Name()}, a...)...)
	}
}

// admits reports whether the admission limit lets one more job in.
func (s *Simulator) admits() bool { return s.admitMax == 0 || s.inSys < s.admitMax }

func (s *Simulator) arrive(j int32) {
	st := &s.st
	r := &st.js[j]
	r.arrived = true
	s.inSys++
	s.res.Admitted[j] = st.now
	s.hbIdle = 0
	s.p.Arrive(int(j))
	if r.ns == 0 {
		s.jobDone(j)
		return
	}
	s.release(r.s0)
}

// release makes global stage g runnable.
func (s *Simulator) release(g int32) {
	st := &s.st
	sg := &st.ss[g]
	sg.released = true
	if sg.n == 0 {
		s.stageComplete(g)
		return
	}
	r := &st.js[sg.job]
	wasIdle := st.ready == 0
	st.addReady(sg.job, sg.n)
	r.readyC += sg.totC
	s.p.Released(int(sg.job), int(sg.idx))
	if wasIdle && s.hbMode {
		s.wake()
	}
}

func (s *Simulator) stageComplete(g int32) {
	st := &s.st
	sg := &st.ss[g]
	r := &st.js[sg.job]
	r.stagesDone++
	r.open = g + 1
	if sg.idx+1 < int32(r.ns) {
		nx := &st.ss[g+1]
		if !nx.released {
			s.release(g + 1)
		}
		if d := st.deferredTasks(nx); len(d) > 0 {
			st.exts[nx.ext-1].deferred = nil
			for _, e := range d {
				s.complete(e, true)
			}
		}
	}
	if r.stagesDone == r.ns && !r.done {
		s.jobDone(sg.job)
	}
}

func (s *Simulator) jobDone(j int32) {
	st := &s.st
	st.js[j].done = true
	s.inSys--
	s.res.Completion[j] = st.now
	s.p.Done(int(j))
}

func (s *Simulator) endTask(e event) {
	st := &s.st
	sg := &st.ss[e.g]
	ri := &s.st.runs[e.run]
	st.workEnd(sg, ri)
	if sg.idx > 0 {
		if prev := &st.ss[e.g-1]; prev.done < prev.n {
			// Slow start: the task's work is done, but it cannot
			// finish before the previous stage; it keeps its
			// containers.
			j := sg.job
			st.touch(j)
			st.js[j].runRate -= ri.crate
			ri.deferred = true
			x := st.extra(sg)
			x.deferred = append(x.deferred, e)
			return
		}
	}
	s.complete(e, false)
}

// complete finishes a task; deferred tells that its work ended earlier
// (slow start), so its rate was already taken off.
func (s *Simulator) complete(e event, deferred bool) {
	st := &s.st
	sg := &st.ss[e.g]
	j := sg.job
	r := &st.js[j]
	ri := s.st.runs[e.run]
	s.freeRun(e.run)
	c, n := ri.c, ri.node
	ti := st.nodeType[n]
	st.touch(j)
	st.touchStage(sg)
	if !deferred {
		r.runRate -= ri.crate
	}
	s.release1(sg, &ri)
	r.remC -= c
	sg.done++
	ref := TaskRef{Job: int(j), Stage: int(sg.idx), Task: int(e.task), Node: int(n), Containers: int(c), Run: runID(e.run, e.gen)}
	s.p.Ended(ref)
	if s.obs != nil {
		s.obs.TaskEnded(st, ref)
	}
	s.offerAgain(n, ti)
	if sg.idx+1 < r.ns {
		if nx := &st.ss[e.g+1]; !nx.released && st.slowStartMet(sg) {
			s.release(e.g + 1)
		}
	}
	if sg.done == sg.n {
		s.stageComplete(e.g)
	}
}

// release1 gives a task's containers back (at its end or preemption).
func (s *Simulator) release1(sg *stageRT, ri *runInfo) {
	st := &s.st
	r := &st.js[sg.job]
	r.runC -= ri.c
	if r.runC == 0 {
		r.runRate = 0 // no drift once nothing runs
	}
	sg.runC -= ri.c
	s.busy(st.nodeType[ri.node], -int64(ri.c))
	st.free[ri.node] += ri.c
	s.hbIdle = 0
}

// offerAgain makes machine n (of type ti), which has gained free
// containers, available to the scheduler.
func (s *Simulator) offerAgain(n, ti int32) {
	if s.hbMode {
		if !s.hbArmed[n] && !s.asleep[n] {
			s.arm(n, s.st.now)
		}
	} else if !s.nk.in(n) {
		s.freeSet[ti].push(n)
	}
}

// runID names a running task (its slot and the slot's generation) in
// TaskRef.Run.
func runID(slot, gen int32) int64 { return int64(gen)<<32 | int64(uint32(slot)) }

func (s *Simulator) freeRun(slot int32) {
	s.st.runs[slot].gen++
	s.st.runs[slot].live = false
	s.runFree = append(s.runFree, slot)
}

// kill preempts running task t: its containers are freed at once, its
// work is lost (service already received stays), and it is ready to run
// again, before the stage's other pending tasks.
func (s *Simulator) kill(t TaskRef) error {
	st := &s.st
	slot, gen := int32(uint32(t.Run)), int32(t.Run>>32)
	if slot < 0 || int(slot) >= len(s.st.runs) || s.st.runs[slot].gen != gen || !s.st.runs[slot].live {
		return fmt.Errorf("preempted task %+v is not running", t)
	}
	ri := s.st.runs[slot]
	sg := &st.ss[ri.g]
	j := sg.job
	r := &st.js[j]
	st.touch(j)
	st.touchStage(sg)
	if ri.deferred {
		for k, e := range st.deferredTasks(sg) {
			if e.run == slot {
				x := &st.exts[sg.ext-1]
				x.deferred = append(x.deferred[:k], x.deferred[k+1:]...)
				break
			}
		}
		sg.workDone--
		if ri.inv > 0 {
			r.attW -= ri.crate / ri.inv
		}
	} else {
		if ri.inv > 0 {
			if sg.working--; sg.working == 0 {
				sg.invDur, sg.sod = 0, 0
			} else {
				sg.invDur -= ri.inv
				sg.sod -= ri.sod
			}
		}
		r.runRate -= ri.crate
		r.attW -= ri.crate * (st.now - ri.start)
	}
	s.freeRun(slot)
	s.release1(sg, &ri)
	wasIdle := st.ready == 0
	st.retry(sg, ri.task)
	st.addReady(j, 1)
	r.readyC += ri.c
	ref := TaskRef{Job: int(j), Stage: int(sg.idx), Task: int(ri.task), Node: int(ri.node), Containers: int(ri.c), Run: t.Run}
	s.p.Ended(ref)
	if s.obs != nil {
		s.obs.TaskKilled(st, ref)
	}
	s.p.Released(int(j), int(sg.idx))
	s.offerAgain(ri.node, st.nodeType[ri.node])
	if wasIdle && s.hbMode {
		s.wake()
	}
	s.res.Preempted++
	return nil
}

func (s *Simulator) busy(ti int32, d int64) {
	t := &s.st.types[ti]
	s.util.add(int(ti), t.busy, s.st.now)
	t.busy += d
}

// place starts the next task of global stage g on node n.
func (s *Simulator) place(n, g int32) {
	st := &s.st
	sg := &st.ss[g]
	j := sg.job
	r := &st.js[j]
	k := st.take(sg)
	spec := &st.jobs[j].Stages[sg.idx].Tasks[k]
	c := int32(spec.Containers)
	ti := st.nodeType[n]
	rate := st.types[ti].rate
	if sc := st.jobs[j].TypeScale; sc != nil {
		rate /= sc[ti]
	}
	st.touch(j)
	st.touchStage(sg)
	st.free[n] -= c
	sg.runC += c
	st.addReady(j, -1)
	r.readyC -= c
	r.runC += c
	r.runRate += float64(c) * rate
	s.busy(ti, int64(c))
	ri := runInfo{crate: float64(c) * rate, start: st.now, g: g, task: k, node: n, c: c, live: true}
	d := spec.Duration / rate
	if d > 0 {
		ri.inv, ri.sod = 1/d, (st.now-st.jobs[j].Arrival)/d
		sg.working++
		sg.invDur += ri.inv
		sg.sod += ri.sod
	}
	slot := takeSlot(&s.st.runs, &s.runFree)
	ri.gen = s.st.runs[slot].gen // a freed slot's generation, bumped by freeRun
	s.st.runs[slot] = ri
	s.ev.push(event{t: st.now + d, g: g, task: k, run: slot, gen: ri.gen})
	s.res.Tasks++
	if math.IsNaN(s.res.FirstStart[j]) {
		s.res.FirstStart[j] = st.now
	}
	s.hbIdle = 0
	ref := TaskRef{Job: int(j), Stage: int(sg.idx), Task: int(k), Node: int(n), Containers: int(c), Run: runID(slot, ri.gen)}
	s.p.Started(ref)
	if s.obs != nil {
		s.obs.TaskStarted(st, ref)
	}
}

type offerResult int

const (
	offerFull    offerResult = iota // the node has no free container left
	offerBlocked                    // reserved for a task that does not fit yet
	offerNone                       // the policy declined the node
	offerNoWork                     // no ready task anywhere
	offerLimit                      // the heartbeat's assignment limit was reached
)

// offer asks the policy to fill node n, placing at most limit tasks (0: no
// limit).
func (s *Simulator) offer(n int32, limit int) offerResult {
	st := &s.st
	placed := 0
	for st.free[n] > 0 {
		if limit > 0 && placed >= limit {
			return offerLimit
		}
		if rj := st.resJob[n]; rj >= 0 {
			g := st.resStage[n]
			sg := &st.ss[g]
			switch {
			case sg.pending() == 0 || st.js[rj].done:
				st.resJob[n], st.resStage[n] = -1, -1
			case int32(st.jobs[rj].Stages[sg.idx].Tasks[st.head(sg)].Containers) <= st.free[n]:
				st.resJob[n], st.resStage[n] = -1, -1
				s.place(n, g)
				placed++
				continue
			default:
				return offerBlocked
			}
		}
		if st.ready == 0 {
			return offerNoWork
		}
		s.decisions++
		j, stage := s.p.Pick(Node{Index: int(n), Type: int(st.nodeType[n]), Free: int(st.free[n])})
		if j < 0 {
			return offerNone
		}
		g, fits := s.choose(j, stage, st.free[n])
		if g < 0 {
			return offerNone // s.err is set
		}
		if !fits {
			st.resJob[n], st.resStage[n] = int32(j), g
			return offerBlocked
		}
		s.place(n, g)
		placed++
	}
	return offerFull
}

// choose finds the stage of job j to start a task from (stage −1: the
// earliest ready stage whose next task fits in free containers, else the
// earliest ready stage) and whether that task fits.
func (s *Simulator) choose(j, stage int, free int32) (int32, bool) {
	st := &s.st
	if j >= len(st.js) || !st.js[j].arrived || st.js[j].done {
		s.fail("picked job %d, which is not in the system", j+1)
		return -1, false
	}
	r := &st.js[j]
	if stage >= 0 {
		if stage >= int(r.ns) {
			s.fail("picked stage %d of job %d, which has %d stages", stage+1, j+1, r.ns)
			return -1, false
		}
		g := r.s0 + int32(stage)
		sg := &st.ss[g]
		if !sg.released || sg.pending() == 0 {
			s.fail("picked stage %d of job %d, which has no ready task", stage+1, j+1)
			return -1, false
		}
		return g, int32(st.jobs[j].Stages[stage].Tasks[st.head(sg)].Containers) <= free
	}
	if g := st.rampStage(int32(j)); g >= 0 {
		if int32(st.jobs[j].Stages[st.ss[g].idx].Tasks[st.head(&st.ss[g])].Containers) <= free {
			return g, true
		}
	}
	first := int32(-1)
	for g := r.open; g < r.s0+r.ns; g++ {
		sg := &st.ss[g]
		if !sg.released {
			break
		}
		if sg.pending() == 0 {
			continue
		}
		if int32(st.jobs[j].Stages[sg.idx].Tasks[st.head(sg)].Containers) <= free {
			return g, true
		}
		if first < 0 {
			first = g
		}
	}
	if first < 0 {
		s.fail("picked job %d, which has no ready task", j+1)
		return -1, false
	}
	return first, false
}

// dispatch fills free containers at an event: machine types fastest first,
// within a type the lowest-numbered machine first.
func (s *Simulator) dispatch() {
	st := &s.st
	if st.ready > 0 {
		var t0 time.Time
		if s.timed {
			t0 = time.Now()
		}
		d0 := s.decisions
		for _, ti := range s.order {
			fs := &s.freeSet[ti]
			for fs.len() > 0 && st.ready > 0 && s.err == nil {
				n := fs.min()
				res := s.offer(n, 0)
				if res == offerNoWork || (res == offerNone && !s.perNode) {
					break
				}
				fs.pop()
				if res == offerNone {
					s.declined = append(s.declined, n) // offered again next round
				}
			}
			for _, n := range s.declined {
				fs.push(n)
			}
			s.declined = s.declined[:0]
		}
		if s.timed && s.decisions > d0 {
			s.res.SchedNanos += int64(time.Since(t0))
		}
	}
	if s.obs != nil {
		s.obs.Dispatched(st)
	}
}

// arm schedules node n's next heartbeat at its first grid time ≥ from.
func (s *Simulator) arm(n int32, from float64) {
	h := s.st.cl.Heartbeat
	off := h * float64(n) / float64(len(s.st.free))
	t := off
	if from > off {
		k := math.Ceil((from - off) / h)
		t = off + k*h
		if t < from {
			t += h
		}
	}
	s.hbArmed[n] = true
	s.hb.push(event{t: t, g: -1, run: n})
}

// wake re-arms the nodes that fell asleep while no task was ready.
func (s *Simulator) wake() {
	for _, n := range s.sleeping {
		s.asleep[n] = false
		if !s.hbArmed[n] && s.st.free[n] > 0 {
			s.arm(n, s.st.now)
		}
	}
	s.sleeping = s.sleeping[:0]
}

func (s *Simulator) heartbeat(n int32) {
	st := &s.st
	s.hbArmed[n] = false
	s.hbIdle++
	if st.free[n] == 0 {
		return // re-armed when a task ends on it
	}
	if st.ready == 0 && st.resJob[n] < 0 {
		s.asleep[n] = true
		s.sleeping = append(s.sleeping, n)
		return
	}
	var t0 time.Time
	if s.timed {
		t0 = time.Now()
	}
	d0 := s.decisions
	res := s.offer(n, st.cl.MaxAssign)
	if s.timed && s.decisions > d0 {
		s.res.SchedNanos += int64(time.Since(t0))
	}
	if ho, ok := s.obs.(HeartbeatObserver); ok {
		ho.Heartbeat(st, int(n), res == offerLimit)
	}
	if st.free[n] > 0 {
		s.arm(n, st.now+st.cl.Heartbeat*(1-1e-9))
	}
}

func (s *Simulator) finish() {
	st := &s.st
	r := &s.res
	r.Decisions = s.decisions
	end := st.now
	for ti := range st.types {
		s.util.add(ti, st.types[ti].busy, end)
	}
	r.TypeBusy = resize(r.TypeBusy, len(st.types))
	r.Util = s.util.series(r.Util, st.types, end)
	for ti := range st.types {
		r.TypeBusy[ti] = s.util.total[ti]
	}
	r.UtilStart, r.UtilWidth = s.util.t0, s.util.w
}
