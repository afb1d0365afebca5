package hpfsp

import (
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/schedplan/schedplan/cluster/task"
)

// RemainingEstimator is the online size estimator H-PFSP reads (seed 002
// §II.B, eq. 1–5 and 18). Its methods take plain types so that package
// estimate's ProgressEstimator satisfies it without this package importing
// estimate. Remaining must be in seconds of the whole cluster taken as one
// processor (estimate.ProgressConfig.Slots = the cluster's containers per
// stage); StageProgress is a stage's progress in [0, 1]. Errors of the
// notifications are reported by HPFSP as a run error (a panic inside the
// simulation: they mean a bug, not bad input).
type RemainingEstimator interface {
	AddJob(job int, tasks []int) error
	TaskStarted(job, stage, task int, now float64) error
	TaskFinished(job, stage, task int, now float64) error
	// ObserveStage is a stage's progress report (the mean done fraction
	// of its tasks, as Hadoop reports map and reduce progress), at
	// heartbeats and after each of the stage's task starts and ends.
	ObserveStage(job, stage int, progress, now float64) error
	RemoveJob(job int)
	StageProgress(job, stage int) float64
	Remaining(job int) float64
}

// HPFSP is seed 002's H-PFSP scheduler at task level: the slack system of
// a virtual processor sharing ([SlackSystem]) decides which job gets each
// free container. By default it is Algorithm 2 with §II.C's residual
// slots:
//
//  1. jobs in their fair phase (Alg. 3: fewer than FairLimit tasks
//     scheduled in their current stage, whose map progress is below
//     Threshold), fewest scheduled first;
//  2. the completable job (Alg. 4) with the shortest estimated remaining
//     time (Alg. 2); a late job (out of the virtual PS, not finished) is
//     completable and competes by its remaining time;
//  3. otherwise the first runnable job of the virtual PS (the job PS would
//     finish first), so no container idles while a job has a task to
//     launch. Seed 002 §II.C: when a job's last wave "cannot fully
//     utilize all the slots ... the residual slots are assigned to other
//     jobs"; §III.C implements Alg. 2 as "H-PFSP comparators", plugged
//     into the Fair Scheduler's pools (§IV), which order a pool's jobs for
//     a scheduler that offers the slot to the next job in that order when
//     one has nothing to launch. Which other job §II.C does not say; the
//     first in the virtual PS is SlackConfig.Fallback's choice.
//
// and the virtual PS advances by eq. 8: by the work the real schedule did
// (each job's service, in seconds of the whole cluster, at its updates),
// shared equally by the m jobs in it.
//
// Options (docs/FIDELITY.md gives their measured effect):
//
//   - NoFallback ("fallback=none"): Algorithm 2 as printed, read
//     literally — step 3 gives the container to nobody; it stays idle
//     until the next event (issue 28's default until §II.C was read as
//     above);
//   - LateFirst ("late_first=1"): late jobs before the completable ones,
//     as FSP serves late jobs first (SlackConfig.LateFirst); seed 002
//     prints no such rule;
//   - BusyPS ("vps=busy"): the virtual PS runs at the cluster's full rate
//     (one second of the whole cluster per second while it holds a job, as
//     FSP's), whether the real cluster is busy or not; it is brought to
//     each event's time by whole virtual departures
//     (AdvanceVirtualToFront, an exact snap) and then the rest
//     (AdvanceVirtual). Seed 002's eq. 8 advances it by the work done.
//
// Before issue 28 late_first, the fallback and vps=busy were all on
// ("hpfsp:late_first=1,vps=busy" is that scheduler).
//
// Job information (Alg. 1: service received, re-estimated remaining time,
// stage progress) is updated at the job's own events (arrival, task start,
// task end, completion) and, for every job with running tasks, at each
// progress report (Alg. 1's UPDATE INTERVAL: ReportInterval, by default
// the cluster's heartbeat): there the running stages report their
// progress to the estimator (seed 002 eq. 1–2 use the progress of running
// tasks, not only finished ones), so a job's estimate follows its tasks'
// rates long before its first task ends. The reports are HPFSP's timer
// (it implements Preempter and never kills a task).
//
// Sizes come from NewEstimator (seed 002's EWMA estimator, wired by
// package pipeline) or, when it is nil, from each job's Estimate: w =
// (Estimate − Attained) / Rate, in seconds of the whole cluster.
//
// Cost: O(log n) expected per decision and per notification plus
// O(stages) per notification for the stage progress (SlackSystem's costs;
// its Next is O(log m) when the least-w runnable job is completable); a
// progress report costs O(stages + log n) per job with running tasks
// (the stage's progress is O(1) from the State, not a walk of its tasks),
// or, when those jobs are a quarter of the virtual PS or more, O(stages)
// per job and one O(m) pass (SlackSystem.UpdateAll) per stretch of the
// report in which no job leaves the virtual PS.
type HPFSP struct {
	task.Base
	// FairLimit is FAIR_LIMIT (tasks per stage in the fair phase; 0: no
	// fair phase). Threshold is getStage's progress threshold (0:
	// DefaultStageThreshold, 0.95).
	FairLimit int
	Threshold float64
	// NoFallback, LateFirst and BusyPS are the options described above
	// (all false: the default).
	NoFallback bool
	LateFirst  bool
	BusyPS     bool
	// NewEstimator, if set, builds the estimator for a run (jobs
	// numbered as in s.Jobs()).
	NewEstimator func(s *task.State) (RemainingEstimator, error)
	// ReportInterval is the time between progress reports, in seconds:
	// 0 means the cluster's heartbeat (Cluster.Heartbeat) or, when the
	// cluster has none (scheduling at events), DefaultReportInterval;
	// negative means no reports (estimates change only at the job's own
	// task starts and ends).
	ReportInterval float64

	s      *task.State
	x      SlackSystem
	est    RemainingEstimator
	ownEst bool      // est is jobEstimator: it observes nothing
	served []float64 // Attained at the job's last update
	vt     float64   // time the virtual PS was last brought to
	tasks  []int
	every  float64   // report interval (s), 0: none
	t0     float64   // reports fall at t0 + k·every
	nextAt float64   // next report
	active []int32   // jobs with running tasks
	actPos []int32   // 1 + index in active, 0: not in it
	bWork  []float64 // a report's service and estimates, by active
	bW     []float64
	// Picks counts Next's reasons (index: PickReason), for tests;
	// Reports counts the progress reports (job updates at report times).
	Picks   [5]int
	Reports int
}

// DefaultReportInterval is the progress-report interval, in seconds, when
// the cluster schedules at events (no heartbeat): Hadoop MapReduce's
// mapreduce.task.progress-report.interval (3,000 ms).
const DefaultReportInterval = 3.0

// MinReportInterval is the shortest positive ReportInterval, 1 ms, as
// cluster.MinHeartbeat: each report is an event, and 1e-300 s never ended.
const MinReportInterval = 0.001

// DefaultFairLimit is FAIR_LIMIT when the specification gives none: seed
// 002 §IV uses 2 and 5.
const DefaultFairLimit = 2

func (p *HPFSP) Name() string { return "hpfsp" }

// Spec returns the policy's specification, which ParsePolicy reads back.
func (p *HPFSP) Spec() string {
	th := p.Threshold
	if th == 0 {
		th = DefaultStageThreshold
	}
	spec := "hpfsp:fair_limit=" + strconv.Itoa(p.FairLimit) + ",threshold=" + strconv.FormatFloat(th, 'g', -1, 64)
	if p.LateFirst {
		spec += ",late_first=1"
	}
	if p.NoFallback {
		spec += ",fallback=none"
	}
	if p.BusyPS {
		spec += ",vps=busy"
	}
	switch {
	case p.ReportInterval < 0:
		spec += ",report=off"
	case p.ReportInterval > 0:
		spec += ",report=" + strconv.FormatFloat(p.ReportInterval, 'g', -1, 64)
	}
	return spec
}

// Validate checks the parameters.
func (p *HPFSP) Validate() error {
	if p.FairLimit < 0 {
		return fmt.Errorf("hpfsp: fair_limit %d is negative", p.FairLimit)
	}
	if p.Threshold != 0 && !(p.Threshold > 0 && p.Threshold <= 1) {
		return fmt.Errorf("hpfsp: threshold %v is not in (0, 1] (or 0: the default, %v)", p.Threshold, DefaultStageThreshold)
	}
	if math.IsNaN(p.ReportInterval) || math.IsInf(p.ReportInterval, 0) {
		return fmt.Errorf("hpfsp: report interval %v is not a finite number of seconds", p.ReportInterval)
	}
	if p.ReportInterval > 0 && p.ReportInterval < MinReportInterval {
		return fmt.Errorf("hpfsp: report interval %v s is below %g s (every report is an event)", p.ReportInterval, MinReportInterval)
	}
	return nil
}

func (p *HPFSP) Start(s *task.State) error {
	if err := p.Validate(); err != nil {
		return err
	}
	n := len(s.Jobs())
	if err := p.x.Reset(SlackConfig{FairLimit: p.FairLimit, StageThreshold: p.Threshold, LateFirst: p.LateFirst, Fallback: !p.NoFallback}, n); err != nil {
		return err
	}
	p.s, p.vt, p.Picks, p.Reports = s, s.Now(), [5]int{}, 0
	p.served = slices.Grow(p.served[:0], n)[:n]
	p.active = p.active[:0]
	p.actPos = slices.Grow(p.actPos[:0], n)[:n]
	clear(p.actPos)
	p.every = p.ReportInterval
	if p.every == 0 {
		p.every = DefaultReportInterval
		if hb := s.Cluster().Heartbeat; hb > 0 {
			p.every = hb
		}
	}
	p.every = max(p.every, 0)
	p.t0, p.nextAt = s.Now(), s.Now()
	p.est, p.ownEst = jobEstimator{s}, p.NewEstimator == nil
	if p.NewEstimator != nil {
		e, err := p.NewEstimator(s)
		if err != nil {
			return fmt.Errorf("hpfsp: estimator: %v", err)
		}
		p.est = e
	}
	return nil
}

func (p *HPFSP) must(err error) {
	if err != nil {
		panic(fmt.Sprintf("hpfsp at t=%v: %v", p.s.Now(), err))
	}
}

// advance brings the virtual PS to now when it runs at the cluster's full
// rate (BusyPS); under eq. 8 it moves only with service (advanceServed).
func (p *HPFSP) advance() {
	now := p.s.Now()
	work := now - p.vt
	p.vt = now
	if p.BusyPS {
		p.advanceBy(work)
	}
}

// advanceBy runs the virtual PS for work seconds of the whole cluster:
// whole departures by the exact snap, then the rest.
func (p *HPFSP) advanceBy(work float64) {
	for work > 0 && p.x.Len() > 0 {
		if nw := p.x.NextVirtualWork(); work >= nw {
			work -= p.x.AdvanceVirtualToFront()
			continue
		}
		p.must(p.x.AdvanceVirtual(work))
		return
	}
}

// service returns job j's service since its last update, in seconds of
// the whole cluster (eq. 10's Δt̂: container-seconds over the cluster's
// rate), and marks it counted.
func (p *HPFSP) service(j int) float64 {
	a := p.s.Attained(j)
	if a <= p.served[j] {
		return 0
	}
	work := (a - p.served[j]) / p.s.Rate()
	p.served[j] = a
	return work
}

// advanceServed runs the virtual PS for work (eq. 8), unless it runs at the
// cluster's full rate (BusyPS).
func (p *HPFSP) advanceServed(work float64) {
	if !p.BusyPS {
		p.advanceBy(work)
	}
}

// remaining is the estimator's w of job j, or the job's own estimate's
// when the estimator gives no finite non-negative number.
func (p *HPFSP) remaining(j int) float64 {
	w := p.est.Remaining(j)
	if !(w >= 0) || math.IsInf(w, 0) {
		w = jobEstimator{p.s}.Remaining(j)
	}
	return w
}

// update is Alg. 1 for job j: its service since its last update, its new
// remaining-time estimate, its stages' progress and whether it can launch.
func (p *HPFSP) update(j int) {
	p.apply(j, p.service(j), p.remaining(j))
	p.progress(j)
}

// apply gives job j work of service (eq. 7–9) and re-estimates its
// remaining time to w (eq. 11–13): in one descent when it can
// (UpdateInPlace).
func (p *HPFSP) apply(j int, work, w float64) {
	done, err := p.x.UpdateInPlace(j, work, w, !p.BusyPS)
	p.must(err)
	if !done {
		if work > 0 {
			p.must(p.x.Serve(j, work)) // eq. 7 and 9
			p.advanceServed(work)
		}
		p.must(p.x.Reestimate(j, w))
	}
}

// progress gives the slack system job j's stage progress and whether it
// can launch. The stages after the first below the threshold do not
// change the current stage (Alg. 3's getStage), so their progress is not
// asked for.
func (p *HPFSP) progress(j int) {
	s := p.s
	for st := range s.Stages(j) {
		pr := p.est.StageProgress(j, st)
		if !(pr >= 0) {
			pr = 0
		}
		p.must(p.x.SetStageProgress(j, st, min(pr, 1)))
		if pr < p.x.cfg.StageThreshold {
			break
		}
	}
	p.must(p.x.SetRunnable(j, s.Ready(j) > 0))
}

func (p *HPFSP) Arrive(j int) {
	p.advance()
	job := &p.s.Jobs()[j]
	p.tasks = p.tasks[:0]
	for st := range job.Stages {
		p.tasks = append(p.tasks, len(job.Stages[st].Tasks))
	}
	stages := max(len(job.Stages), 1)
	if len(p.tasks) > 0 {
		p.must(p.est.AddJob(j, p.tasks))
	}
	p.served[j] = 0
	p.must(p.x.AddJob(j, p.remaining(j), stages))
}

func (p *HPFSP) Released(j, _ int) {
	p.advance()
	p.must(p.x.SetRunnable(j, p.s.Ready(j) > 0))
}

func (p *HPFSP) Started(t task.TaskRef) {
	p.advance()
	p.must(p.x.TaskScheduled(t.Job, t.Stage))
	p.must(p.est.TaskStarted(t.Job, t.Stage, t.Task, p.s.Now()))
	p.observe(t.Job, t.Stage)
	p.setActive(t.Job)
	p.update(t.Job)
}

func (p *HPFSP) Ended(t task.TaskRef) {
	p.advance()
	p.must(p.est.TaskFinished(t.Job, t.Stage, t.Task, p.s.Now()))
	p.observe(t.Job, t.Stage)
	p.setActive(t.Job)
	// Under eq. 8 a job's last task is left to Done, which finishes it
	// before its service advances the virtual PS: that service would
	// otherwise run it out of the virtual PS (late) as it finishes.
	if !p.s.Done(t.Job) && (p.BusyPS || p.s.RemainingContainers(t.Job) > 0) {
		p.update(t.Job)
	}
}

// observe reports a stage's progress to the estimator (jobEstimator
// observes nothing).
func (p *HPFSP) observe(j, st int) {
	if p.ownEst {
		return
	}
	p.must(p.est.ObserveStage(j, st, p.s.StageProgress(j, st), p.s.Now()))
}

// setActive keeps job j in the set of jobs with running tasks iff it has
// some. O(1).
func (p *HPFSP) setActive(j int) {
	in, run := p.actPos[j] != 0, p.s.Running(j) > 0
	switch {
	case run && !in:
		p.active = append(p.active, int32(j))
		p.actPos[j] = int32(len(p.active))
	case !run && in:
		k := p.actPos[j] - 1
		last := p.active[len(p.active)-1]
		p.active[k] = last
		p.actPos[last] = k + 1
		p.active = p.active[:len(p.active)-1]
		p.actPos[j] = 0
	}
}

// NextPreempt is the time of the next progress report (+Inf when no task
// runs or reports are off): the first multiple of the interval from the
// run's start after now. HPFSP never preempts; the engine's preemption
// timer is its Alg. 1 update timer.
func (p *HPFSP) NextPreempt() float64 {
	if p.every <= 0 || len(p.active) == 0 {
		return math.Inf(1)
	}
	if now := p.s.Now(); p.nextAt <= now {
		p.nextAt = p.t0 + (math.Floor((now-p.t0)/p.every)+1)*p.every
		if p.nextAt <= now { // rounding at large times
			p.nextAt = math.Nextafter(now, math.Inf(1))
		}
	}
	return p.nextAt
}

// Preempt is a progress report (Alg. 1): every job with running tasks
// reports its running stages' progress, and its service, estimate and
// stage progress are brought up to date in the slack system. It kills
// nothing.
func (p *HPFSP) Preempt(func(task.TaskRef) error) {
	if len(p.active) == 0 {
		return
	}
	p.advance()
	p.bWork, p.bW = p.bWork[:0], p.bW[:0]
	for _, j32 := range p.active {
		j := int(j32)
		for st := 0; !p.ownEst && st < p.s.Stages(j); st++ {
			if p.s.StageRunning(j, st) > 0 {
				p.observe(j, st)
			}
		}
		p.bWork = append(p.bWork, p.service(j))
		p.bW = append(p.bW, p.remaining(j))
		p.Reports++
	}
	// The slack system does not feed the estimator: its updates may come
	// after every job has reported, all at once when they are many.
	// UpdateAll stops before an update in which a job leaves the virtual
	// PS; that one is made alone, and UpdateAll tried again (a few times:
	// each try reads the whole virtual PS).
	i := 0
	for try := 0; try < 4 && i < len(p.active); try++ {
		n, err := p.x.UpdateAll(p.active[i:], p.bWork[i:], p.bW[i:], !p.BusyPS)
		p.must(err)
		if n == 0 {
			break
		}
		if i += n; i < len(p.active) {
			p.apply(int(p.active[i]), p.bWork[i], p.bW[i])
			i++
		}
	}
	for ; i < len(p.active); i++ {
		p.apply(int(p.active[i]), p.bWork[i], p.bW[i])
	}
	for _, j32 := range p.active {
		p.progress(int(j32))
	}
}

func (p *HPFSP) Done(j int) {
	p.advance()
	work := p.service(j)
	p.must(p.x.Finish(j))
	p.advanceServed(work) // the last tasks' service advances the virtual PS too
	p.est.RemoveJob(j)
}

func (p *HPFSP) Pick(task.Node) (int, int) {
	p.advance()
	j, why := p.x.Next()
	p.Picks[why]++
	return j, -1
}

// jobEstimator is HPFSP's fallback estimator: the job's Estimate less its
// attained work, over the cluster's rate; the State's stage progress.
type jobEstimator struct{ s *task.State }

func (jobEstimator) AddJob(int, []int) error                       { return nil }
func (jobEstimator) TaskStarted(int, int, int, float64) error      { return nil }
func (jobEstimator) TaskFinished(int, int, int, float64) error     { return nil }
func (jobEstimator) ObserveStage(int, int, float64, float64) error { return nil }
func (jobEstimator) RemoveJob(int)                                 {}
func (e jobEstimator) StageProgress(j, st int) float64             { return e.s.StageProgress(j, st) }
func (e jobEstimator) Remaining(j int) float64 {
	return max(e.s.Estimate(j)-e.s.Attained(j), 0) / e.s.Rate()
}

func makeHPFSP(_ string, params map[string]string) (task.Policy, error) {
	p := &HPFSP{FairLimit: DefaultFairLimit}
	for k, v := range params {
		var err error
		switch k {
		case "fair_limit":
			p.FairLimit, err = strconv.Atoi(v)
		case "threshold":
			p.Threshold, err = strconv.ParseFloat(v, 64)
		case "late_first":
			p.LateFirst, err = strconv.ParseBool(v)
		case "fallback":
			p.NoFallback, err = task.OneOf(v, "ps", "none")
		case "vps":
			p.BusyPS, err = task.OneOf(v, "work", "busy")
		case "report":
			if v == "off" {
				p.ReportInterval = -1
			} else if p.ReportInterval, err = strconv.ParseFloat(v, 64); err == nil && !(p.ReportInterval >= 0) {
				err = fmt.Errorf("want a number of seconds ≥ 0 (0: the cluster's heartbeat) or off")
			}
		default:
			return nil, fmt.Errorf("hpfsp: unknown parameter %q (known: fair_limit, threshold, late_first, fallback, vps, report)", k)
		}
		if err != nil {
			return nil, fmt.Errorf("hpfsp: parameter %s=%q: %v", k, v, err)
		}
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return p, nil
}
