package prism

// The phase layer of PRISM (seed 004): an event-driven simulation of tasks
// made of phases on machines with capacity vectors, in which PRISM and the
// two task-level baselines of seed 004 §6 run on the same model.
//
// Why a separate loop and not the task-level engine (package task): the engine
// fixes a task's end when it starts (spec.Duration / exec_rate), while here
// a phase's speed changes whenever another phase starts or ends on its
// machine (the contention model of prism_contention.go) and a PRISM task
// pauses between phases until a heartbeat lets it go on (§4, Fig. 5). Both
// need the task's end to move after its start; rather than re-timing hooks
// in the engine, this file keeps its own small loop with the same
// conventions (periodic heartbeats, machine offsets n·H/M, slow start 1).
//
// The model:
//   - A machine has a capacity Vector. A running phase of demand d at speed
//     ρ (PhaseRates over the machine's running phases, on the capacity left
//     by the thrashing penalty, ThrashedCapacity with PhaseSimConfig.Thrash)
//     finishes ρ seconds of its profiled duration per second and uses ρ·d
//     (MachineUsage).
//   - All tasks are data-local (HDFS I/O is local disk I/O: Phase.DemandOn
//     with local = true); the mixes of §6.3 give no placement.
//   - Reduce tasks become runnable when all of their job's map tasks have
//     finished (slow start 1, as the engine's default), or with SlowStart
//     once that fraction has, their shuffle stalling until the maps end.
//   - Scheduling happens only at heartbeats, every Heartbeat seconds per
//     machine, machine n at offset n·Heartbeat/M, and with OutOfBand also
//     at once when a task ends there (PhaseOutOfBand: a PRISM phase).
//
// Cost: an event (a phase end or a heartbeat of one machine) costs
// O(log M + tasks on the machine) in the loop — the machines' next events
// are in a heap, a machine's phases are advanced only when it is touched,
// the cluster's use is kept incrementally — plus the scheduler's decision
// at a heartbeat (PRISM: O(J log K) over the J active jobs, Fair and YARN:
// O(J) per task started); a job's end costs O(J) (the active list keeps
// arrival order); with SlowStart a map's end also re-times the machines
// holding its job's shuffles, O(the job's reduces × tasks per machine).
// BenchmarkPhaseSimEvents prints the time per event.
//
// The schedulers and how their use maps onto the same vectors:
//   - "prism": Alg. 1 (PrismSelector.Select) at each heartbeat with free =
//     capacity − Σ demand of the machine's running phases. A task that
//     finishes a phase pauses (holding nothing) until a heartbeat resumes
//     it (urgency a·T_wait², eq. 6). Admitted demand never exceeds capacity,
//     so no phase is slowed.
//   - "fair": Hadoop 1's Fair Scheduler with slots: MapSlots and ReduceSlots
//     per machine; a free slot goes to the job with the fewest running
//     tasks of that type (equal weights; ties: the earlier job), as many
//     per heartbeat as FairAssign allows (Hadoop 0.20.2: one). It ignores
//     resources: its tasks run their phases back to back with their real
//     demands, slowed by the contention model when they over-pack.
//   - "yarn": the Capacity Scheduler (one queue, FIFO within it) with
//     fixed-size containers: a task of side s reserves Container[s] on its
//     machine for its whole life and is admitted while Σ reservations fit
//     the capacity in every resource; with AMContainer a job's
//     ApplicationMaster holds one first, and MaxActiveApps bounds the jobs
//     admitted at once. YARN reserves vcores and memory only,
//     so a container vector with disk = net = 0 reproduces its semantics;
//     the phases inside run with their real demands (contended on what the
//     containers do not reserve).
// In all three, utilisation is what the running phases really use
// (MachineUsage), as a fraction of the cluster's capacity, so the figures
// are comparable.

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/internal/treap"
)

// PhaseJob is a job of the phase-level simulation: Count[s] identical tasks
// of side s, each running Phases[s] (durations at full speed, in seconds).
type PhaseJob struct {
	Name    string
	Arrival float64 // s
	Weight  float64 // DRF weight for PRISM, the Fair Scheduler's job weight (≤ 0 counts as 1)
	Count   [NumSides]int
	Phases  [NumSides][]Phase
}

// fairWeight is the job's weight for the Fair Scheduler (≤ 0 counts as 1).
func (j *PhaseJob) fairWeight() float64 {
	if j.Weight > 0 {
		return j.Weight
	}
	return 1
}

// Ideal is the job's running time with sufficient capacity (every task in
// parallel, no contention): the sum over sides with tasks of the side's
// phase durations, s (seed 004 §6.3's ideal time for ANP).
func (j *PhaseJob) Ideal() float64 {
	t := 0.0
	for s := range NumSides {
		if j.Count[s] > 0 {
			for _, p := range j.Phases[s] {
				t += p.Duration
			}
		}
	}
	return t
}

// PhaseScheduler names a scheduler of the phase-level simulation.
type PhaseScheduler string

// The schedulers of the phase-level simulation (see the file comment).
const (
	SchedPrism PhaseScheduler = "prism"
	SchedFair  PhaseScheduler = "fair"
	SchedYARN  PhaseScheduler = "yarn"
)

// PhaseSimConfig describes a run.
type PhaseSimConfig struct {
	Scheduler PhaseScheduler
	Machines  []Vector // capacity of each machine
	Heartbeat float64  // s, > 0
	Prism     PrismConfig
	// MapSlots and ReduceSlots are the Fair Scheduler's slots per machine.
	MapSlots, ReduceSlots int
	// Container is the YARN container reserved by a task of each side.
	Container [NumSides]Vector
	// MaxTime bounds the simulated time, s (0: 1e9 s).
	MaxTime float64
	// Thrash is the thrashing penalty β_r per resource (ThrashedCapacity):
	// the zero vector is the loss-free contention model.
	Thrash Vector
	// OutOfBand makes a machine send a heartbeat at once when a task ends
	// there, the next periodic one following an interval after it: Hadoop
	// 0.20.2's TaskTracker, on which seed 004 built both PRISM and its
	// Fair baseline (§6), wakes its heartbeat loop when a task finishes
	// (TaskTracker.offerService waits heartbeatInterval − (now −
	// lastHeartbeat) on finishedCount, which reportTaskFinished notifies).
	// YARN 2.0.4's NodeManager heartbeats at a fixed interval (1 s by
	// default).
	OutOfBand bool
	// PhaseOutOfBand (PRISM only) also makes a phase end send a heartbeat
	// at once. Seed 004's design does not: a paused task's permission
	// request is forwarded "through the regular heartbeat message" (§4,
	// Fig. 5 step 4). For what-ifs.
	PhaseOutOfBand bool
	// FairAssign is how many tasks the Fair Scheduler starts per
	// heartbeat of a machine (FairFillSlots, FairOneTask,
	// FairMapAndReduce).
	FairAssign FairAssignMode
	// AMContainer (yarn) is the ApplicationMaster's container: a job's
	// tasks start only once its AM holds one on some machine, from the
	// heartbeat after, until the job ends (seed 004 §6.2: "in order to run
	// a new MapReduce job, scheduler need to run a job controller called
	// Application Master ... This Application Master also consumes cluster
	// resources at runtime"). The zero vector: no AM.
	AMContainer Vector
	// MaxActiveApps (yarn) bounds the jobs admitted at once, in arrival
	// order (0: no bound): the Capacity Scheduler's limit from
	// maximum-am-resource-percent (YARNMaxActiveApps).
	MaxActiveApps int
	// SlowStart, in (0, 1], lets a job's reduce tasks start once that
	// fraction of its maps has finished (at least one): Hadoop's
	// mapred.reduce.slowstart.completed.maps, 0.05 by default in 0.20.2
	// and in YARN's MapReduce. A reduce task's first phase (shuffle) then
	// fetches map outputs as the maps finish: it completes at most the
	// job's fraction of finished maps of its work and stalls there — its
	// slot, container or (PRISM) admitted demand held, its resources
	// unused — until more maps finish (seed 004 §5.1: "the shuffle phase
	// cannot finish unless all merge phases of the map tasks have
	// finished"). 0: reduces start when every map has finished.
	SlowStart float64
}

// FairAssignMode is how many tasks Hadoop 1's Fair Scheduler assigns per
// heartbeat.
type FairAssignMode uint8

// The Fair Scheduler's assignment per heartbeat.
const (
	// FairFillSlots fills every free slot of the machine (Hadoop 0.20's
	// default JobQueueTaskScheduler does; also the phase model's original
	// Fair).
	FairFillSlots FairAssignMode = iota
	// FairOneTask assigns one task, a map if any job needs one, else a
	// reduce: Hadoop 0.20.2's FairScheduler.assignTasks with its default
	// mapred.fairscheduler.assignmultiple = false (it returns after the
	// first task).
	FairOneTask
	// FairMapAndReduce assigns at most one map and one reduce:
	// assignmultiple = true in Hadoop 0.20.2.
	FairMapAndReduce
)

// PhaseSimResult is the outcome of a run.
type PhaseSimResult struct {
	Completion []float64 // s, per job
	RunTime    []float64 // completion − arrival, s
	Ideal      []float64 // PhaseJob.Ideal, s
	MeanRun    float64   // mean job running time, s
	Makespan   float64   // last completion − first arrival, s
	// Usage is the cluster's real use over time (Capacity: the cluster's
	// total); MeanUtil its time-weighted mean over the makespan, as
	// fractions per resource.
	Usage    UsageTrace
	MeanUtil Vector
	// ANP summarises the ANP of the ANPJobs jobs with a positive running
	// time (NaN when there are none).
	ANP     ANPSummary
	ANPJobs int
	// MaxOvercommit is the largest admitted demand over capacity seen on a
	// machine, as a fraction of the capacity, over the resources the
	// scheduler manages (prism: all four; yarn: those its containers
	// reserve; fair: none, it is not resource-aware): 0 when never
	// exceeded.
	MaxOvercommit float64
	Heartbeats    int
	// PausedSeconds is the total time PRISM's tasks waited between phases
	// (T_wait when resumed), s; Resumed the number of resumed phases.
	PausedSeconds float64
	Resumed       int
	// DecisionNanos is the wall-clock time spent deciding at heartbeats, ns.
	DecisionNanos int64
	// Prism counts PRISM's candidates and why it rejected them.
	Prism PrismStats
	// FreeBefore and FreeAfter are the mean fraction of a machine's
	// capacity its running phases leave unused at a decision (a
	// heartbeat), before and after the scheduler starts phases, per
	// resource; PausedAfter the mean number of tasks paused on the machine
	// after it (prism). They show where the capacity goes: left free at
	// decisions (nothing fits) or freed between them (1 − mean
	// utilisation − FreeAfter, roughly).
	FreeBefore, FreeAfter Vector
	PausedAfter           float64
}

// running task
type ptask struct {
	job      int32
	side     Side
	machine  int32
	phase    int     // index into the job's Phases[side]
	rem      float64 // s of the current phase left at full speed
	rate     float64
	paused   bool
	pausedAt float64
	demand   Vector // current phase's demand on the machine
}

type pjob struct {
	next, left, run [NumSides]int // next task to start; not finished; started and not finished
	usage           Vector
	arrived, done   bool
	pos             int32   // index in PhaseSim.active, −1 if not active
	am              int32   // yarn: machine holding the job's AM container, −1 none
	amAt            float64 // yarn: when the AM was placed, s
	shuf            []int32 // SlowStart: the job's tasks in their shuffle phase
	// deficit (fair) is the Hadoop 0.20.2 Fair Scheduler's deficit per
	// side, ∫ (fair share − running tasks) dt in slot-seconds, settled at
	// defAt (fairDeficit adds what accrued since); defG is PhaseSim.fairG
	// then; nRunnable is the job's runnable tasks of each side as counted
	// in fairTasks, and its weight is in fairW while it is > 0 (fairSync).
	deficit, defG [NumSides]float64
	defAt         float64
	nRunnable     [NumSides]int
	// prism (FairnessDeficit): the job's Hadoop 0.20.2 deficit is
	// weight × (PhaseSim.prismG − pg0) − pS, where pS = ∫ its dominant
	// share dt, settled at pAt (prismDeficit).
	pg0, pS, pAt float64
}

type pmachine struct {
	cap      Vector
	tasks    []int32 // running (or paused) tasks
	admitted Vector  // prism: Σ running demand; yarn: Σ containers
	slots    [NumSides]int
	nextHB   float64
	report   bool    // a task (OutOfBand) or a phase (PhaseOutOfBand) ended since the last heartbeat
	upd      float64 // time the running phases' rem were last brought to
	end      float64 // earliest end of a running phase at the current speeds, s (+Inf: none)
	use      Vector  // MachineUsage of the running phases
	hpos     int32   // index in PhaseSim.heap
	stalled  int     // SlowStart: shuffles waiting for maps
}

// PhaseSim runs the phase-level simulation. Build with NewPhaseSim.
type PhaseSim struct {
	cfg   PhaseSimConfig
	jobs  []PhaseJob
	js    []pjob
	ms    []pmachine
	ts    []ptask
	tfree []int32
	now   float64
	total Vector // cluster capacity

	active []int32    // arrived, unfinished jobs, by index
	pj     []PrismJob // parallel to active (prism)
	pref   [][]int32  // parallel to active: task of each Paused entry
	hereJ  []int32    // jobs whose PrismJob the last heartbeat filled
	sel    *PrismSelector
	demBuf []Vector
	rates  []float64
	res    PhaseSimResult

	heap     []int32 // machines, a min-heap on their next event (machineBefore)
	pending  []int32 // OutOfBand: machines with report set, to decide
	use      Vector  // Σ machine use
	nRunning int     // tasks running a phase (not paused)
	nStalled int     // SlowStart: running shuffles waiting for maps
	nTasks   int     // tasks on machines (running or paused)
	// Fair Scheduler deficits, kept lazily (fairDeficit): per side, fairW
	// is the weight of the jobs with runnable tasks, fairTasks their
	// runnable tasks, and fairG = ∫ (the side's slots ÷ fairW) dt up to
	// fairAt, so that a runnable job's fair share accrued between two
	// times is its weight × the difference of fairG.
	fairW, fairG [NumSides]float64
	fairN        [NumSides]int // jobs counted in fairW (fairW is 0 when none)
	fairTasks    [NumSides]int
	fairAt       float64
	fairHook     func() // tests: called at every fairAdvance
	// PRISM's deficits (FairnessDeficit): prismG = ∫ (machines ÷ the
	// weights of the unfinished jobs) dt up to prismAt, so that a job's
	// fair share accrued between two times, in machine capacities, is its
	// weight × the difference; prismBase is one machine's capacity (the
	// cluster's mean), the unit of the shares.
	prismG, prismW, prismAt float64
	prismBase               Vector
}

// NewPhaseSim checks the configuration and jobs and prepares a run.
func NewPhaseSim(cfg PhaseSimConfig, jobs []PhaseJob) (*PhaseSim, error) {
	if !(cfg.Heartbeat > 0) || math.IsInf(cfg.Heartbeat, 0) {
		return nil, fmt.Errorf("phase sim: heartbeat must be a finite number > 0 s, got %v", cfg.Heartbeat)
	}
	if len(cfg.Machines) == 0 {
		return nil, fmt.Errorf("phase sim: no machines")
	}
	if cfg.MaxTime == 0 {
		cfg.MaxTime = 1e9
	}
	if !(cfg.MaxTime > 0) || math.IsInf(cfg.MaxTime, 0) {
		return nil, fmt.Errorf("phase sim: max time must be a finite number > 0 s, got %v", cfg.MaxTime)
	}
	s := &PhaseSim{cfg: cfg, jobs: jobs}
	if err := cfg.checkScheduler(); err != nil {
		return nil, err
	}
	if cfg.Scheduler == SchedPrism {
		sel, err := NewPrismSelector(cfg.Prism)
		if err != nil {
			return nil, err
		}
		s.sel = sel
	}
	if !(cfg.SlowStart >= 0 && cfg.SlowStart <= 1) {
		return nil, fmt.Errorf("phase sim: slow start must be a fraction of maps in [0, 1] (0: all maps), got %v", cfg.SlowStart)
	}
	for i, c := range cfg.Machines {
		if err := c.Check(fmt.Sprintf("phase sim: machine %d capacity", i+1)); err != nil {
			return nil, err
		}
		s.total = s.total.Add(c)
	}
	if err := checkPhaseJobs(jobs); err != nil {
		return nil, err
	}
	return s, nil
}

// checkScheduler checks the scheduler's own parameters (PRISM's are
// checked by NewPrismSelector).
func (cfg *PhaseSimConfig) checkScheduler() error {
	switch cfg.Scheduler {
	case SchedPrism:
	case SchedFair:
		if cfg.MapSlots < 1 || cfg.ReduceSlots < 1 {
			return fmt.Errorf("phase sim: fair needs ≥ 1 map and reduce slot per machine, got %d and %d", cfg.MapSlots, cfg.ReduceSlots)
		}
		if cfg.FairAssign > FairMapAndReduce {
			return fmt.Errorf("phase sim: fair assign mode %d is unknown (0 fill slots, 1 one task, 2 a map and a reduce per heartbeat)", cfg.FairAssign)
		}
	case SchedYARN:
		for side := range NumSides {
			if err := cfg.Container[side].Check("phase sim: yarn " + side.String() + " container"); err != nil {
				return err
			}
		}
		if err := cfg.AMContainer.Check("phase sim: yarn AM container"); err != nil {
			return err
		}
		if cfg.MaxActiveApps < 0 {
			return fmt.Errorf("phase sim: yarn max active applications must be ≥ 0 (0: no bound), got %d", cfg.MaxActiveApps)
		}
	default:
		return fmt.Errorf("phase sim: unknown scheduler %q (known: prism, fair, yarn)", cfg.Scheduler)
	}
	return nil
}

// checkPhaseJobs checks the jobs' arrivals, task counts and phases.
func checkPhaseJobs(jobs []PhaseJob) error {
	prev := math.Inf(-1)
	for i := range jobs {
		j := &jobs[i]
		if !(j.Arrival >= prev) || math.IsInf(j.Arrival, 0) {
			return fmt.Errorf("phase sim: job %d (%s): arrival %v s is not finite or precedes the previous job's", i+1, j.Name, j.Arrival)
		}
		prev = j.Arrival
		for side := range NumSides {
			if j.Count[side] < 0 || j.Count[side] > 1<<24 {
				return fmt.Errorf("phase sim: job %d (%s): %d %s tasks, need 0 to %d", i+1, j.Name, j.Count[side], side, 1<<24)
			}
			if j.Count[side] > 0 && len(j.Phases[side]) == 0 {
				return fmt.Errorf("phase sim: job %d (%s): %s tasks without phases", i+1, j.Name, side)
			}
			for _, p := range j.Phases[side] {
				if !(p.Duration >= 0) || p.Duration > MaxAmount {
					return fmt.Errorf("phase sim: job %d (%s): %s phase duration %v s is not in [0, %g]", i+1, j.Name, p.Kind, p.Duration, float64(MaxAmount))
				}
				if err := p.DemandOn(true).Check(fmt.Sprintf("phase sim: job %d (%s): %s phase demand", i+1, j.Name, p.Kind)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// Run simulates the jobs to completion.
func (s *PhaseSim) Run() (*PhaseSimResult, error) { return s.RunContext(context.Background()) }

// RunContext is Run that stops when ctx is done, returning ctx.Err()
// (checked every CancelCheckEvery events).
func (s *PhaseSim) RunContext(ctx context.Context) (*PhaseSimResult, error) {
	s.reset()
	next := 0
	idle := 0 // heartbeats in a row with nothing running and nothing started
	budget := s.heartbeatBudget()
	for round := 1; ; round++ {
		if round%task.CancelCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		for next < len(s.jobs) && s.jobs[next].Arrival <= s.now {
			s.arrive(next)
			next++
			idle = 0
		}
		if next == len(s.jobs) && len(s.active) == 0 {
			break
		}
		// Next event: a phase end, a heartbeat (the machine at the heap's
		// top; phase ends first at equal times) or an arrival; at equal
		// times, phase ends, then arrivals, then heartbeats.
		t := math.Inf(1)
		if next < len(s.jobs) {
			t = s.jobs[next].Arrival
		}
		m := int(s.heap[0])
		mt, isEnd := s.ms[m].nextEvent()
		if mt < t || (isEnd && mt == t) {
			t = mt
		} else {
			m = -1
		}
		if int64(s.res.Heartbeats) > budget {
			return nil, fmt.Errorf("phase sim (%s): not done after %d heartbeats, at %v s (%d jobs unfinished): the machines' resources are too small for the tasks' demands", s.cfg.Scheduler, budget, s.now, len(s.active))
		}
		if t > s.cfg.MaxTime {
			return nil, fmt.Errorf("phase sim (%s): not done by %v s (%d jobs unfinished)", s.cfg.Scheduler, s.cfg.MaxTime, len(s.active))
		}
		running := s.nRunning > s.nStalled
		s.now = t
		if m < 0 {
			continue // an arrival
		}
		if isEnd {
			s.endPhases(m)
			s.decidePending()
			s.record()
			continue
		}
		started := s.heartbeat(m)
		if started == 0 && !running {
			idle++
			if next == len(s.jobs) {
				if err := s.idleErr(idle); err != nil {
					return nil, err
				}
			}
		} else {
			idle = 0
		}
		s.record()
	}
	s.finish()
	if s.sel != nil {
		s.res.Prism = s.sel.Stats()
	}
	return &s.res, nil
}

// heartbeatBudget bounds a run's heartbeats: per machine, 10⁶ or those
// of 100 times the arrivals' span, whichever is more. MaxTime alone
// (1e9 s) allows 3·10⁸ per machine at Hadoop's 3 s, hours of decisions on
// a cluster whose machines are too small for the tasks (a run thrashing at
// 10⁻⁹ of full speed); the embedded trace's runs take about 3·10⁴.
func (s *PhaseSim) heartbeatBudget() int64 {
	per := 1e6
	if n := len(s.jobs); n > 0 {
		per = max(per, 100*(s.jobs[n-1].Arrival-s.jobs[0].Arrival)/s.cfg.Heartbeat)
	}
	return int64(min(per, 1e15/float64(max(len(s.ms), 1))) * float64(max(len(s.ms), 1)))
}

// maxIdleRounds bounds the heartbeat rounds in a row (of every machine)
// with nothing running and nothing started while paused phases wait for
// their urgency (eq. 6) to grow: past it a run is stuck (an a or α so
// small that a paused phase would wait longer than the run's time bound).
const maxIdleRounds = 100_000

// idleErr is the error of a run idle for idle heartbeats in a row (nothing
// running, nothing started, every job arrived), nil while waiting can
// still start something. Without paused phases, or with paused phases
// whose utility cannot grow (any scheduler but PRISM; PRISM with a = 0 or
// α = 0, where eq. 6's urgency adds nothing), a round of every machine's
// heartbeats decides the same again: the run is stuck. Under PRISM's
// FairnessDeficit an idle job's deficit grows, so its utility does: the
// run waits up to maxIdleRounds before it is called stuck.
func (s *PhaseSim) idleErr(idle int) error {
	rounds := 2*len(s.ms) + 2
	switch {
	case s.nTasks == 0 && idle > rounds && !s.prismDeficits():
		return s.stuck()
	case s.nTasks > 0 && idle > rounds && !s.urgencyGrows() && !s.prismDeficits():
		return fmt.Errorf("phase sim (%s): stuck at %v s: %d jobs unfinished, %d tasks paused and nothing running; a paused phase's utility cannot grow (prism a = %v, alpha = %v: eq. 6's urgency α·a·T² stays 0), give a and alpha > 0",
			s.cfg.Scheduler, s.now, len(s.active), s.nTasks, s.cfg.Prism.A, s.cfg.Prism.Alpha)
	case idle > maxIdleRounds*len(s.ms) && s.nStalled > 0:
		return fmt.Errorf("phase sim (%s): stuck at %v s: %d jobs unfinished, %d tasks paused and %d shuffles stalled waiting for maps (slow start %v) hold capacity no paused phase can get; nothing started for %d heartbeat rounds",
			s.cfg.Scheduler, s.now, len(s.active), s.nTasks-s.nRunning, s.nStalled, s.cfg.SlowStart, maxIdleRounds)
	case idle > maxIdleRounds*len(s.ms) && s.nTasks == 0:
		return s.stuck()
	case idle > maxIdleRounds*len(s.ms):
		return fmt.Errorf("phase sim (%s): stuck at %v s: %d jobs unfinished, %d tasks paused and nothing started for %d heartbeat rounds (prism a = %v, alpha = %v: eq. 6's urgency α·a·T² grows too slowly), raise a or alpha",
			s.cfg.Scheduler, s.now, len(s.active), s.nTasks, maxIdleRounds, s.cfg.Prism.A, s.cfg.Prism.Alpha)
	}
	return nil
}

// urgencyGrows reports whether a paused phase's utility grows with its
// wait: PRISM with a > 0 and α > 0.
func (s *PhaseSim) urgencyGrows() bool {
	return s.cfg.Scheduler == SchedPrism && s.cfg.Prism.A > 0 && s.cfg.Prism.Alpha > 0
}

// stuck is the error of a run in which nothing runs and no heartbeat
// starts anything: no task fits any machine or, under PRISM, no candidate
// has a positive utility.
func (s *PhaseSim) stuck() error {
	err := fmt.Errorf("phase sim (%s): stuck at %v s: %d jobs unfinished and no task fits any machine", s.cfg.Scheduler, s.now, len(s.active))
	if s.sel != nil {
		if st := s.sel.Stats(); st.StopNotPositive > 0 {
			err = fmt.Errorf("phase sim (%s): stuck at %v s: %d jobs unfinished and no candidate phase has a positive utility (with alpha = %v: on an idle cluster no first phase narrows the spread of the shares, eq. 2-3, so U_fairness ≤ 0 and only α·U_perf can start a task)",
				s.cfg.Scheduler, s.now, len(s.active), s.cfg.Prism.Alpha)
		}
	}
	return err
}

// nextEvent returns the machine's next event time and whether it is a
// phase end (else its heartbeat).
func (mc *pmachine) nextEvent() (float64, bool) {
	if mc.end <= mc.nextHB {
		return mc.end, true
	}
	return mc.nextHB, false
}

// machineBefore orders machines by next event time, phase ends before
// heartbeats at equal times, then by index.
func (s *PhaseSim) machineBefore(a, b int32) bool {
	ta, ea := s.ms[a].nextEvent()
	tb, eb := s.ms[b].nextEvent()
	if ta != tb {
		return ta < tb
	}
	if ea != eb {
		return ea
	}
	return a < b
}

// fixMachine restores the heap after machine m's next event changed:
// O(log M).
func (s *PhaseSim) fixMachine(m int) {
	h := s.heap
	i := int(s.ms[m].hpos)
	for i > 0 {
		p := (i - 1) / 2
		if !s.machineBefore(h[i], h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		s.ms[h[i]].hpos, s.ms[h[p]].hpos = int32(i), int32(p)
		i = p
	}
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if r := c + 1; r < len(h) && s.machineBefore(h[r], h[c]) {
			c = r
		}
		if !s.machineBefore(h[c], h[i]) {
			return
		}
		h[i], h[c] = h[c], h[i]
		s.ms[h[i]].hpos, s.ms[h[c]].hpos = int32(i), int32(c)
		i = c
	}
}

// decidePending (OutOfBand) runs the scheduler on the machines where a
// task or (prism) a phase ended since their last decision, in machine
// order.
func (s *PhaseSim) decidePending() {
	if len(s.pending) == 0 {
		return
	}
	slices.Sort(s.pending)
	for _, m := range s.pending {
		if mc := &s.ms[m]; mc.report {
			s.decide(int(m))
			// The TaskTracker's next heartbeat is an interval after this
			// one (Hadoop 0.20.2's offerService waits heartbeatInterval −
			// (now − lastHeartbeat)).
			mc.nextHB = s.now + s.cfg.Heartbeat
			s.fixMachine(int(m))
		}
	}
	s.pending = s.pending[:0]
}

func (s *PhaseSim) reset() {
	n := len(s.jobs)
	s.js = make([]pjob, n)
	for i := range s.js {
		s.js[i].pos, s.js[i].am = -1, -1
		s.js[i].left = s.jobs[i].Count
	}
	s.ms = make([]pmachine, len(s.cfg.Machines))
	t0 := 0.0
	if n > 0 {
		t0 = s.jobs[0].Arrival
	}
	H := s.cfg.Heartbeat
	s.heap = s.heap[:0]
	for m := range s.ms {
		s.ms[m].cap = s.cfg.Machines[m]
		s.ms[m].nextHB = t0 + H*float64(m)/float64(len(s.ms))
		s.ms[m].upd, s.ms[m].end = t0, math.Inf(1)
		s.ms[m].hpos = int32(m)
		s.heap = append(s.heap, int32(m))
	}
	s.pending, s.use, s.nRunning, s.nTasks, s.nStalled = s.pending[:0], Vector{}, 0, 0, 0
	s.ts, s.tfree, s.active, s.pj, s.pref = s.ts[:0], s.tfree[:0], s.active[:0], s.pj[:0], s.pref[:0]
	s.now, s.fairAt = t0, t0
	s.prismG, s.prismW, s.prismAt = 0, 0, t0
	s.prismBase = s.total.Scale(1 / float64(len(s.ms)))
	s.fairW, s.fairG, s.fairN, s.fairTasks = [NumSides]float64{}, [NumSides]float64{}, [NumSides]int{}, [NumSides]int{}
	s.res = PhaseSimResult{Completion: make([]float64, n), RunTime: make([]float64, n), Ideal: make([]float64, n)}
	s.res.Usage.Capacity = s.total
	_ = s.res.Usage.Record(t0, Vector{})
}

func (s *PhaseSim) arrive(j int) {
	s.js[j].arrived = true
	s.js[j].pos = int32(len(s.active))
	s.active = append(s.active, int32(j))
	job := &s.jobs[j]
	s.pj = append(s.pj, PrismJob{Weight: job.Weight, Remaining: job.Count})
	s.pref = append(s.pref, nil)
	s.prismJoin(j)
	s.fairSettle(j)
	s.fairSync(j)
	s.refreshStarts(j)
	if job.Count == [NumSides]int{} {
		s.jobDone(j)
	}
}

// refreshStarts rebuilds job j's PRISM start groups: its map tasks, then,
// once every map has finished, its reduce tasks.
func (s *PhaseSim) refreshStarts(j int) {
	r := &s.js[j]
	if r.pos < 0 {
		return
	}
	p := &s.pj[r.pos]
	p.Starts = p.Starts[:0]
	for side := range NumSides {
		if side == ReduceSide && !s.reducesReady(j) {
			break
		}
		if n := s.jobs[j].Count[side] - r.next[side]; n > 0 {
			p.Starts = append(p.Starts, PrismStart{Side: side, Local: true, Count: n, Demand: s.jobs[j].Phases[side][0].DemandOn(true)})
		}
	}
	p.Usage, p.Running, p.Remaining = r.usage, r.run, r.left
}

// canStart reports whether job j has a task of side it may start now.
func (s *PhaseSim) canStart(j int, side Side) bool {
	r := &s.js[j]
	if side == ReduceSide && !s.reducesReady(j) {
		return false
	}
	return r.next[side] < s.jobs[j].Count[side]
}

func (s *PhaseSim) jobDone(j int) {
	r := &s.js[j]
	r.done = true
	s.prismLeave(j)
	s.fairSync(j)
	s.res.Completion[j] = s.now
	if r.am >= 0 {
		mc := &s.ms[r.am]
		mc.admitted = mc.admitted.Sub(s.cfg.AMContainer)
		clampZero(&mc.admitted)
		r.am = -1
	}
	// Remove from active, keeping the order (FIFO for yarn, ties for fair).
	pos := int(r.pos)
	s.pj[pos].Paused, s.pref[pos] = nil, nil
	s.active = slices.Delete(s.active, pos, pos+1)
	s.pj = slices.Delete(s.pj, pos, pos+1)
	s.pref = slices.Delete(s.pref, pos, pos+1)
	for k := pos; k < len(s.active); k++ {
		s.js[s.active[k]].pos = int32(k)
	}
	r.pos = -1
}

// advance brings machine m's running phases to the current time:
// O(tasks on m). Every change to m's phases or speeds calls it first.
func (s *PhaseSim) advance(m int) {
	mc := &s.ms[m]
	if dt := s.now - mc.upd; dt > 0 {
		for _, ti := range mc.tasks {
			if k := &s.ts[ti]; !k.paused {
				k.rem = max(k.rem-k.rate*dt, s.shuffleFloor(k))
			}
		}
	}
	mc.upd = s.now
}

// reducesReady reports whether job j may start its reduce tasks: all its
// maps have finished or, with SlowStart, ⌈SlowStart × maps⌉ of them (at
// least one).
func (s *PhaseSim) reducesReady(j int) bool {
	n, left := s.jobs[j].Count[MapSide], s.js[j].left[MapSide]
	if left == 0 {
		return true
	}
	if s.cfg.SlowStart == 0 {
		return false
	}
	return n-left >= max(1, int(math.Ceil(s.cfg.SlowStart*float64(n)-1e-9)))
}

// shuffleFloor is the work (s at full speed) task k's current phase cannot
// go below yet: for a shuffle under SlowStart, the share of its duration
// that fetches the outputs of the job's maps not yet finished; else 0.
func (s *PhaseSim) shuffleFloor(k *ptask) float64 {
	if s.cfg.SlowStart == 0 || k.side != ReduceSide || k.phase != 0 {
		return 0
	}
	job := &s.jobs[k.job]
	n := job.Count[MapSide]
	if n == 0 {
		return 0
	}
	return job.Phases[ReduceSide][0].Duration * float64(s.js[k.job].left[MapSide]) / float64(n)
}

// stallTol is the rounding tolerance on a phase's remaining work at time
// now.
func stallTol(now float64) float64 { return 1e-9 * (1 + math.Abs(now)) }

// mapsChanging brings every machine holding a shuffle of job j to the
// current time, before the job's finished maps (its shuffles' floors)
// change; mapsChanged re-times them after.
func (s *PhaseSim) mapsChanging(j int) {
	for _, ti := range s.js[j].shuf {
		s.advance(int(s.ts[ti].machine))
	}
}

func (s *PhaseSim) mapsChanged(j int) {
	for _, ti := range s.js[j].shuf {
		s.retime(int(s.ts[ti].machine))
	}
}

// endPhases ends machine m's phases that are done (rem within rounding of
// 0): O(tasks on m).
func (s *PhaseSim) endPhases(m int) {
	s.advance(m)
	mc := &s.ms[m]
	for i := 0; i < len(mc.tasks); i++ {
		ti := mc.tasks[i]
		k := &s.ts[ti]
		if k.paused || k.rem > stallTol(s.now) {
			continue // running (a stalled shuffle has rem at its floor > 0)
		}
		job := &s.jobs[k.job]
		r := &s.js[k.job]
		if s.cfg.SlowStart > 0 && k.side == ReduceSide && k.phase == 0 {
			r.shuf = slices.DeleteFunc(r.shuf, func(x int32) bool { return x == ti })
		}
		s.setDemand(m, k, Vector{})
		if k.phase+1 < len(job.Phases[k.side]) {
			k.phase++
			k.rem = job.Phases[k.side][k.phase].Duration
			if s.cfg.Scheduler == SchedPrism {
				k.paused, k.pausedAt = true, s.now
				s.nRunning--
				if s.cfg.PhaseOutOfBand {
					s.markReport(m)
				}
			} else {
				s.setDemand(m, k, job.Phases[k.side][k.phase].DemandOn(true))
			}
			continue
		}
		// The task is done.
		if s.cfg.OutOfBand {
			s.markReport(m)
		}
		s.nRunning--
		s.nTasks--
		switch s.cfg.Scheduler {
		case SchedFair:
			mc.slots[k.side]--
		case SchedYARN:
			mc.admitted = mc.admitted.Sub(s.cfg.Container[k.side])
		}
		s.fairSettle(int(k.job))
		s.prismSettle(int(k.job)) // FairnessTasks counts it
		r.run[k.side]--
		if k.side == MapSide && s.cfg.SlowStart > 0 {
			s.mapsChanging(int(k.job))
			r.left[k.side]--
			s.mapsChanged(int(k.job))
		} else {
			r.left[k.side]--
		}
		s.fairSync(int(k.job))
		mc.tasks[i] = mc.tasks[len(mc.tasks)-1]
		mc.tasks = mc.tasks[:len(mc.tasks)-1]
		i--
		s.tfree = append(s.tfree, ti)
		j := int(k.job)
		if r.left == [NumSides]int{} {
			s.jobDone(j)
		} else {
			s.refreshStarts(j)
		}
	}
	// Also when nothing ended (a phase just short of its end by rounding):
	// the end is recomputed from the advanced rem.
	s.retime(m)
}

// markReport notes that machine m has something for its scheduler
// (OutOfBand, PhaseOutOfBand: decided after the current event).
func (s *PhaseSim) markReport(m int) {
	mc := &s.ms[m]
	if !mc.report && (s.cfg.OutOfBand || s.cfg.PhaseOutOfBand) {
		s.pending = append(s.pending, int32(m))
	}
	mc.report = true
}

// setDemand changes task k's current demand on machine m, keeping its
// job's usage and (prism) the machine's admitted demand.
func (s *PhaseSim) setDemand(m int, k *ptask, d Vector) {
	r := &s.js[k.job]
	s.prismSettle(int(k.job))
	r.usage = r.usage.Sub(k.demand).Add(d)
	clampZero(&r.usage)
	if s.cfg.Scheduler == SchedPrism {
		mc := &s.ms[m]
		mc.admitted = mc.admitted.Sub(k.demand).Add(d)
		clampZero(&mc.admitted)
	}
	k.demand = d
	if r.pos >= 0 {
		s.pj[r.pos].Usage = r.usage
	}
}

// clampZero removes the rounding residue of repeated add and subtract.
func clampZero(v *Vector) {
	for d := range v {
		if v[d] < 1e-9 {
			v[d] = max(v[d], 0)
			if v[d] < 1e-12 {
				v[d] = 0
			}
		}
	}
}

// retime recomputes the speeds of machine m's running phases.
func (s *PhaseSim) retime(m int) {
	mc := &s.ms[m]
	s.demBuf = s.demBuf[:0]
	tol := stallTol(s.now)
	stalled := 0
	for _, ti := range mc.tasks {
		if k := &s.ts[ti]; !k.paused {
			if f := s.shuffleFloor(k); f > 0 && k.rem-f <= tol {
				stalled++
				continue
			}
			s.demBuf = append(s.demBuf, k.demand)
		}
	}
	s.nStalled += stalled - mc.stalled
	mc.stalled = stalled
	s.rates = PhaseRates(ThrashedCapacity(mc.cap, s.cfg.Thrash, DemandSum(s.demBuf)), s.demBuf, s.rates)
	i := 0
	mc.end = math.Inf(1)
	for _, ti := range mc.tasks {
		if k := &s.ts[ti]; !k.paused {
			f := s.shuffleFloor(k)
			if f > 0 && k.rem-f <= tol {
				k.rate = 0
				continue
			}
			k.rate = s.rates[i]
			i++
			if k.rate > 0 {
				mc.end = min(mc.end, mc.upd+(k.rem-f)/k.rate)
			}
		}
	}
	use := MachineUsage(mc.cap, s.demBuf, s.rates)
	s.use = s.use.Sub(mc.use).Add(use)
	clampZero(&s.use)
	mc.use = use
	s.fixMachine(m)
}

// start starts the next task of side of job j on machine m.
func (s *PhaseSim) start(m, j int, side Side) {
	r := &s.js[j]
	s.fairSettle(j)
	s.prismSettle(j) // FairnessTasks counts it
	r.next[side]++
	r.run[side]++
	s.fairSync(j)
	job := &s.jobs[j]
	k := ptask{job: int32(j), side: side, machine: int32(m), rem: job.Phases[side][0].Duration}
	ti := treap.Take(&s.ts, &s.tfree)
	s.ts[ti] = k
	mc := &s.ms[m]
	mc.tasks = append(mc.tasks, ti)
	s.nRunning++
	s.nTasks++
	if side == ReduceSide && s.cfg.SlowStart > 0 {
		r.shuf = append(r.shuf, ti)
	}
	switch s.cfg.Scheduler {
	case SchedFair:
		mc.slots[side]++
	case SchedYARN:
		mc.admitted = mc.admitted.Add(s.cfg.Container[side])
	}
	s.setDemand(m, &s.ts[ti], job.Phases[side][0].DemandOn(true))
	s.refreshStarts(j)
	s.checkAdmitted(m)
}

// checkAdmitted records by how much machine m's admitted demand exceeds
// its capacity in the resources the scheduler manages.
func (s *PhaseSim) checkAdmitted(m int) {
	mc := &s.ms[m]
	for d := range NumDims {
		manage := s.cfg.Scheduler == SchedPrism ||
			(s.cfg.Scheduler == SchedYARN && (s.cfg.Container[MapSide][d] > 0 || s.cfg.Container[ReduceSide][d] > 0))
		if !manage {
			continue
		}
		if over := mc.admitted[d] - mc.cap[d]; over > 1e-9*(1+mc.cap[d]) {
			f := math.Inf(1)
			if mc.cap[d] > 0 {
				f = over / mc.cap[d]
			}
			s.res.MaxOvercommit = max(s.res.MaxOvercommit, f)
		}
	}
}

// heartbeat runs the scheduler on machine m and re-arms its heartbeat; it
// returns the phases started or resumed.
func (s *PhaseSim) heartbeat(m int) int {
	s.ms[m].nextHB += s.cfg.Heartbeat
	n := s.decide(m)
	if n == 0 {
		s.fixMachine(m) // decide retimes (and fixes) only when it starts something
	}
	return n
}

// decide runs the scheduler on machine m (a periodic or an out-of-band
// heartbeat) and returns the phases started or resumed.
func (s *PhaseSim) decide(m int) int {
	s.res.Heartbeats++
	s.advance(m)
	mc := &s.ms[m]
	mc.report = false
	t0 := time.Now()
	n := 0
	switch s.cfg.Scheduler {
	case SchedPrism:
		n = s.applyPicks(m, s.DecidePrism(m))
	case SchedFair:
		n = s.heartbeatFair(m)
	case SchedYARN:
		n = s.heartbeatYARN(m)
	}
	s.res.DecisionNanos += int64(time.Since(t0))
	before := mc.use
	if n > 0 {
		s.retime(m)
	}
	s.noteFree(m, before)
	return n
}

// noteFree adds machine m's free capacity before (use before) and after a
// decision, and its paused tasks, to the result's sums (finish divides).
func (s *PhaseSim) noteFree(m int, before Vector) {
	mc := &s.ms[m]
	for r := range NumDims {
		if c := mc.cap[r]; c > 0 {
			s.res.FreeBefore[r] += max(c-before[r], 0) / c
			s.res.FreeAfter[r] += max(c-mc.use[r], 0) / c
		}
	}
	if s.cfg.Scheduler == SchedPrism {
		for _, ti := range mc.tasks {
			if s.ts[ti].paused {
				s.res.PausedAfter++
			}
		}
	}
}

// DecidePrism is PRISM's decision at a heartbeat of machine m (Alg. 1):
// it fills the machine's view of the jobs (tasks and paused phases on m)
// and runs the selector. The picks are valid until the state changes;
// DecidePrism does not change it.
func (s *PhaseSim) DecidePrism(m int) []PrismPick {
	mc := &s.ms[m]
	// Forget the previous heartbeat's machine (jobs may have moved in
	// s.active since: hereJ holds job indices).
	for _, j := range s.hereJ {
		if pos := s.js[j].pos; pos >= 0 {
			s.pj[pos].OnMachine = false
			s.pj[pos].Paused = s.pj[pos].Paused[:0]
			s.pref[pos] = s.pref[pos][:0]
		}
	}
	s.hereJ = s.hereJ[:0]
	for _, ti := range mc.tasks {
		k := &s.ts[ti]
		pos := s.js[k.job].pos
		p := &s.pj[pos]
		if !p.OnMachine {
			p.OnMachine = true
			s.hereJ = append(s.hereJ, k.job)
		}
		if k.paused {
			d := s.jobs[k.job].Phases[k.side][k.phase].DemandOn(true)
			p.Paused = append(p.Paused, PrismPaused{Demand: d, Wait: s.now - k.pausedAt})
			s.pref[pos] = append(s.pref[pos], ti)
		}
	}
	free := mc.cap.Sub(mc.admitted)
	clampZero(&free)
	if s.prismDeficits() {
		// Shares in units of one machine's capacity (eq. 3's C_r), the
		// cluster's mean: the fair shares are of the cluster.
		s.prismAdvance()
		for pos, j := range s.active {
			p := &s.pj[pos]
			sh := s.prismShare(int(j))
			p.Owed = s.prismDeficit(int(j))/s.cfg.Heartbeat + s.prismFairShare(int(j)) - sh
		}
		return s.sel.Select(free, s.prismBase, s.pj)
	}
	// Eq. 3 divides by C_r, "the capacity of resource r on a single
	// machine": shares are against the machine's capacity.
	return s.sel.Select(free, mc.cap, s.pj)
}

// PRISM's fairness under FairnessDeficit and FairnessTasks
// (prism_utility.go; what a job holds: prismShare): each
// unfinished job's fair share is its weight over the weights of the
// unfinished jobs, of the cluster (Hadoop 0.20.2's updateFairShares with
// one pool and no minimum shares; 0.20.2 counts jobs with runnable tasks,
// here every unfinished job, since a PRISM task paused between phases
// still needs the cluster), and its deficit ∫ (fair share − what it
// holds) dt (updateDeficits: running tasks over TaskSlots, or the
// dominant share of what its running phases demand, resources for
// slots), kept lazily and exactly as the Fair baseline's.

// prismDeficits reports whether the run keeps PRISM's deficits.
func (s *PhaseSim) prismDeficits() bool {
	f := s.cfg.Prism.Fairness
	return s.cfg.Scheduler == SchedPrism && (f == FairnessDeficit || f == FairnessTasks)
}

// prismShare is what job j holds now for PRISM's fairness, in machines:
// its started, unfinished tasks over TaskSlots (FairnessTasks) or the
// dominant share of its running phases' demand (FairnessDeficit).
func (s *PhaseSim) prismShare(j int) float64 {
	r := &s.js[j]
	if s.cfg.Prism.Fairness == FairnessTasks {
		return float64(r.run[MapSide]+r.run[ReduceSide]) / float64(s.cfg.Prism.TaskSlots)
	}
	return r.usage.DominantShare(s.prismBase)
}

// prismAdvance brings prismG to the current time.
func (s *PhaseSim) prismAdvance() {
	if dt := s.now - s.prismAt; dt > 0 && s.prismW > 0 {
		s.prismG += float64(len(s.ms)) / s.prismW * dt
	}
	s.prismAt = s.now
}

// prismJoin starts job j's deficit at its arrival.
func (s *PhaseSim) prismJoin(j int) {
	if !s.prismDeficits() {
		return
	}
	s.prismAdvance()
	s.prismW += s.jobs[j].fairWeight()
	r := &s.js[j]
	r.pg0, r.pS, r.pAt = s.prismG, 0, s.now
}

// prismLeave removes job j's weight at its end.
func (s *PhaseSim) prismLeave(j int) {
	if !s.prismDeficits() {
		return
	}
	s.prismAdvance()
	if s.prismW -= s.jobs[j].fairWeight(); len(s.active) <= 1 {
		s.prismW = 0 // no rounding residue
	}
}

// prismSettle brings job j's ∫ share dt to the current time, before its
// usage changes.
func (s *PhaseSim) prismSettle(j int) {
	if !s.prismDeficits() {
		return
	}
	r := &s.js[j]
	r.pS += s.prismShare(j) * (s.now - r.pAt)
	r.pAt = s.now
}

// prismFairShare is job j's fair share now, in machine capacities.
func (s *PhaseSim) prismFairShare(j int) float64 {
	if !(s.prismW > 0) {
		return 0
	}
	return s.jobs[j].fairWeight() * float64(len(s.ms)) / s.prismW
}

// prismDeficit is job j's deficit now, machine-capacity seconds
// (prismAdvance first).
func (s *PhaseSim) prismDeficit(j int) float64 {
	r := &s.js[j]
	held := r.pS + s.prismShare(j)*(s.now-r.pAt)
	return s.jobs[j].fairWeight()*(s.prismG-r.pg0) - held
}

func (s *PhaseSim) applyPicks(m int, picks []PrismPick) int {
	// Resolve the picks to jobs and tasks before changing anything: start
	// and done change s.pj.
	type act struct {
		j    int32
		side Side
		task int32 // paused task to resume, or −1
	}
	acts := make([]act, 0, len(picks))
	for _, p := range picks {
		j := s.active[p.Job]
		if p.Paused >= 0 {
			acts = append(acts, act{j: j, task: s.pref[p.Job][p.Paused]})
		} else {
			acts = append(acts, act{j: j, side: s.pj[p.Job].Starts[p.Start].Side, task: -1})
		}
	}
	for _, a := range acts {
		if a.task >= 0 {
			k := &s.ts[a.task]
			k.paused = false
			s.nRunning++
			s.res.PausedSeconds += s.now - k.pausedAt
			s.res.Resumed++
			s.setDemand(m, k, s.jobs[k.job].Phases[k.side][k.phase].DemandOn(true))
			s.checkAdmitted(m)
		} else {
			s.start(m, int(a.j), a.side)
		}
	}
	return len(acts)
}

// heartbeatFair is Hadoop 0.20.2's FairScheduler.assignTasks on machine
// m: for maps, then reduces, while the machine runs fewer tasks of the
// side than its cap (CapBasedLoadManager: ⌈slots × min(1, runnable tasks
// of the side ÷ the cluster's slots)⌉), the job with the highest deficit
// (DeficitComparator; ties in arrival order) that can start a task of the
// side gets one; FairAssign says how many tasks a heartbeat assigns.
func (s *PhaseSim) heartbeatFair(m int) int {
	mc := &s.ms[m]
	n := 0
	for side, slots := range [NumSides]int{s.cfg.MapSlots, s.cfg.ReduceSlots} {
		if s.cfg.FairAssign == FairOneTask && n > 0 {
			break // assignmultiple = false: the first task ends the heartbeat
		}
		total := slots * len(s.ms)
		limit := int(math.Ceil(float64(slots) * min(1, float64(s.fairTasks[side])/float64(max(total, 1)))))
		for k := 0; mc.slots[side] < limit && (k == 0 || s.cfg.FairAssign == FairFillSlots); k++ {
			s.fairAdvance()
			best, bestD := -1, 0.0
			for _, j := range s.active {
				if !s.canStart(int(j), Side(side)) {
					continue
				}
				// Deficits within rounding of each other tie (jobs with the
				// same history accrue the same deficit, whatever order
				// the lazy sums were taken in); ties go to the earliest job.
				if d := s.fairDeficit(int(j), Side(side)); best < 0 || d > bestD+1e-9*(1+math.Abs(bestD)) {
					best, bestD = int(j), d
				}
			}
			if best < 0 {
				break
			}
			s.start(m, best, Side(side))
			n++
		}
	}
	return n
}

// fairRunnable is FairScheduler.runnableTasks: job j's tasks of side not
// finished, or for reduces before the job's reduces may start, those
// running (none).
func (s *PhaseSim) fairRunnable(j int, side Side) int {
	if side == ReduceSide && !s.reducesReady(j) {
		return s.js[j].run[side]
	}
	return s.js[j].left[side]
}

// The Fair Scheduler's deficits (FairScheduler.updateDeficits): each job's
// deficit per side grows by (fair share − running tasks) × dt, where a job
// with runnable tasks of the side has the fair share slots of the side ×
// its weight ÷ the weights of the jobs with runnable tasks of the side
// (updateWeights, updateFairShares: one pool, no minimum shares, the job's
// priority as its weight), and other jobs 0. Hadoop updates every 500 ms
// (UPDATE_INTERVAL); here the integral is exact, and kept lazily: fairG
// integrates the share of a unit of weight, so a job's deficit is settled
// (fairSettle) only when its running or runnable tasks change (fairSync),
// O(1), and read (fairDeficit) in O(1) at a heartbeat.

// fairAdvance brings fairG to the current time, before every settle and
// every read of the deficits.
func (s *PhaseSim) fairAdvance() {
	if dt := s.now - s.fairAt; dt > 0 {
		for side, slots := range [NumSides]int{s.cfg.MapSlots, s.cfg.ReduceSlots} {
			if s.fairN[side] > 0 && s.fairW[side] > 0 {
				s.fairG[side] += float64(slots*len(s.ms)) / s.fairW[side] * dt
			}
		}
	}
	s.fairAt = s.now
	if s.fairHook != nil {
		s.fairHook()
	}
}

// fairDeficit is job j's deficit of side at the current time (fairAdvance
// first).
func (s *PhaseSim) fairDeficit(j int, side Side) float64 {
	r := &s.js[j]
	d := r.deficit[side] - float64(r.run[side])*(s.now-r.defAt)
	if r.nRunnable[side] > 0 {
		d += s.jobs[j].fairWeight() * (s.fairG[side] - r.defG[side])
	}
	return d
}

// fairSettle brings job j's deficits to the current time, before its
// running or runnable tasks change (Fair only).
func (s *PhaseSim) fairSettle(j int) {
	if s.cfg.Scheduler != SchedFair {
		return
	}
	s.fairAdvance()
	r := &s.js[j]
	for side := range NumSides {
		r.deficit[side] = s.fairDeficit(j, side)
		r.defG[side] = s.fairG[side]
	}
	r.defAt = s.now
}

// fairSync counts job j's runnable tasks of each side again after they
// changed (fairSettle before the change): its weight joins or leaves
// fairW when it gains its first or loses its last.
func (s *PhaseSim) fairSync(j int) {
	if s.cfg.Scheduler != SchedFair {
		return
	}
	r := &s.js[j]
	for side := range NumSides {
		n := 0
		if !r.done {
			n = s.fairRunnable(j, side)
		}
		was := r.nRunnable[side] > 0
		s.fairTasks[side] += n - r.nRunnable[side]
		r.nRunnable[side] = n
		if rb := n > 0; rb != was {
			if rb {
				s.fairN[side]++
				s.fairW[side] += s.jobs[j].fairWeight()
			} else {
				s.fairN[side]--
				s.fairW[side] -= s.jobs[j].fairWeight()
			}
			if s.fairN[side] == 0 {
				s.fairW[side] = 0 // no rounding residue
			}
		}
	}
}

// heartbeatYARN is the Capacity Scheduler's node update: jobs in arrival
// order (FIFO within the queue), at most MaxActiveApps of them admitted;
// an admitted job without an ApplicationMaster gets its AM container here
// if it fits, and its tasks from a later heartbeat; a job with its AM
// running takes containers while one fits, before the next job. An AM or
// a reduce container ends the heartbeat: their requests name no host or
// rack (MapReduce's AM asks for reduces, and the client for the AM, at
// "*"), and the root queue assigns at most one such off-switch container
// per node update (ParentQueue.assignContainers in YARN 2.0.x: "Do not
// assign more than one container if ... we've already assigned an
// off-switch container"); maps are data-local in this model and do not.
func (s *PhaseSim) heartbeatYARN(m int) int {
	mc := &s.ms[m]
	n := 0
	withAM := s.cfg.AMContainer != (Vector{})
	for k := 0; k < len(s.active); {
		if s.cfg.MaxActiveApps > 0 && k >= s.cfg.MaxActiveApps {
			break
		}
		j := int(s.active[k])
		r := &s.js[j]
		if withAM && r.am < 0 {
			if s.cfg.AMContainer.Fits(mc.cap.Sub(mc.admitted)) {
				r.am, r.amAt = int32(m), s.now
				mc.admitted = mc.admitted.Add(s.cfg.AMContainer)
				s.checkAdmitted(m)
				return n + 1 // off-switch
			}
			k++
			continue
		}
		placed := false
		if !withAM || s.now > r.amAt {
			for side := range NumSides {
				c := s.cfg.Container[side]
				if s.canStart(j, side) && c.Fits(mc.cap.Sub(mc.admitted)) {
					s.start(m, j, side)
					n++
					if side == ReduceSide {
						return n // off-switch
					}
					placed = true
					break
				}
			}
		}
		if !placed {
			k++
		}
	}
	return n
}

// record notes the cluster's real use at the current time: O(1) (the
// machines' use is kept by retime).
func (s *PhaseSim) record() {
	_ = s.res.Usage.Record(s.now, s.use)
}

func (s *PhaseSim) finish() {
	r := &s.res
	if h := float64(r.Heartbeats); h > 0 {
		r.FreeBefore, r.FreeAfter, r.PausedAfter = r.FreeBefore.Scale(1/h), r.FreeAfter.Scale(1/h), r.PausedAfter/h
	}
	if len(s.jobs) == 0 {
		return
	}
	t0, end := s.jobs[0].Arrival, s.jobs[0].Arrival
	sum := 0.0
	for j := range s.jobs {
		r.RunTime[j] = r.Completion[j] - s.jobs[j].Arrival
		r.Ideal[j] = s.jobs[j].Ideal()
		sum += r.RunTime[j]
		end = max(end, r.Completion[j])
	}
	r.MeanRun = sum / float64(len(s.jobs))
	r.Makespan = end - t0
	if end > t0 {
		r.MeanUtil, _ = r.Usage.MeanOver(t0, end)
	}
	// ANP over the jobs that ran for a positive time (a job without tasks,
	// or whose tasks take 0 s, completes on arrival: its ANP is undefined).
	var ideal, run []float64
	for j := range s.jobs {
		if r.RunTime[j] > 0 {
			ideal, run = append(ideal, r.Ideal[j]), append(run, r.RunTime[j])
		}
	}
	r.ANPJobs = len(run)
	r.ANP = ANPSummary{MeanANP: math.NaN(), Unfairness: math.NaN()}
	if anp, err := ANP(nil, ideal, run); err == nil && len(anp) > 0 {
		r.ANP = SummariseANP(anp)
	}
}

// MixPhaseJobs turns a batch of a benchmark mix (Mix.Batch) into phase
// jobs submitted at time 0: each task's phases come from profiles.For(class)
// scaled to the table's mean task running time (Profile.TaskPhases); a
// class without a profile gets the fallback with the task-level demands
// fallback[side].
func MixPhaseJobs(batch []MixJob, profiles *ProfileSet, fallback [NumSides]Vector) ([]PhaseJob, error) {
	out := make([]PhaseJob, len(batch))
	for i, mj := range batch {
		prof := profiles.For(mj.Class, fallback[MapSide], fallback[ReduceSide])
		pj := PhaseJob{Name: mj.Abbrev, Weight: 1, Count: [NumSides]int{mj.Maps, mj.Reduces}}
		for side, d := range [NumSides]float64{mj.MapTaskSeconds, mj.ReduceTaskSeconds} {
			if pj.Count[side] == 0 {
				continue
			}
			ph, err := prof.TaskPhases(nil, Side(side), d)
			if err != nil {
				return nil, fmt.Errorf("job %d (%s): %w", i+1, mj.Name, err)
			}
			pj.Phases[side] = ph
		}
		out[i] = pj
	}
	return out, nil
}

// Spec returns the registry specification of the configuration,
// "prism:alpha=…,k=…,a=…" (ParsePrismSpec reads it back; ε and MaxPicks
// are given only when they differ from the defaults).
func (c PrismConfig) Spec() string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	s := "prism:alpha=" + f(c.Alpha) + ",k=" + strconv.Itoa(c.K) + ",a=" + f(c.A)
	d := DefaultPrismConfig()
	if c.Epsilon != d.Epsilon {
		s += ",epsilon=" + f(c.Epsilon)
	}
	if c.MaxPicks != d.MaxPicks {
		s += ",maxpicks=" + strconv.Itoa(c.MaxPicks)
	}
	if c.Hold {
		s += ",hold=1"
	}
	if c.Fairness != d.Fairness {
		f := c.Fairness
		if f == "" {
			f = FairnessDRFSpread
		}
		s += ",fairness=" + string(f)
	}
	if c.TaskSlots != d.TaskSlots {
		s += ",slots=" + strconv.Itoa(c.TaskSlots)
	}
	return s
}

// ParsePrismSpec reads a specification "prism" or "prism:alpha=1,k=20,
// a=0.1" (k ≥ 1; also epsilon, maxpicks, hold=true|false,
// fairness=tasks|deficit|drf, slots ≥ 1); missing parameters keep
// DefaultPrismConfig's values. An unknown parameter or a bad value is an
// error naming it.
func ParsePrismSpec(spec string) (PrismConfig, error) {
	c := DefaultPrismConfig()
	name, params, err := sim.SplitSpec(spec)
	if err != nil {
		return c, err
	}
	if name != "prism" {
		return c, fmt.Errorf("prism spec %q: name is %q, not prism", spec, name)
	}
	for k, v := range params {
		var err error
		switch k {
		case "alpha":
			c.Alpha, err = strconv.ParseFloat(v, 64)
		case "a":
			c.A, err = strconv.ParseFloat(v, 64)
		case "epsilon":
			c.Epsilon, err = strconv.ParseFloat(v, 64)
		case "k":
			// k = 0 leaves Alg. 1 only the jobs already on a machine: on
			// an idle cluster no job ever starts and the run ends stuck.
			if c.K, err = strconv.Atoi(v); err == nil && c.K < 1 {
				err = fmt.Errorf("want an integer ≥ 1 (jobs considered besides those on the machine)")
			}
		case "maxpicks":
			c.MaxPicks, err = strconv.Atoi(v)
		case "hold":
			c.Hold, err = strconv.ParseBool(v)
		case "fairness":
			c.Fairness = PrismFairness(strings.ToLower(strings.TrimSpace(v)))
			if c.Fairness != FairnessTasks && c.Fairness != FairnessDeficit && c.Fairness != FairnessDRFSpread {
				err = fmt.Errorf("want %s, %s or %s", FairnessTasks, FairnessDeficit, FairnessDRFSpread)
			}
		case "slots":
			if c.TaskSlots, err = strconv.Atoi(v); err == nil && c.TaskSlots < 1 {
				err = fmt.Errorf("want an integer ≥ 1 (tasks per machine of the fair share)")
			}
		default:
			return c, fmt.Errorf("prism: unknown parameter %q (known: alpha, k, a, epsilon, maxpicks, hold, fairness, slots)", k)
		}
		if err != nil {
			return c, fmt.Errorf("prism: parameter %s=%q: %v", k, v, err)
		}
	}
	if err := c.Check(); err != nil {
		return c, fmt.Errorf("prism spec %q: %w", strings.TrimSpace(spec), err)
	}
	return c, nil
}

// PeakDemands returns the per-resource maximum of each side's phase
// demands in profile p (data-local): what a task-level profiler would
// report as the task's demand, and so the task-level demand the fallback of
// seed 004 §4 gives every phase of an unprofiled class.
func PeakDemands(p *Profile) [NumSides]Vector {
	var out [NumSides]Vector
	for s := range NumSides {
		for _, ph := range p.Sides[s] {
			d := ph.DemandOn(true)
			for r := range NumDims {
				out[s][r] = max(out[s][r], d[r])
			}
		}
	}
	return out
}

// PrismRunner is what a `simulate --policy prism` path needs: a PRISM
// configuration from a registry specification, a profile file, and the
// phase-level simulation of task-level jobs on machines with capacity
// vectors.
type PrismRunner struct {
	Config   PrismConfig
	Profiles *ProfileSet
	// Class names the profile every job takes (task-level jobs carry no
	// class); a class the set lacks gets the fallback with Fallback.
	Class    string
	Fallback [NumSides]Vector
}

// NewPrismRunner reads spec ("prism:alpha=…,k=…,a=…", ParsePrismSpec) and
// the profile file at profilesPath ("" or "default": the embedded
// default). Jobs take the profile of the default set's fallback shape
// (sort, Fig. 8); the fallback demand is that profile's PeakDemands.
func NewPrismRunner(spec, profilesPath string) (*PrismRunner, error) {
	cfg, err := ParsePrismSpec(spec)
	if err != nil {
		return nil, err
	}
	ps, err := LoadProfiles(profilesPath)
	if err != nil {
		return nil, fmt.Errorf("prism: profiles: %w", err)
	}
	r := &PrismRunner{Config: cfg, Profiles: ps, Class: "sort"}
	if ps.shape != nil {
		r.Class = ps.shape.Class
		r.Fallback = PeakDemands(ps.shape)
	} else if p, ok := ps.Lookup("sort"); ok {
		r.Fallback = PeakDemands(p)
	} else {
		d := DefaultProfiles().For("sort", Vector{}, Vector{})
		r.Fallback = PeakDemands(&d)
	}
	return r, nil
}

// PhaseJobs converts task-level jobs (stage 1: maps, stage 2: reduces; at
// most two stages) into phase jobs of the runner's profile class. A
// phase job's tasks of a side are identical, so each side's task duration
// is the mean of the stage's task durations (an approximation: the
// phase model has no per-task durations); containers are not used.
func (r *PrismRunner) PhaseJobs(jobs []task.Job) ([]PhaseJob, error) {
	out := make([]PhaseJob, len(jobs))
	prof := r.Profiles.For(r.Class, r.Fallback[MapSide], r.Fallback[ReduceSide])
	for i := range jobs {
		j := &jobs[i]
		if len(j.Stages) > int(NumSides) {
			return nil, fmt.Errorf("prism: job %d (id %d) has %d stages; the phase model has map and reduce only", i+1, j.ID, len(j.Stages))
		}
		pj := PhaseJob{Name: strconv.Itoa(j.ID), Arrival: j.Arrival, Weight: j.Weight}
		for st, stage := range j.Stages {
			if len(stage.Tasks) == 0 {
				continue
			}
			sum := 0.0
			for _, t := range stage.Tasks {
				sum += t.Duration
			}
			ph, err := prof.TaskPhases(nil, Side(st), sum/float64(len(stage.Tasks)))
			if err != nil {
				return nil, fmt.Errorf("prism: job %d (id %d): %w", i+1, j.ID, err)
			}
			pj.Count[st], pj.Phases[st] = len(stage.Tasks), ph
		}
		out[i] = pj
	}
	return out, nil
}

// Run simulates jobs under PRISM on machines (capacity vectors, e.g. from
// the cluster spec's per-type resources block, one entry per machine) with
// heartbeats every heartbeat seconds.
func (r *PrismRunner) Run(jobs []task.Job, machines []Vector, heartbeat float64) (*PhaseSimResult, error) {
	pj, err := r.PhaseJobs(jobs)
	if err != nil {
		return nil, err
	}
	s, err := NewPhaseSim(PhaseSimConfig{Scheduler: SchedPrism, Machines: machines, Heartbeat: heartbeat, Prism: r.Config}, pj)
	if err != nil {
		return nil, err
	}
	return s.Run()
}
