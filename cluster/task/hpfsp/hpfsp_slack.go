package hpfsp

import (
	"fmt"
	"math"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/internal/treap"
)

// SlackSystem is the bookkeeping of seed 002's H-PFSP scheduler: the
// virtual PS schedule with its slack system (§II.C–D, eq. 6–17), the fair
// phase (Alg. 3) and the order in which jobs get free containers (Alg. 2,
// Alg. 4). It knows jobs only by number, estimate and progress; the task
// level policy drives it: it adds jobs, tells it the work each job got and
// the virtual PS's work, re-estimates remaining times (from
// estimate.ProgressEstimator or any other source), reports scheduled tasks
// and stage progress, and asks Next for the job to get a container.
//
// # The slack system
//
// Work is in seconds of the whole cluster taken as one processor (seed 002
// eq. 3–4 and 10 divide by the slots; the caller does). Each job i in the
// virtual PS has v_i, its remaining time under the virtual PS, and w_i, its
// estimated remaining time under H-PFSP (eq. 5). With the m jobs of the
// virtual PS in order of v (ties: the job added first ahead), the slack of
// job i is eq. 6,
//
//	s_i = Σ_{j<i} v_j + (m−i+1)·v_i − Σ_{j≤i} w_j,
//
// its remaining time under PS minus the time to serve it and every job
// ahead of it. Seed 002 keeps s by updates: service (eq. 7–9: the served
// job's w falls, every v falls by the work over m, the slack of each job
// ahead of the served one falls by the work) and re-estimation (eq. 11–13:
// w and v move by the same Δ, and the job moves in the order; eq. 14–17
// update the jobs it passes). SlackSystem keeps exactly eq. 6 under every
// change, as a sum of updates of the two kinds eq. 6 allows:
//
//   - a constant added to the slacks of a range of jobs in v order (a job's
//     service: the job and those behind it; the virtual PS's work: all; a
//     job leaving: those behind it);
//   - ±v_j added to each job j of a range (a job arriving: the jobs ahead of
//     it; a re-estimated job passing jobs: eq. 14 and eq. 16).
//
// With tags T_j = V + v_j (V the virtual time, so the virtual PS's work only
// moves V) the second kind is s_j += ±T_j + c. The jobs sit in a treap by
// (T, order of arrival) with lazy (±T_j + c) tags, so every update and
// every single slack is O(log m). The minimum slack over a range (needed
// for completability) is kept by a kinetic segment tree over the treap:
// each node keeps its subtree's least slack, the T of the job holding it,
// and how far (in multiples of T) a lazy ±T tag may go before any minimum
// below it changes hands (its melts); a tag that goes further is pushed
// down and the minima recomputed. The melts are wanted only by ±T tags
// (arrivals, departures, re-estimates that pass jobs), so they are
// computed when one comes, for the nodes recomputed since the last.
//
// What a node stores is not s_j but u_j = s_j + Σ_{i≤j} w_i (+ the virtual
// PS's work since the last fold, an offset kept outside the treap): a
// job's service lowers its w and raises the slack of every job behind it
// by as much, which leaves every u as it was, so service changes only the
// sums on the job's way, and the virtual PS's work (every slack falls by
// it) only the offset. A subtree's least slack is its least u less the w
// up to each job, plus the w and the offset before the subtree.
//
// Jobs that have finished for real stay in the virtual
// PS (their v still counts) but have s = ∞ for completability (seed 002
// §II.C) and w = 0. A job whose v reaches 0 leaves the virtual PS (§II.C);
// if it has not finished it is late.
//
// # The order (Alg. 2–4)
//
// Next returns the job that gets the next free container among the jobs
// the caller marked runnable (that have a task to launch). By default it
// is seed 002's Algorithm 2 as printed (the H-PFSP comparator):
//
//  1. a job in its fair phase (Alg. 3: in its current stage it has
//     scheduled fewer than FairLimit tasks; its stage is the first whose
//     progress is below StageThreshold, 0.95 in seed 002), the one with the
//     fewest tasks scheduled in its current stage (Alg. 2: "the least tasks
//     assigned yet", the fair scheduler's deficit), ties to the earlier;
//  2. the completable job with the least w (Alg. 2 lines 12–13: "assign
//     job with shortest remaining processing time"), ties to the one ahead
//     in the virtual PS. Job c is completable when every running job i
//     ahead of it has s_i ≥ w_c (Alg. 4), with the relative tolerance
//     sim.Tol; a job with w = 0 (its estimate used up) is completable only
//     while the jobs ahead have slack above sim.Tol × (Σv + Σw), since
//     serving it eats their slack — the rules of the fluid sim.PFSP. A
//     late job (out of the virtual PS, not finished) has v = 0: no job is
//     ahead of it, so it is completable and competes by its w (ties: late
//     jobs first, the earliest to have become late);
//  3. none: Alg. 2 gives no container to a job that is not completable,
//     so the container stays idle until the next event.
//
// Two additions are options of SlackConfig, off by default:
//
//   - LateFirst: late jobs go before the completable ones (step 2 split
//     in two), as FSP serves late jobs first;
//   - Fallback: instead of step 3, the first runnable job in the virtual
//     PS (the job PS would finish first), so the schedule stays
//     work-conserving.
//
// # Driving it from a task-level policy
//
// With an estimate.ProgressEstimator e whose Slots are the cluster's
// slots (so that its Remaining is in seconds of the whole cluster):
//
//	on arrival:    e.AddJob(j, tasks); x.AddJob(j, e.Remaining(j), stages); x.SetRunnable(j, true)
//	on launch:     x.TaskScheduled(j, stage); x.SetRunnable(j, j still has a task to launch)
//	at each update (a heartbeat; seed 002 Alg. 1), for each job j that ran:
//	               x.Serve(j, its tasks' busy seconds in the interval / slots)
//	               x.Reestimate(j, e.Remaining(j))   // eq. 11–13: only the change of estimate moves v
//	               x.SetStageProgress(j, s, e.StageProgress(j, s)) for its stages
//	               then x.AdvanceVirtual(work): the served work (eq. 8) or elapsed × 1 (a busy PS)
//	on a free container: j, why := x.Next()
//	on job end:    x.Finish(j); e.RemoveJob(j)
//
// Serve then Reestimate splits the change of w into service (which v does
// not see) and re-estimation (which moves v too); seed 002's Alg. 1
// re-estimates first, which read literally would move v by the service.
//
// # Cost per operation (m jobs in the virtual PS, n jobs in all)
//
// Serve, Finish, SetRunnable, Slack, SlackAhead, Completable: one descent,
// O(log m) expected. AddJob, Reestimate: O(log m) expected (a constant
// number of treap splits and merges; a re-estimate that keeps the job
// between its neighbours, two descents), plus the kinetic recomputations of a
// ±T tag that passes a change of minimum, O(1) per node recomputed, and
// the melts of the nodes recomputed since the last ±T tag (at most one
// per node recomputed).
// UpdateInPlace (Serve, AdvanceVirtual, Reestimate of one job): one
// descent (two with a re-estimate) when no job passes another or leaves. UpdateAll (a progress
// report of k ≥ m/4 jobs): O(m) plus a sort of nearly sorted keys.
// AdvanceVirtual: O(1), plus O(log m) per job leaving the virtual PS;
// AdvanceVirtualToFront: O(log m). TaskScheduled, SetStageProgress:
// O(log n) (the fair-phase heap). Next: O(log n) for steps 1, 2 and 4; step 3 is a pruned in-order
// search: it enters only subtrees holding a runnable job whose w is below
// both the best found so far and the least slack ahead, O(log m) per
// subtree entered (O(log m) in all when the least-w runnable job is
// completable). Every 32·m + 1024 updates the slacks are recomputed from
// scratch in O(m) (and T rebased to V = 0) so that rounding does not
// accumulate, and the treap relinked balanced (log2 m levels): O(1)
// amortised. The kinetic recomputations have a
// polylogarithmic amortised bound only when the tags move one way (the
// kinetic segment tree, ko_osaga, translated at
// codeforces.com/blog/entry/130415); here an estimate that falls moves
// them the other way, so no bound is claimed: the benchmarks count them
// (fixes/op: 0.03–1.8 per re-estimate, about 1–4 per arrival).
//
// Not safe for concurrent use.
type SlackSystem struct {
	// OnLate, if set, is called with each job that leaves the virtual PS
	// before it has finished (it becomes late).
	OnLate func(job int)

	cfg SlackConfig
	js  []slkJob
	// prog and sched are the arrived jobs' stages' progress and tasks
	// scheduled (slkJob.base), appended in order of arrival.
	prog  []float64
	sched []int32
	nodes []slkNode // nodes[0] is the empty tree
	free  []int32
	root  int32
	first int32   // the front's node, 0: not known (front finds it)
	v     float64 // virtual time V
	off   float64 // the virtual PS's work since the last fold (slkNode.s)
	seq   int32   // arrivals so far (at most the jobs: Reset's bound)
	late  int32   // jobs that became late so far
	rnd   treap.Rand
	ops   int // updates since the last rebuild

	fair   slkHeap // runnable jobs in their fair phase, by (scheduled, seq)
	lateQ  slkHeap // runnable late jobs, by lateSeq
	search slkSearch
	rb     slkRebuild
	// noInPlace turns off moveInPlace (tests compare the two paths).
	noInPlace bool
	// UpdateAll's and rebuild's scratch: new tags, the nodes in order, a
	// queue.
	bt    []float64
	order []int32
	spine []int32
	path  []int32 // descend's way

	// Fixes counts the kinetic recomputations (nodes whose minimum was
	// recomputed because a ±T tag passed a change of minimum).
	Fixes int64
}

// SlackConfig holds H-PFSP's fair-phase parameters (seed 002 Alg. 3).
type SlackConfig struct {
	// FairLimit is FAIR_LIMIT: a job is in its fair phase while it has
	// scheduled fewer than FairLimit tasks of its current stage (seed 002
	// §IV uses 2 and 5). 0: no fair phase.
	FairLimit int
	// StageThreshold is getStage's progress threshold: a job's current
	// stage is its first stage whose progress is below it (the map stage
	// while map progress < 0.95, else the reduce stage). 0 means
	// DefaultStageThreshold.
	StageThreshold float64
	// LateFirst serves late jobs (out of the virtual PS, not finished)
	// before every completable job, the least w first; seed 002's Alg. 2
	// has no such rule (a late job is completable and competes by w).
	LateFirst bool
	// Fallback gives a free container that no completable job can take to
	// the first runnable job of the virtual PS (work conservation); seed
	// 002's Alg. 2 leaves it idle.
	Fallback bool
}

// DefaultStageThreshold is seed 002's getStage threshold (Alg. 3).
const DefaultStageThreshold = 0.95

// PickReason says why Next chose a job.
type PickReason uint8

// Reasons of Next, in its order.
const (
	PickNone        PickReason = iota // no runnable job, or none completable (without Fallback)
	PickFair                          // in its fair phase (Alg. 3)
	PickLate                          // late: out of the virtual PS, not finished (first with LateFirst, else the least w)
	PickCompletable                   // the completable job with the least w (Alg. 2, 4)
	PickPSOrder                       // Fallback: no runnable job is completable, the first in the virtual PS
)

func (r PickReason) String() string {
	switch r {
	case PickFair:
		return "fair"
	case PickLate:
		return "late"
	case PickCompletable:
		return "completable"
	case PickPSOrder:
		return "ps-order"
	}
	return "none"
}

// Job states.
const (
	slkAbsent = iota // not added
	slkPS            // in the virtual PS, running
	slkPSDone        // in the virtual PS, finished for real
	slkLate          // out of the virtual PS, running
	slkGone          // finished and out of the virtual PS
)

type slkJob struct {
	state    uint8
	runnable bool
	node     int32
	t        float64 // tag T = V + v while in the virtual PS
	w        float64 // estimated remaining time
	size     float64 // current estimate of the whole job
	est0     float64 // estimate at arrival
	seq      int32   // arrival order
	lateSeq  int32
	stage    int32 // current stage (Alg. 3 getStage)
	// base and stages are the job's stages in SlackSystem.prog and
	// .sched (one entry per stage from base): no two slices per job.
	base, stages int32
}

// tol is the remaining work (w or v) that counts as none for a job:
// sim.Tol of its estimate (the larger of the current one and the one at
// arrival, so that re-estimating to 0 keeps a scale).
func (j *slkJob) tol() float64 { return sim.Tol * max(j.size, j.est0) } // both finite, ≥ 0

type slkNode struct {
	l, r     int32
	job      int32
	prio     uint32
	run      bool // running: its slack counts for completability
	elig     bool // running and runnable: a candidate of Next step 3
	cnt      int32
	nElig    int32
	t, w     float64
	s        float64 // u = s_i + W_i + off: slack plus the w of the jobs up to it
	sumT     float64 // over the subtree
	sumW     float64
	minS     float64 // least u − (w of the subtree's jobs up to it) over its running jobs (+Inf: none)
	minT     float64 // T of the job holding minS
	up, down float64 // the ±T multiple the subtree's minima stand (kinetic melt)
	minW     float64 // least w over the candidates of the subtree
	lh, lb   float64 // pending for the children: s += lh·T + lb
}

// NewSlackSystem returns an empty slack system for jobs numbered 0..n−1.
func NewSlackSystem(cfg SlackConfig, n int) (*SlackSystem, error) {
	x := &SlackSystem{}
	if err := x.Reset(cfg, n); err != nil {
		return nil, err
	}
	return x, nil
}

// Reset empties the system for jobs numbered 0..n−1, reusing its memory.
func (x *SlackSystem) Reset(cfg SlackConfig, n int) error {
	if n < 0 || n > math.MaxInt32-1 {
		return fmt.Errorf("h-pfsp slack system: %d jobs", n)
	}
	if cfg.FairLimit < 0 {
		return fmt.Errorf("h-pfsp slack system: fair limit %d is negative", cfg.FairLimit)
	}
	if cfg.StageThreshold == 0 {
		cfg.StageThreshold = DefaultStageThreshold
	}
	if !(cfg.StageThreshold > 0 && cfg.StageThreshold <= 1) {
		return fmt.Errorf("h-pfsp slack system: stage threshold %v is not in (0, 1]", cfg.StageThreshold)
	}
	x.cfg = cfg
	if cap(x.js) < n {
		x.js = make([]slkJob, n)
	}
	x.js = x.js[:n]
	clear(x.js)
	x.prog, x.sched = x.prog[:0], x.sched[:0]
	x.nodes = append(x.nodes[:0], slkNode{minS: math.Inf(1), minW: math.Inf(1), up: math.Inf(1), down: math.Inf(1)})
	x.free = x.free[:0]
	x.root, x.first, x.v, x.seq, x.late, x.ops, x.rnd, x.Fixes = 0, 0, 0, 0, 0, 0, treap.Seed, 0
	x.fair.reset(n, func(a, b int32) bool {
		ja, jb := &x.js[a], &x.js[b]
		sa, sb := x.sched[ja.base+ja.stage], x.sched[jb.base+jb.stage]
		return sa < sb || (sa == sb && ja.seq < jb.seq)
	})
	x.lateQ.reset(n, func(a, b int32) bool {
		ja, jb := &x.js[a], &x.js[b]
		return ja.w < jb.w || (ja.w == jb.w && ja.lateSeq < jb.lateSeq)
	})
	return nil
}

func (x *SlackSystem) job(job int, op string) (*slkJob, error) {
	if job < 0 || job >= len(x.js) {
		return nil, fmt.Errorf("h-pfsp slack system: %s: job %d is not in 0..%d", op, job, len(x.js)-1)
	}
	j := &x.js[job]
	if j.state == slkAbsent {
		return nil, fmt.Errorf("h-pfsp slack system: %s: job %d has not been added", op, job)
	}
	return j, nil
}

func slkCheckWork(op string, job int, what string, v float64) error {
	if v >= 0 && v <= math.MaxFloat64 {
		return nil // small enough to inline
	}
	return slkBadWork(op, job, what, v)
}

func slkBadWork(op string, job int, what string, v float64) error {
	return fmt.Errorf("h-pfsp slack system: %s: job %d: %s %v is not a finite non-negative number", op, job, what, v)
}

// AddJob adds an arriving job with its estimated size (w = v = estimate,
// eq. 18) and its number of stages. Jobs must be added in order of
// arrival: among equal v, the job added first is ahead.
func (x *SlackSystem) AddJob(job int, estimate float64, stages int) error {
	if job < 0 || job >= len(x.js) {
		return fmt.Errorf("h-pfsp slack system: add: job %d is not in 0..%d", job, len(x.js)-1)
	}
	j := &x.js[job]
	if j.state != slkAbsent {
		return fmt.Errorf("h-pfsp slack system: add: job %d added twice", job)
	}
	if err := slkCheckWork("add", job, "estimate", estimate); err != nil {
		return err
	}
	if stages < 1 || stages > 1<<16 {
		return fmt.Errorf("h-pfsp slack system: add: job %d: %d stages", job, stages)
	}
	if len(x.sched)+stages > math.MaxInt32 {
		return fmt.Errorf("h-pfsp slack system: add: job %d: more than %d stages in all", job, math.MaxInt32)
	}
	*j = slkJob{state: slkPS, t: x.v + estimate, w: estimate, size: estimate, est0: estimate, seq: x.seq,
		base: int32(len(x.sched)), stages: int32(stages)}
	x.prog = append(x.prog, make([]float64, stages)...)
	x.sched = append(x.sched, make([]int32, stages)...)
	x.seq++
	x.insert(int32(job))
	x.updateFair(int32(job))
	x.settle()
	x.tick()
	return nil
}

// AdvanceVirtual runs the virtual PS for work seconds of the whole
// cluster, shared equally by its jobs (eq. 8: each v falls by work/m; every
// slack falls by work). Jobs whose v reaches 0 leave it (late if they have
// not finished). Seed 002 advances it by the work the real schedule did
// (eq. 8 with Δt̂ of the served jobs); a policy that wants the PS of a
// fully busy cluster passes capacity × elapsed time instead.
func (x *SlackSystem) AdvanceVirtual(work float64) error {
	if !(work >= 0) || math.IsInf(work, 0) {
		return fmt.Errorf("h-pfsp slack system: advance: work %v is not a finite non-negative number", work)
	}
	for work > 0 {
		m := x.cnt(x.root)
		if m == 0 {
			break
		}
		f := x.nodes[x.front()].t
		d := f - x.v
		if work/float64(m) < d {
			x.v += work / float64(m)
			x.addOff(work)
			break
		}
		use := max(d, 0) * float64(m)
		x.v = f
		x.addOff(use)
		work -= use
		x.settle()
	}
	x.settle()
	x.tick()
	return nil
}

// AdvanceVirtualToFront runs the virtual PS until its first job leaves
// (NextVirtualWork of work: every slack falls by it) and returns that
// work. A caller that scheduled an event at NextVirtualWork calls it
// instead of AdvanceVirtual: the work it would derive from the elapsed
// time can miss m·v by rounding (by far more than sim.Tol when times are
// large), leaving the job a hair short of 0. O(log m).
func (x *SlackSystem) AdvanceVirtualToFront() float64 {
	if x.root == 0 {
		return 0
	}
	work := x.NextVirtualWork()
	x.addOff(work)
	x.v = x.nodes[x.front()].t
	x.settle()
	x.tick()
	return work
}

// NextVirtualWork returns the work (seconds of the whole cluster) after
// which the virtual PS's first job leaves it: m·v_front; +Inf if empty.
func (x *SlackSystem) NextVirtualWork() float64 {
	if x.root == 0 {
		return math.Inf(1)
	}
	return max(x.nodes[x.front()].t-x.v, 0) * float64(x.cnt(x.root))
}

// Serve records that a job got work seconds of the whole cluster (eq. 7:
// its w falls, not below 0; a w within sim.Tol of the job's estimate is
// 0). Together with AdvanceVirtual(work) it is eq. 7–9.
func (x *SlackSystem) Serve(job int, work float64) error {
	j, err := x.job(job, "serve")
	if err != nil {
		return err
	}
	if err := slkCheckWork("serve", job, "work", work); err != nil {
		return err
	}
	switch j.state {
	case slkPSDone, slkGone:
		return fmt.Errorf("h-pfsp slack system: serve: job %d has finished", job)
	case slkLate:
		j.w = x.snapW(j, j.w-work)
		x.fixLate(int32(job))
		return nil
	}
	w := x.snapW(j, j.w-work)
	if w < j.w {
		x.setW(int32(job), w)
	}
	return nil
}

func (x *SlackSystem) snapW(j *slkJob, w float64) float64 {
	if w <= j.tol() {
		return 0
	}
	return w
}

// setW sets a job's w in the virtual PS to w, below the old one: the job
// and those behind it gain the difference of slack (their u is the same).
func (x *SlackSystem) setW(job int32, w float64) {
	j := &x.js[job]
	j.w = w
	x.descend(x.root, j.node, j.t, j.seq, 0)
	x.nodes[j.node].w = w
	for i := len(x.path) - 1; i >= 0; i-- {
		x.pullW(x.path[i])
	}
	x.tick()
}

// Reestimate sets a job's estimated remaining time to w (eq. 11–13: w and
// v move by Δ = w − w_old, so the job moves in the virtual PS and the jobs
// it passes change slack by eq. 14 or eq. 16). Its v may reach 0: it then
// leaves the virtual PS (late). A late job only records w.
func (x *SlackSystem) Reestimate(job int, w float64) error {
	j, err := x.job(job, "re-estimate")
	if err != nil {
		return err
	}
	if err := slkCheckWork("re-estimate", job, "remaining time", w); err != nil {
		return err
	}
	switch j.state {
	case slkPSDone, slkGone:
		return fmt.Errorf("h-pfsp slack system: re-estimate: job %d has finished", job)
	case slkLate:
		j.size += w - j.w
		j.w = w
		x.fixLate(int32(job))
		return nil
	}
	if w == j.w {
		return nil
	}
	d := w - j.w
	j.size = max(j.size+d, 0)
	x.move(int32(job), j.t+d, w)
	x.settle()
	x.tick()
	return nil
}

// Finish records that a job finished for real: its w becomes 0 and its
// slack stops counting; it stays in the virtual PS until its v reaches 0.
func (x *SlackSystem) Finish(job int) error {
	j, err := x.job(job, "finish")
	if err != nil {
		return err
	}
	switch j.state {
	case slkPSDone, slkGone:
		return fmt.Errorf("h-pfsp slack system: finish: job %d finished twice", job)
	case slkLate:
		j.state, j.w, j.runnable = slkGone, 0, false
		x.lateQ.remove(int32(job))
		x.fair.remove(int32(job))
		return nil
	}
	j.w, j.state, j.runnable = 0, slkPSDone, false
	x.setNode(int32(job), 0, false, false)
	x.fair.remove(int32(job))
	x.tick()
	return nil
}

// fixLate restores the late queue's order after a late job's w changed.
func (x *SlackSystem) fixLate(job int32) {
	if x.lateQ.has(job) {
		x.lateQ.fix(job)
	}
}

// SetRunnable tells whether a job has a task it could launch now: only
// runnable jobs are returned by Next.
func (x *SlackSystem) SetRunnable(job int, runnable bool) error {
	j, err := x.job(job, "set runnable")
	if err != nil {
		return err
	}
	if j.state == slkPSDone || j.state == slkGone {
		runnable = false
	}
	if j.runnable == runnable {
		return nil
	}
	j.runnable = runnable
	if j.state == slkPS {
		x.setNode(int32(job), j.w, true, runnable)
	}
	if j.state == slkLate {
		if runnable {
			x.lateQ.push(int32(job))
		} else {
			x.lateQ.remove(int32(job))
		}
	}
	x.updateFair(int32(job))
	return nil
}

// TaskScheduled records that one task of the job's stage was scheduled
// (launched): Alg. 3 counts them against FAIR_LIMIT.
func (x *SlackSystem) TaskScheduled(job, stage int) error {
	j, err := x.job(job, "task scheduled")
	if err != nil {
		return err
	}
	if stage < 0 || stage >= int(j.stages) {
		return fmt.Errorf("h-pfsp slack system: task scheduled: job %d: stage %d is not in 0..%d", job, stage, j.stages-1)
	}
	if c := &x.sched[int(j.base)+stage]; *c < math.MaxInt32 {
		*c++
	}
	x.updateFair(int32(job))
	return nil
}

// SetStageProgress records a stage's progress (fraction of its tasks done,
// as estimate.ProgressEstimator.StageProgress gives it); Alg. 3's getStage
// reads it.
func (x *SlackSystem) SetStageProgress(job, stage int, progress float64) error {
	j, err := x.job(job, "stage progress")
	if err != nil {
		return err
	}
	if stage < 0 || stage >= int(j.stages) {
		return fmt.Errorf("h-pfsp slack system: stage progress: job %d: stage %d is not in 0..%d", job, stage, j.stages-1)
	}
	if !(progress >= 0 && progress <= 1) {
		return fmt.Errorf("h-pfsp slack system: stage progress: job %d stage %d: progress %v is not in [0, 1]", job, stage, progress)
	}
	prog := x.prog[j.base : j.base+j.stages]
	prog[stage] = progress
	s := 0
	for s < len(prog)-1 && prog[s] >= x.cfg.StageThreshold {
		s++
	}
	if int32(s) == j.stage {
		return nil // the fair heap's key and InFairPhase are as they were
	}
	j.stage = int32(s)
	x.updateFair(int32(job))
	return nil
}

// InFairPhase reports whether a running job is in its fair phase (Alg. 3).
func (x *SlackSystem) InFairPhase(job int) bool {
	if job < 0 || job >= len(x.js) {
		return false
	}
	j := &x.js[job]
	return (j.state == slkPS || j.state == slkLate) && int(x.sched[j.base+j.stage]) < x.cfg.FairLimit
}

// Stage returns a job's current stage (Alg. 3's getStage), −1 if unknown.
func (x *SlackSystem) Stage(job int) int {
	if job < 0 || job >= len(x.js) || x.js[job].state == slkAbsent {
		return -1
	}
	return int(x.js[job].stage)
}

func (x *SlackSystem) updateFair(job int32) {
	if x.js[job].runnable && x.InFairPhase(int(job)) {
		x.fair.fix(job)
	} else {
		x.fair.remove(job)
	}
}

// Len returns the number of jobs in the virtual PS (m).
func (x *SlackSystem) Len() int { return int(x.cnt(x.root)) }

// VirtualTime returns V: the work per job the virtual PS has done since it
// last emptied (or since the last rebase, which subtracts V from every tag).
func (x *SlackSystem) VirtualTime() float64 { return x.v }

// Remaining returns a job's w (NaN for a job not added).
func (x *SlackSystem) Remaining(job int) float64 {
	if job < 0 || job >= len(x.js) || x.js[job].state == slkAbsent {
		return math.NaN()
	}
	return x.js[job].w
}

// VirtualRemaining returns a job's v (0 once out of the virtual PS, NaN
// for a job not added).
func (x *SlackSystem) VirtualRemaining(job int) float64 {
	if job < 0 || job >= len(x.js) || x.js[job].state == slkAbsent {
		return math.NaN()
	}
	j := &x.js[job]
	if j.state != slkPS && j.state != slkPSDone {
		return 0
	}
	return j.t - x.v
}

// IsLate reports whether a job left the virtual PS before finishing and
// has not finished yet.
func (x *SlackSystem) IsLate(job int) bool {
	return job >= 0 && job < len(x.js) && x.js[job].state == slkLate
}

// Slack returns a job's slack s (eq. 6): +Inf for a job that finished but
// is still in the virtual PS, NaN for a job not in the virtual PS.
func (x *SlackSystem) Slack(job int) float64 {
	if job < 0 || job >= len(x.js) {
		return math.NaN()
	}
	switch x.js[job].state {
	case slkPS:
		return x.rawSlack(int32(job))
	case slkPSDone:
		return math.Inf(1)
	}
	return math.NaN()
}

// rawSlack returns the slack eq. 6 gives a job in the virtual PS.
func (x *SlackSystem) rawSlack(job int32) float64 {
	j := &x.js[job]
	pw := 0.0 // w of the jobs before subtree n
	n := x.root
	for n != 0 {
		x.push(n)
		nd := &x.nodes[n]
		if n == j.node {
			return nd.s - (pw + x.nodes[nd.l].sumW + nd.w) - x.off
		}
		if x.keyLess(j.t, j.seq, n) {
			n = nd.l
		} else {
			pw += x.nodes[nd.l].sumW + nd.w
			n = nd.r
		}
	}
	panic("h-pfsp slack system: job not in its treap")
}

// SlackAhead returns the least slack of the running jobs ahead of a job in
// the virtual PS (+Inf if none; NaN for a job not in the virtual PS).
func (x *SlackSystem) SlackAhead(job int) float64 {
	if job < 0 || job >= len(x.js) || (x.js[job].state != slkPS && x.js[job].state != slkPSDone) {
		return math.NaN()
	}
	j := &x.js[job]
	m := math.Inf(1) // least u − W so far
	pw := 0.0        // w of the jobs before subtree n
	n := x.root
	for n != 0 {
		x.push(n)
		nd := &x.nodes[n]
		l := &x.nodes[nd.l]
		if n == j.node {
			return slkMin(m, l.minS-pw) - x.off
		}
		if x.keyLess(j.t, j.seq, n) {
			n = nd.l
		} else {
			m = slkMin(m, l.minS-pw)
			pw += l.sumW + nd.w
			if nd.run {
				m = slkMin(m, nd.s-pw)
			}
			n = nd.r
		}
	}
	panic("h-pfsp slack system: job not in its treap")
}

// Completable reports whether a running job in the virtual PS is
// completable (Alg. 4, with the tolerances of Next step 3).
func (x *SlackSystem) Completable(job int) bool {
	if job < 0 || job >= len(x.js) || x.js[job].state != slkPS {
		return false
	}
	return x.completable(x.js[job].w, x.SlackAhead(job), x.delta())
}

// delta is the slack that counts as none for a job with w = 0.
func (x *SlackSystem) delta() float64 {
	r := &x.nodes[x.root]
	return sim.Tol * max(r.sumT-float64(r.cnt)*x.v+r.sumW, 0)
}

func (x *SlackSystem) completable(w, ahead, delta float64) bool {
	if math.IsInf(ahead, 1) {
		return true
	}
	if w == 0 {
		return ahead > delta
	}
	return w <= ahead+sim.Tol*(w+math.Abs(ahead))
}

// Next returns the runnable job that gets the next free container, and
// why (the order of Alg. 2 described on SlackSystem); −1, PickNone if no
// job may have it. It does not change the system: the caller reports the
// launch (TaskScheduled, SetRunnable) before asking again.
func (x *SlackSystem) Next() (int, PickReason) {
	if x.fair.len() > 0 {
		return int(x.fair.top()), PickFair
	}
	late := int32(-1)
	if x.lateQ.len() > 0 {
		late = x.lateQ.top()
		if x.cfg.LateFirst {
			return int(late), PickLate
		}
	}
	if x.nodes[x.root].nElig == 0 {
		if late >= 0 {
			return int(late), PickLate
		}
		return -1, PickNone
	}
	c, _ := x.BestCompletable()
	switch {
	case late >= 0 && (c < 0 || x.js[late].w <= x.js[c].w):
		return int(late), PickLate
	case c >= 0:
		return c, PickCompletable
	case !x.cfg.Fallback:
		return -1, PickNone
	}
	n := x.root
	for {
		x.push(n)
		nd := &x.nodes[n]
		switch {
		case x.nodes[nd.l].nElig > 0:
			n = nd.l
		case nd.elig:
			return int(nd.job), PickPSOrder
		default:
			n = nd.r
		}
	}
}

// BestCompletable returns the completable runnable job of the virtual PS
// with the least w (ties: ahead in the virtual PS) and the least slack of
// the running jobs ahead of it (+Inf if none); −1 if there is none. Jobs
// in their fair phase are not set apart (Next takes them first).
func (x *SlackSystem) BestCompletable() (int, float64) {
	q := &x.search
	q.best, q.bestW, q.ahead, q.m, q.pw, q.delta = -1, math.Inf(1), 0, math.Inf(1), 0, x.delta()
	x.visit(x.root)
	return int(q.best), q.ahead
}

type slkSearch struct {
	best                       int32
	bestW, ahead, m, pw, delta float64
}

// visit walks subtree n in virtual-PS order for BestCompletable; q.m is
// the least slack of the running jobs before n, q.pw the sum of their w
// (of all the jobs before n).
func (x *SlackSystem) visit(n int32) {
	q := &x.search
	nd := &x.nodes[n]
	if n == 0 {
		return
	}
	if nd.nElig == 0 || nd.minW >= q.bestW || (!math.IsInf(q.m, 1) && nd.minW-sim.Tol*(nd.minW+math.Abs(q.m)) > q.m) {
		// No candidate here can be completable and beat the best.
		q.m = slkMin(q.m, nd.minS-q.pw-x.off)
		q.pw += nd.sumW
		return
	}
	x.push(n)
	x.visit(nd.l)
	nd = &x.nodes[n]
	if nd.elig && nd.w < q.bestW && x.completable(nd.w, q.m, q.delta) {
		q.best, q.bestW, q.ahead = nd.job, nd.w, q.m
	}
	q.pw += nd.w
	if nd.run {
		q.m = slkMin(q.m, nd.s-q.pw-x.off)
	}
	x.visit(nd.r)
}

// settle removes the jobs whose v is 0 (within sim.Tol of their estimate)
// from the front of the virtual PS.
func (x *SlackSystem) settle() {
	for x.root != 0 {
		f := x.front()
		job := x.nodes[f].job
		j := &x.js[job]
		if j.t-x.v > j.tol() {
			break
		}
		x.remove(job)
		if j.state == slkPS {
			j.state = slkLate
			j.lateSeq = x.late
			x.late++
			if j.runnable {
				x.lateQ.push(job)
			}
			if x.OnLate != nil {
				x.OnLate(int(job))
			}
		} else {
			j.state = slkGone
		}
	}
	if x.root == 0 {
		x.v, x.off = 0, 0
	}
}

// tick counts an update and rebuilds every 32·m + 1024 of them.
func (x *SlackSystem) tick() {
	x.ops++
	if x.ops > 32*int(x.cnt(x.root))+1024 {
		x.rebuild()
	}
}

// --- the treap ---

func (x *SlackSystem) cnt(n int32) int32 { return x.nodes[n].cnt }

// keyLess reports whether (t, seq) is before node n's job.
func (x *SlackSystem) keyLess(t float64, seq int32, n int32) bool {
	nt := x.nodes[n].t
	return t < nt || (t == nt && seq < x.js[x.nodes[n].job].seq)
}

// front returns the node of the first job of the virtual PS (0 if it is
// empty). Every change of the treap's shape goes through isolate (remove,
// move), insert or relink, which forget it.
func (x *SlackSystem) front() int32 {
	if x.first != 0 {
		return x.first
	}
	n := x.root
	for x.nodes[n].l != 0 {
		n = x.nodes[n].l
	}
	x.first = n
	return n
}

// newNode makes a node for job, with u (slkNode.s) u.
func (x *SlackSystem) newNode(job int32, u float64) int32 {
	j := &x.js[job]
	nd := slkNode{job: job, prio: x.rnd.Next(), run: j.state == slkPS, t: j.t, w: j.w, s: u}
	nd.elig = nd.run && j.runnable
	n := treap.Take(&x.nodes, &x.free)
	x.nodes[n] = nd
	j.node = n
	x.pull(n)
	return n
}

// applyTag adds h·T_j + b to the slack of every job of subtree n.
func (x *SlackSystem) applyTag(n int32, h, b float64) {
	if n == 0 || (h == 0 && b == 0) {
		return
	}
	nd := &x.nodes[n]
	nd.s += h*nd.t + b
	if nd.minS < slkInf {
		nd.minS += h*nd.minT + b
	}
	nd.lh += h
	nd.lb += b
	switch {
	case h > 0:
		nd.up -= h
		nd.down += h
		if nd.up < 0 {
			x.fix(n)
		}
	case h < 0:
		nd.down += h
		nd.up -= h
		if nd.down < 0 {
			x.fix(n)
		}
	}
}

// slkStale is the melt (up and down) of a node whose melts are not known:
// pull leaves them so, and a ±T tag makes them known (fix) before it is
// checked against them. Known melts are ≥ 0.
var slkStale = math.Inf(-1)

// fix is the kinetic recomputation of node n, whose ±T tag (already
// applied to its own values) went past its melt or found it stale: the
// tags go down, the children's melts are made known, and the node's
// minimum and melts are recomputed.
func (x *SlackSystem) fix(n int32) {
	nd := &x.nodes[n]
	if nd.up != slkStale {
		x.Fixes++
	}
	nd.up = slkStale
	x.known(n)
}

// known makes the melts of subtree n known. The melts are wanted only by
// ±T tags (arrivals, departures and re-estimates that pass jobs), and
// most pulls are of service and reports, so pull leaves them stale and
// they are computed here, once per node pulled since the subtree's last
// ±T tag. A stale node's ancestors are stale (every pull is followed by
// its ancestors'), so a known node ends the walk.
func (x *SlackSystem) known(n int32) {
	nd := &x.nodes[n]
	if n == 0 || nd.up != slkStale {
		return
	}
	x.push(n) // a ±T tag pushed makes the children known itself (fix)
	x.known(nd.l)
	x.known(nd.r)
	x.pull(n)
	x.melt(n)
}

func (x *SlackSystem) push(n int32) {
	nd := &x.nodes[n]
	if nd.lh == 0 && nd.lb == 0 {
		return
	}
	h, b, l, r := nd.lh, nd.lb, nd.l, nd.r
	nd.lh, nd.lb = 0, 0
	if h != 0 {
		x.applyTag(l, h, b)
		x.applyTag(r, h, b)
		return
	}
	// A constant tag (the common case: service, eq. 8) is applyTag with
	// h = 0 inline: it moves no minimum.
	x.addConst(l, b)
	x.addConst(r, b)
}

// addConst is applyTag(n, 0, b) for b ≠ 0, small enough to inline.
func (x *SlackSystem) addConst(n int32, b float64) {
	if n == 0 {
		return
	}
	c := &x.nodes[n]
	c.s += b
	if c.minS < slkInf {
		c.minS += b
	}
	c.lb += b
}

// pull recomputes node n's aggregates from its own values and its
// children's, leaving its melts stale (known computes them).
func (x *SlackSystem) pull(n int32) {
	nd := &x.nodes[n]
	l, r := &x.nodes[nd.l], &x.nodes[nd.r]
	nd.cnt = 1 + l.cnt + r.cnt
	nd.sumT = nd.t + l.sumT + r.sumT
	nd.nElig = l.nElig + r.nElig
	if nd.elig {
		nd.nElig++
	}
	x.pullW(n)
}

// pullW is pull after a change of w below node n (service): the counts
// and the sums of T are as they were. Kinetic minimum: the least of the
// left minimum, the node's own u and the right minimum, the latter two
// less the w up to them; ties to the smaller T (it stays least under +T
// tags). A subtree without running jobs has minS = +Inf.
func (x *SlackSystem) pullW(n int32) {
	nd := &x.nodes[n]
	l, r := &x.nodes[nd.l], &x.nodes[nd.r]
	nd.sumW = nd.w + l.sumW + r.sumW
	nd.minW = slkMin(l.minW, r.minW)
	if nd.elig {
		nd.minW = slkMin(nd.minW, nd.w)
	}
	pre := l.sumW + nd.w
	ms, mt := l.minS, l.minT
	if c := nd.s - pre; nd.run && (c < ms || (c == ms && nd.t < mt)) {
		ms, mt = c, nd.t
	}
	if c := r.minS - pre; c < ms || (c == ms && r.minT < mt) {
		ms, mt = c, r.minT
	}
	nd.minS, nd.minT = ms, mt
	nd.up, nd.down = slkStale, slkStale
}

// melt computes node n's melts (how far a +T or −T tag may go before the
// subtree's least slack changes hands) from its minimum and its
// children's, whose melts must be known.
func (x *SlackSystem) melt(n int32) {
	nd := &x.nodes[n]
	l, r := &x.nodes[nd.l], &x.nodes[nd.r]
	ms, mt := nd.minS, nd.minT
	up, down := slkMin(l.up, r.up), slkMin(l.down, r.down)
	if ms < slkInf {
		// The other candidates overtake the minimum under a +T tag if
		// their T is smaller, under a −T tag if it is larger.
		pre := l.sumW + nd.w
		if l.minS < slkInf {
			up, down = slkCross(up, down, l.minS-ms, l.minT, mt)
		}
		if nd.run {
			up, down = slkCross(up, down, (nd.s-pre)-ms, nd.t, mt)
		}
		if r.minS < slkInf {
			up, down = slkCross(up, down, (r.minS-pre)-ms, r.minT, mt)
		}
	}
	nd.up, nd.down = up, down
}

var slkInf = math.Inf(1)

// cross lowers the melts up and down by the tag at which a candidate gap
// above the minimum, with tag T t, overtakes the minimum of tag T mt.
func slkCross(up, down, gap, t, mt float64) (float64, float64) {
	switch {
	case t < mt:
		up = slkMin(up, gap/(mt-t))
	case t > mt:
		down = slkMin(down, gap/(t-mt))
	}
	return up, down
}

// slkMin is the minimum of two numbers that are not NaN: the builtin,
// which compiles without a branch (the aggregates' minima are data-
// dependent and mispredict). Of two zeros it may return −0, which no
// comparison here tells from +0.
func slkMin(a, b float64) float64 {
	return min(a, b)
}

// pointSet sets the w and flags of job target (tag t, order seq) in
// subtree n, in one descent. A change of w changes the slacks of the job
// and of those behind it, but not their u (slkNode.s): only the sums on
// the way.
func (x *SlackSystem) pointSet(n, target int32, t float64, seq int32, w float64, run, elig bool) {
	x.descend(n, target, t, seq, 0)
	nd := &x.nodes[target]
	nd.w, nd.run, nd.elig = w, run, elig
	x.pullPath()
}

// descend pushes the tags on the way from n down to node target (key
// (t, seq)), adding d to the u of the jobs behind the target that hang
// off the way (the target's own subtrees are the caller's); x.path is the
// way, target last.
func (x *SlackSystem) descend(n, target int32, t float64, seq int32, d float64) {
	path := x.path[:0]
	for {
		x.push(n)
		path = append(path, n)
		if n == target {
			break
		}
		nd := &x.nodes[n]
		if x.keyLess(t, seq, n) {
			if d != 0 {
				nd.s += d
				x.applyTag(nd.r, 0, d)
			}
			n = nd.l
		} else {
			n = nd.r
		}
	}
	x.path = path
}

// pullPath recomputes the aggregates on x.path from the bottom up.
func (x *SlackSystem) pullPath() {
	for i := len(x.path) - 1; i >= 0; i-- {
		x.pull(x.path[i])
	}
}

// setNode applies pointSet to a job of the virtual PS.
func (x *SlackSystem) setNode(job int32, w float64, run, elig bool) {
	j := &x.js[job]
	x.pointSet(x.root, j.node, j.t, j.seq, w, run, elig)
}

// split splits subtree n into the jobs before (t, seq) and the others;
// with orEqual the job at (t, seq) goes left.
func (x *SlackSystem) split(n int32, t float64, seq int32, orEqual bool) (int32, int32) {
	if n == 0 {
		return 0, 0
	}
	x.push(n)
	nd := &x.nodes[n]
	goLeft := x.keyLess(t, seq, n) || (!orEqual && nd.t == t && x.js[nd.job].seq == seq)
	if goLeft {
		l, r := x.split(nd.l, t, seq, orEqual)
		x.nodes[n].l = r
		x.pull(n)
		return l, n
	}
	l, r := x.split(nd.r, t, seq, orEqual)
	x.nodes[n].r = l
	x.pull(n)
	return n, r
}

func (x *SlackSystem) merge(a, b int32) int32 {
	if a == 0 {
		return b
	}
	if b == 0 {
		return a
	}
	if x.nodes[a].prio > x.nodes[b].prio {
		x.push(a)
		r := x.merge(x.nodes[a].r, b)
		x.nodes[a].r = r
		x.pull(a)
		return a
	}
	x.push(b)
	l := x.merge(a, x.nodes[b].l)
	x.nodes[b].l = l
	x.pull(b)
	return b
}

// isolate splits the treap into the jobs ahead of job, job's node, and
// the jobs behind it.
func (x *SlackSystem) isolate(job int32) (a, c, b int32) {
	j := &x.js[job]
	a, rest := x.split(x.root, j.t, j.seq, false)
	c, b = x.split(rest, j.t, j.seq, true)
	x.root, x.first = 0, 0
	return a, c, b
}

// insert adds a job (js[job].t, w set) to the virtual PS: the jobs ahead
// gain their own v (one more job behind them), those behind gain v − w of
// the new job, and w more ahead of them (u: v); its own slack is eq. 6
// from the sums of the jobs ahead.
func (x *SlackSystem) insert(job int32) {
	j := &x.js[job]
	x.first = 0
	a, b := x.split(x.root, j.t, j.seq, false)
	ahead := x.cnt(a)
	m := ahead + x.cnt(b) + 1
	x.applyTag(a, 1, -x.v)
	x.applyTag(b, 0, j.t-x.v)
	x.root = x.merge(x.merge(a, x.newNode(job, x.slackU(ahead, m, x.nodes[a].sumT, j.t))), b)
}

// slackU is eq. 6's slack plus the w up to the job (u, less the offset)
// of a job with tag t behind k jobs whose tags sum to sumT, of m in all:
// Σ_{j<i} v_j + (m−k)·v_i.
func (x *SlackSystem) slackU(k, m int32, sumT, t float64) float64 {
	return (sumT - float64(k)*x.v) + float64(m-k)*(t-x.v) + x.off
}

// addOff runs every slack down by work (the virtual PS's work, eq. 8), in
// O(1): slkNode.s holds u + off. The offset is folded into the treap (a
// tag at the root) once it passes an eighth of Σv + Σw, so that u keeps
// the precision of the slacks.
func (x *SlackSystem) addOff(work float64) {
	x.off += work
	r := &x.nodes[x.root]
	if x.off > (r.sumT-float64(r.cnt)*x.v+r.sumW)/8 {
		x.applyTag(x.root, 0, -x.off)
		x.off = 0
	}
}

// remove takes a job out of the virtual PS: the jobs ahead lose their own
// v (one job fewer behind them), those behind gain w − v of the job, and
// w less ahead of them (u: −v).
func (x *SlackSystem) remove(job int32) {
	j := &x.js[job]
	a, c, b := x.isolate(job)
	x.applyTag(a, -1, x.v)
	x.applyTag(b, 0, -(j.t - x.v))
	x.free = append(x.free, c)
	j.node = 0
	x.root = x.merge(a, b)
}

// move re-estimates a job in the virtual PS to tag t2 and remaining time
// w2 (eq. 11–17): only the jobs it passes change slack besides its own —
// moving back (eq. 14) each gains its own v − v_old + w_old (u: w_old
// fewer ahead); moving ahead (eq. 16) each gains v_new − its own v − w_new
// (u: w_new more ahead); the jobs behind both places gain
// (v_new − v_old) − (w_new − w_old), 0 but for rounding (u: v_new − v_old).
func (x *SlackSystem) move(job int32, t2, w2 float64) {
	if x.moveInPlace(job, t2, w2) {
		return
	}
	j := &x.js[job]
	t1 := j.t
	a, c, rest := x.isolate(job)
	x.free = append(x.free, c)
	var ahead, behind int32
	if t2 > t1 {
		mid, b := x.split(rest, t2, j.seq, false)
		x.applyTag(mid, 1, -t1)
		x.applyTag(b, 0, t2-t1)
		ahead, behind = x.merge(a, mid), b
	} else {
		a2, mid := x.split(a, t2, j.seq, false)
		x.applyTag(mid, -1, t2)
		x.applyTag(rest, 0, t2-t1)
		ahead, behind = a2, x.merge(mid, rest)
	}
	j.t, j.w = t2, w2
	na := &x.nodes[ahead]
	k := na.cnt
	u := x.slackU(k, k+x.cnt(behind)+1, na.sumT, t2)
	x.root = x.merge(x.merge(ahead, x.newNode(job, u)), behind)
}

// rebuild recomputes every slack from eq. 6 and rebases the tags to
// V = 0. A tag that rounding would make equal to or before the previous
// one's key is set just after it, so that the order stays strict.
func (x *SlackSystem) rebuild() {
	x.order = x.order[:0]
	x.inorder(x.root)
	x.relink()
}

// relink makes the treap of x.order (the nodes in key order) balanced
// (balance) and recomputes every slack (rebuild).
func (x *SlackSystem) relink() {
	x.root, x.first = x.balance(x.order), 0
	x.ops = 0
	x.rb = slkRebuild{m: float64(len(x.order)), prevT: math.Inf(-1)}
	x.rebuildWalk(x.root)
	x.v, x.off = 0, 0
}

type slkRebuild struct {
	m, i, sumV, prevT float64
	prevSeq           int32
}

func (x *SlackSystem) rebuildWalk(n int32) {
	if n == 0 {
		return
	}
	x.nodes[n].lh, x.nodes[n].lb = 0, 0
	x.rebuildWalk(x.nodes[n].l)
	nd := &x.nodes[n]
	r := &x.rb
	j := &x.js[nd.job]
	t := nd.t - x.v
	if t < r.prevT || (t == r.prevT && j.seq < r.prevSeq) {
		t = math.Nextafter(r.prevT, math.Inf(1))
	}
	nd.t, j.t = t, t
	r.prevT, r.prevSeq = t, j.seq
	nd.s = r.sumV + (r.m-r.i)*t // eq. 6 plus the w up to the job
	r.sumV += t
	r.i++
	x.rebuildWalk(nd.r)
	x.pull(n)
}

// --- an indexed binary heap of jobs ---

type slkHeap struct {
	h    []int32
	pos  []int32 // index in h + 1; 0: absent
	less func(a, b int32) bool
}

func (q *slkHeap) reset(n int, less func(a, b int32) bool) {
	q.h = q.h[:0]
	if cap(q.pos) < n {
		q.pos = make([]int32, n)
	}
	q.pos = q.pos[:n]
	clear(q.pos)
	q.less = less
}

func (q *slkHeap) len() int         { return len(q.h) }
func (q *slkHeap) top() int32       { return q.h[0] }
func (q *slkHeap) has(j int32) bool { return q.pos[j] != 0 }

func (q *slkHeap) push(j int32) {
	if q.has(j) {
		q.fix(j)
		return
	}
	q.h = append(q.h, j)
	q.pos[j] = int32(len(q.h))
	q.up(len(q.h) - 1)
}

// fix restores the order after j's key changed, adding j if absent.
func (q *slkHeap) fix(j int32) {
	if !q.has(j) {
		q.push(j)
		return
	}
	i := int(q.pos[j] - 1)
	q.up(i)
	q.down(int(q.pos[j] - 1))
}

func (q *slkHeap) remove(j int32) {
	if !q.has(j) {
		return
	}
	i := int(q.pos[j] - 1)
	last := len(q.h) - 1
	q.swap(i, last)
	q.h = q.h[:last]
	q.pos[j] = 0
	if i < last {
		q.up(i)
		q.down(int(q.pos[q.h[i]] - 1))
	}
}

func (q *slkHeap) swap(a, b int) {
	q.h[a], q.h[b] = q.h[b], q.h[a]
	q.pos[q.h[a]] = int32(a + 1)
	q.pos[q.h[b]] = int32(b + 1)
}

func (q *slkHeap) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !q.less(q.h[i], q.h[p]) {
			return
		}
		q.swap(i, p)
		i = p
	}
}

func (q *slkHeap) down(i int) {
	n := len(q.h)
	for {
		c := 2*i + 1
		if c >= n {
			return
		}
		if r := c + 1; r < n && q.less(q.h[r], q.h[c]) {
			c = r
		}
		if !q.less(q.h[c], q.h[i]) {
			return
		}
		q.swap(i, c)
		i = c
	}
}
