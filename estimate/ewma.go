package estimate

import (
	"fmt"
	"math"
)

// ProgressConfig parameterises a [ProgressEstimator].
type ProgressConfig struct {
	// Alpha is the weight of the previous average in seed 002's EWMA
	// (eq. 2: Avg ← α·Avg + (1−α)·sample), in [0, 1). The paper gives no
	// value; 0 means DefaultAlpha. Use NoSmoothing for α = 0 (each sample
	// replaces the average).
	Alpha float64
	// MinDelta is the least increase of a stage's progress, as a fraction of
	// the stage's tasks, that makes an EWMA sample: seed 002 does "not
	// update the estimates if ΔP is too small, e.g., less than 0.02". In
	// [0, 1]; 0 means DefaultMinDelta.
	MinDelta float64
	// MinRemaining is w_min of eq. 5: the least remaining-time estimate of a
	// job that has not finished, in the units of Remaining (≥ 0).
	MinRemaining float64
	// Slots is N(S) of eq. 3–4 per stage: a stage's average task time is
	// divided by it, so that Remaining is in seconds of the whole cluster
	// taken as one processor. Nil means 1 per stage: Remaining is then in
	// task-seconds (container-seconds). Stages beyond its length use 1.
	Slots []float64
	// Default is the average task time per stage (seconds) that eq. 18
	// uses for a job without samples as long as no job has finished (after
	// that, the mean task time of the finished jobs' tasks). Stages beyond
	// its length default to 0.
	Default []float64
}

// Defaults of ProgressConfig.
const (
	// DefaultAlpha weights the last 1/(1−α) = 5 samples or so; seed 002
	// gives no value (a tuning parameter).
	DefaultAlpha = 0.8
	// DefaultMinDelta is seed 002's example threshold (§II.B).
	DefaultMinDelta = 0.02
	// NoSmoothing as ProgressConfig.Alpha asks for α = 0.
	NoSmoothing = -1
)

// ProgressEstimator estimates, online, the average task time of each stage
// of each running job and the job's remaining time from its tasks' progress,
// as the H-PFSP scheduler of seed 002 does (§II.B, eq. 1–5, and eq. 18 for a
// new job). It knows nothing of the jobs' sizes: it is the online
// alternative to the offline error models ([ErrorModel]), usable by any
// size-based task-level policy (SRPT, FSP, H-PFSP, LAS_MQ's stage
// awareness). A job is a sequence of stages (map, reduce, …) of tasks; jobs
// and tasks are numbered densely (job in [0, n), task in [0, tasks of the
// stage)). Progress reports come at heartbeats.
//
// # Reading of seed 002
//
// Eq. 1–2 as printed (ΔP = P̃ − P, Avg ← α·Avg + (1−α)·Δt/ΔP, "Δt/ΔP is
// the average time of a Map task") only give a task time when ΔP counts
// progress in tasks and Δt the busy time of the tasks that made it: with P
// the stage's progress fraction (Hadoop's mapProgress) and Δt wall time,
// Δt/ΔP would be the whole stage's time at the current parallelism. So a
// sample here is the ratio
//
//	sample = Σ busy seconds / Σ progress (in tasks)
//
// summed over the stage's task reports since the last sample: a task
// reported at progress p then p' (t then t') adds t'−t seconds and p'−p
// tasks; a task's finish adds its last piece (to progress 1). A sample is
// taken once the summed progress reaches MinDelta × the stage's tasks (the
// paper's "ΔP too small" rule), so the EWMA steps with progress, not with
// the heartbeat rate. With tasks of equal duration d and progress linear in
// time every sample is exactly d. Over whole tasks the ratio is the mean
// task duration; within a window, concurrent tasks weigh by time, so with
// unequal durations a sample leans to the harmonic mean (a relative bias of
// about the squared coefficient of variation of the task times).
//
// A stage may instead report as a whole ([ProgressEstimator.ObserveStage]:
// its progress, as Hadoop reports a job's map and reduce progress, at
// heartbeats and after its task starts and ends): the busy seconds are
// then the running tasks counted from the starts and finishes, integrated
// over time, and a sample is the same ratio, at O(1) per report instead of
// O(running tasks) per heartbeat.
//
// The EWMA starts from the first sample, not from the default: the k-th
// sample of a stage is weighted 1 − min(α, (k−1)/k), so the first replaces
// the default, the first 1/(1−α) are averaged evenly and later ones follow
// eq. 2. (Blending the first sample into a default would keep the error of
// the default for many samples; the paper does not say how the EWMA
// starts.)
//
// Finished tasks enter the samples through their last piece of progress.
// Seed 002 also says a later stage's tasks cannot be timed while the stage
// before it runs (a reduce task waits in the shuffle until every map task
// has finished), "thereby, we can only use the average execution times of
// the Map tasks as estimates instead before the Map phase has completely
// finished": a stage's reports make no sample until the stage before it
// has finished all its tasks (each running task's next report after that
// only sets its baseline), and a stage without samples of its own uses the
// nearest earlier stage of the same job that has some. A stage with no
// such stage uses the default of eq. 18: the mean duration of the tasks of
// that stage over the jobs finished so far (RemoveJob), or
// ProgressConfig.Default before any has finished.
//
// Remaining is eq. 5, w = max{w_min, Σ_stages N(T)·(1−P)·Avg/N(S)}, with
// P the stage's progress: (finished tasks + Σ last reported progress of the
// running ones) / N(T). For a job without samples it is eq. 18 (P = 0,
// default averages), except that eq. 18 floors at 0 and eq. 5 at w_min.
//
// Complexity: every call is O(1) (amortised over the slice growth of
// AddJob); Remaining is O(stages). Memory is O(n) plus 32 bytes per task
// of each stage that has started, freed by RemoveJob. Not safe for
// concurrent use.
type ProgressEstimator struct {
	alpha, minDelta, minRem float64
	slots, def              []float64
	jobs                    []*jobProgress
	// pool holds, per stage, the summed durations and count of the
	// finished tasks of the jobs removed so far (eq. 18's default).
	poolSum []float64
	poolN   []float64
}

type jobProgress struct {
	stages []stageProgress
}

type stageProgress struct {
	n        int          // tasks of the stage
	finished int          // finished tasks
	done     float64      // finished + Σ last progress of running tasks (tasks)
	tasks    []taskReport // allocated when the stage's first task reports
	pendP    float64      // progress since the last sample (tasks)
	pendT    float64      // busy seconds since the last sample
	samples  int
	avg      float64 // EWMA of the samples (seconds per task), valid if samples > 0
	durSum   float64 // summed durations of finished tasks with a known start
	durN     float64
	// Stage-level reports (ObserveStage): running tasks, their busy
	// seconds integrated up to busyT, and the busy seconds and progress
	// (tasks) at the last report.
	agg          bool
	waited       bool // a report came while the stage before ran
	running      int
	busy, busyT  float64
	lastB, lastD float64
}

type taskReport struct {
	start, lastT, lastP float64
	state               uint8
}

// Task states.
const (
	taskIdle     = iota // not started (or restarted and not yet reported)
	taskRunning         // lastT, lastP are a baseline
	taskRebase          // running; the next report only sets the baseline
	taskFinished        // finished
	// noStart marks a task whose start time is unknown (first seen with
	// progress > 0): its duration does not feed the default pool.
	noStart = 1 << 7
)

// NewProgressEstimator returns an estimator for jobs numbered 0..n−1.
func NewProgressEstimator(cfg ProgressConfig, n int) (*ProgressEstimator, error) {
	e := &ProgressEstimator{}
	if err := e.Reset(cfg, n); err != nil {
		return nil, err
	}
	return e, nil
}

// Reset forgets every job and the default pool and sets a new
// configuration for jobs numbered 0..n−1, reusing the estimator's memory.
func (e *ProgressEstimator) Reset(cfg ProgressConfig, n int) error {
	if n < 0 {
		return fmt.Errorf("progress estimator: %d jobs", n)
	}
	a := cfg.Alpha
	switch {
	case a == 0:
		a = DefaultAlpha
	case a == NoSmoothing:
		a = 0
	case !(a > 0 && a < 1):
		return fmt.Errorf("progress estimator: alpha %v is not in [0, 1)", cfg.Alpha)
	}
	d := cfg.MinDelta
	if d == 0 {
		d = DefaultMinDelta
	}
	if !(d > 0 && d <= 1) {
		return fmt.Errorf("progress estimator: min delta %v is not in [0, 1]", cfg.MinDelta)
	}
	if !(cfg.MinRemaining >= 0) || math.IsInf(cfg.MinRemaining, 0) {
		return fmt.Errorf("progress estimator: min remaining %v is not a finite non-negative number", cfg.MinRemaining)
	}
	for s, v := range cfg.Slots {
		if !(v > 0) || math.IsInf(v, 0) {
			return fmt.Errorf("progress estimator: stage %d: slots %v is not a finite positive number", s, v)
		}
	}
	for s, v := range cfg.Default {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("progress estimator: stage %d: default task time %v is not a finite non-negative number", s, v)
		}
	}
	e.alpha, e.minDelta, e.minRem = a, d, cfg.MinRemaining
	e.slots = append(e.slots[:0], cfg.Slots...)
	e.def = append(e.def[:0], cfg.Default...)
	e.poolSum, e.poolN = e.poolSum[:0], e.poolN[:0]
	if cap(e.jobs) < n {
		e.jobs = make([]*jobProgress, n)
	}
	e.jobs = e.jobs[:n]
	clear(e.jobs)
	return nil
}

// AddJob registers job with tasks[s] tasks in stage s (its stages in
// order). The job's estimates are eq. 18's defaults until its tasks report.
func (e *ProgressEstimator) AddJob(job int, tasks []int) error {
	if job < 0 || job >= len(e.jobs) {
		return fmt.Errorf("progress estimator: job %d is not in 0..%d", job, len(e.jobs)-1)
	}
	if e.jobs[job] != nil {
		return fmt.Errorf("progress estimator: job %d added twice", job)
	}
	if len(tasks) == 0 {
		return fmt.Errorf("progress estimator: job %d has no stage", job)
	}
	j := &jobProgress{stages: make([]stageProgress, len(tasks))}
	for s, n := range tasks {
		if n < 0 {
			return fmt.Errorf("progress estimator: job %d: stage %d has %d tasks", job, s, n)
		}
		j.stages[s].n = n
	}
	e.jobs[job] = j
	return nil
}

// RemoveJob forgets a job that has finished (or left): the durations of its
// finished tasks join the default pool of eq. 18.
func (e *ProgressEstimator) RemoveJob(job int) {
	if job < 0 || job >= len(e.jobs) || e.jobs[job] == nil {
		return
	}
	for s := range e.jobs[job].stages {
		st := &e.jobs[job].stages[s]
		if st.durN == 0 {
			continue
		}
		for len(e.poolN) <= s {
			e.poolSum, e.poolN = append(e.poolSum, 0), append(e.poolN, 0)
		}
		e.poolSum[s] += st.durSum
		e.poolN[s] += st.durN
	}
	e.jobs[job] = nil
}

// task returns the report slot of a task, allocating the stage's slots.
func (e *ProgressEstimator) task(job, stage, task int) (*stageProgress, *taskReport, error) {
	if job < 0 || job >= len(e.jobs) || e.jobs[job] == nil {
		return nil, nil, fmt.Errorf("progress estimator: job %d is not registered", job)
	}
	j := e.jobs[job]
	if stage < 0 || stage >= len(j.stages) {
		return nil, nil, fmt.Errorf("progress estimator: job %d: stage %d is not in 0..%d", job, stage, len(j.stages)-1)
	}
	st := &j.stages[stage]
	if task < 0 || task >= st.n {
		return nil, nil, fmt.Errorf("progress estimator: job %d stage %d: task %d is not in 0..%d", job, stage, task, st.n-1)
	}
	if st.tasks == nil {
		st.tasks = make([]taskReport, st.n)
	}
	return st, &st.tasks[task], nil
}

func checkTime(what string, job, stage, task int, now float64) error {
	if math.IsNaN(now) || math.IsInf(now, 0) {
		return fmt.Errorf("progress estimator: job %d stage %d task %d: %s time %v is not finite", job, stage, task, what, now)
	}
	return nil
}

// integrate brings the stage's busy seconds (running tasks × time) to
// now.
func (st *stageProgress) integrate(now float64) {
	if now > st.busyT {
		st.busy += float64(st.running) * (now - st.busyT)
		st.busyT = now
	}
}

// ObserveStage records a stage-level progress report: the stage's
// progress (Hadoop's mapProgress or reduceProgress: the mean over its
// tasks of their done fraction, in [0, 1]) at time now. It is the cheap
// alternative to a report per running task (ObserveProgress) that seed
// 002 eq. 1–2 read literally: between two reports the stage's tasks made
// ΔP × N(T) tasks of progress in the busy seconds of its running tasks
// (counted from TaskStarted and TaskFinished and integrated over time), and
// a sample is their ratio, taken as with per-task reports once the summed
// progress reaches MinDelta × the stage's tasks. With every running task
// at a constant rate and all of equal duration d, every sample is exactly
// d (with unequal durations, the harmonic mean of the running ones).
//
// Once a stage has a stage-level report, its progress P (eq. 5) is the
// last reported one (at least its finished tasks) and per-task reports
// other than starts are refused: the caller reports the stage after each
// of its task starts and finishes, and at heartbeats. As with per-task
// reports, a stage makes no sample while the stage before it runs, and its
// first report after that (or after a fall of progress: a restart) only
// sets the baseline. Reports must not go back in time. O(1).
func (e *ProgressEstimator) ObserveStage(job, stage int, progress, now float64) error {
	if job < 0 || job >= len(e.jobs) || e.jobs[job] == nil {
		return fmt.Errorf("progress estimator: job %d is not registered", job)
	}
	j := e.jobs[job]
	if stage < 0 || stage >= len(j.stages) {
		return fmt.Errorf("progress estimator: job %d: stage %d is not in 0..%d", job, stage, len(j.stages)-1)
	}
	if math.IsNaN(now) || math.IsInf(now, 0) {
		return fmt.Errorf("progress estimator: job %d stage %d: report time %v is not finite", job, stage, now)
	}
	if !(progress >= 0 && progress <= 1) {
		return fmt.Errorf("progress estimator: job %d stage %d: progress %v is not in [0, 1]", job, stage, progress)
	}
	st := &j.stages[stage]
	if st.agg && now < st.busyT {
		return fmt.Errorf("progress estimator: job %d stage %d: report at %v before the previous one at %v", job, stage, now, st.busyT)
	}
	st.integrate(now)
	d := progress * float64(st.n)
	first := !st.agg
	st.agg = true
	st.done = max(d, float64(st.finished))
	switch {
	case !e.prevDone(job, stage):
		st.waited = true
		st.pendP, st.pendT = 0, 0
	case first || st.waited || d < st.lastD:
		st.waited = false
		st.pendP, st.pendT = 0, 0
	default:
		e.addPiece(st, d-st.lastD, st.busy-st.lastB)
	}
	st.lastB, st.lastD = st.busy, d
	return nil
}

// TaskStarted records that a task starts (or restarts) at now; it is
// ObserveProgress with progress 0, and gives the task a known start.
func (e *ProgressEstimator) TaskStarted(job, stage, task int, now float64) error {
	return e.ObserveProgress(job, stage, task, 0, now)
}

// ObserveProgress records a task's progress (fraction done, in [0, 1]) at
// time now (seconds). A task's first report sets its baseline (progress 0
// gives it a known start); a report below the previous one is a restart
// (the lost progress is taken back, no sample); reports must not go back
// in time. A finished task restarts only through a progress-0 report.
func (e *ProgressEstimator) ObserveProgress(job, stage, task int, progress, now float64) error {
	st, tk, err := e.task(job, stage, task)
	if err != nil {
		return err
	}
	if err := checkTime("report", job, stage, task, now); err != nil {
		return err
	}
	if !(progress >= 0 && progress <= 1) {
		return fmt.Errorf("progress estimator: job %d stage %d task %d: progress %v is not in [0, 1]", job, stage, task, progress)
	}
	if st.agg && progress != 0 {
		return fmt.Errorf("progress estimator: job %d stage %d task %d: the stage reports by ObserveStage; per-task progress %v refused", job, stage, task, progress)
	}
	state := tk.state &^ noStart
	st.integrate(now)
	if state == taskIdle || state == taskFinished {
		st.running++
	}
	if state == taskFinished {
		if progress != 0 {
			return fmt.Errorf("progress estimator: job %d stage %d task %d: progress %v reported after the task finished", job, stage, task, progress)
		}
		// A re-execution (lost output): the task runs again from 0.
		st.finished--
	}
	if state != taskIdle && state != taskFinished && now < tk.lastT {
		return fmt.Errorf("progress estimator: job %d stage %d task %d: report at %v before the previous one at %v", job, stage, task, now, tk.lastT)
	}
	st.done += progress - tk.lastP // lastP is 0 for a task never seen
	known := tk.state & noStart
	switch {
	case state == taskIdle || state == taskFinished || progress < tk.lastP:
		// A (re)start or a first sight: a new baseline, no sample. The
		// start is known only from a report at progress 0.
		known = 0
		if progress > 0 {
			known = noStart
		}
		*tk = taskReport{start: now, lastT: now, lastP: progress, state: taskRunning | known}
		if !e.prevDone(job, stage) {
			tk.state = taskRebase | known
		}
	case state == taskRebase:
		// Waiting on the stage before: a baseline only, and a sampling
		// one once that stage has finished.
		tk.lastT, tk.lastP = now, progress
		if e.prevDone(job, stage) {
			tk.state = taskRunning | known
		}
	default:
		if !st.agg {
			e.addPiece(st, progress-tk.lastP, now-tk.lastT)
		}
		tk.lastT, tk.lastP = now, progress
	}
	return nil
}

// TaskFinished records that a task finished at now (its last piece of
// progress, to 1, makes part of a sample). Its duration (now − start)
// joins the default pool when the job is removed, if its start is known.
func (e *ProgressEstimator) TaskFinished(job, stage, task int, now float64) error {
	st, tk, err := e.task(job, stage, task)
	if err != nil {
		return err
	}
	if err := checkTime("finish", job, stage, task, now); err != nil {
		return err
	}
	state := tk.state &^ noStart
	switch {
	case state == taskFinished:
		return fmt.Errorf("progress estimator: job %d stage %d task %d finished twice", job, stage, task)
	case state == taskIdle:
		return fmt.Errorf("progress estimator: job %d stage %d task %d finished without being started", job, stage, task)
	case now < tk.lastT:
		return fmt.Errorf("progress estimator: job %d stage %d task %d: finish at %v before its report at %v", job, stage, task, now, tk.lastT)
	}
	st.integrate(now)
	st.running--
	if st.agg {
		// The stage's next report brings the progress; P counts this
		// task as done at least.
		st.done = max(st.done, float64(st.finished+1))
	} else {
		st.done += 1 - tk.lastP
		if state == taskRunning {
			e.addPiece(st, 1-tk.lastP, now-tk.lastT)
		}
	}
	if tk.state&noStart == 0 {
		st.durSum += now - tk.start
		st.durN++
	}
	tk.lastT, tk.lastP, tk.state = now, 1, taskFinished
	st.finished++
	if st.finished == st.n {
		e.stageFinished(job, stage)
	}
	return nil
}

// stageFinished makes the running tasks of the next stage rebase: their
// time so far includes the wait for this stage.
func (e *ProgressEstimator) stageFinished(job, stage int) {
	j := e.jobs[job]
	if stage+1 >= len(j.stages) {
		return
	}
	next := &j.stages[stage+1]
	next.pendP, next.pendT = 0, 0
	for k := range next.tasks {
		if next.tasks[k].state&^noStart == taskRunning {
			next.tasks[k].state = taskRebase | (next.tasks[k].state & noStart)
		}
	}
}

// prevDone reports whether every stage before stage has finished.
func (e *ProgressEstimator) prevDone(job, stage int) bool {
	if stage == 0 {
		return true
	}
	p := &e.jobs[job].stages[stage-1]
	return p.finished == p.n
}

// addPiece adds dp tasks of progress made in dt busy seconds to the
// stage's window and takes a sample when the window is large enough.
func (e *ProgressEstimator) addPiece(st *stageProgress, dp, dt float64) {
	st.pendP += dp
	st.pendT += dt
	if st.pendP < e.minDelta*float64(st.n) || st.pendP <= 0 {
		return
	}
	sample := st.pendT / st.pendP
	st.pendP, st.pendT = 0, 0
	st.samples++
	a := min(e.alpha, float64(st.samples-1)/float64(st.samples))
	if st.samples == 1 {
		st.avg = sample
		return
	}
	st.avg = a*st.avg + (1-a)*sample
}

// DefaultTaskTime is eq. 18's default average task time of a stage
// (seconds, not normalised by the slots): the mean duration of the tasks
// of that stage of the jobs removed so far, or ProgressConfig.Default
// before any.
func (e *ProgressEstimator) DefaultTaskTime(stage int) float64 {
	if stage < len(e.poolN) && e.poolN[stage] > 0 {
		return e.poolSum[stage] / e.poolN[stage]
	}
	if stage >= 0 && stage < len(e.def) {
		return e.def[stage]
	}
	return 0
}

// TaskTime returns the estimated average task time of a job's stage
// (seconds, not normalised): the stage's EWMA if it has a sample, else the
// nearest earlier stage's, else the default. NaN for an unknown job or
// stage.
func (e *ProgressEstimator) TaskTime(job, stage int) float64 {
	if job < 0 || job >= len(e.jobs) || e.jobs[job] == nil || stage < 0 || stage >= len(e.jobs[job].stages) {
		return math.NaN()
	}
	st := e.jobs[job].stages
	for s := stage; s >= 0; s-- {
		if st[s].samples > 0 {
			return st[s].avg
		}
	}
	return e.DefaultTaskTime(stage)
}

// Samples returns how many EWMA samples a job's stage has taken.
func (e *ProgressEstimator) Samples(job, stage int) int {
	if job < 0 || job >= len(e.jobs) || e.jobs[job] == nil || stage < 0 || stage >= len(e.jobs[job].stages) {
		return 0
	}
	return e.jobs[job].stages[stage].samples
}

// StageProgress returns the progress P of a job's stage (eq. 5): finished
// tasks plus the running tasks' last reported progress, over the stage's
// tasks; 1 for a stage without tasks, NaN for an unknown job or stage.
// Seed 002's getStage (Alg. 3) reads the map stage's.
func (e *ProgressEstimator) StageProgress(job, stage int) float64 {
	if job < 0 || job >= len(e.jobs) || e.jobs[job] == nil || stage < 0 || stage >= len(e.jobs[job].stages) {
		return math.NaN()
	}
	st := &e.jobs[job].stages[stage]
	if st.n == 0 {
		return 1
	}
	return min(max(st.done/float64(st.n), 0), 1)
}

// Remaining returns a job's estimated remaining time (eq. 5, eq. 18 before
// any sample): Σ over stages of remaining tasks × average task time /
// slots, at least MinRemaining. It is 0 once every task has finished, NaN
// for an unknown job.
//
// It walks the stages once, carrying the nearest earlier stage's average
// as TaskTime would find it (the same values, bit for bit), and uses the
// builtin min and max, inlined, which give math.Min's and math.Max's bits
// (NaN and ±0 included) when one argument is finite, as here (0 and
// MinRemaining; they differ only on NaN against an infinity).
func (e *ProgressEstimator) Remaining(job int) float64 {
	if job < 0 || job >= len(e.jobs) || e.jobs[job] == nil {
		return math.NaN()
	}
	w, all := 0.0, true
	avg, sampled := 0.0, false // the nearest stage ≤ s with samples
	for s := range e.jobs[job].stages {
		st := &e.jobs[job].stages[s]
		if st.finished < st.n {
			all = false
		}
		if st.samples > 0 {
			avg, sampled = st.avg, true
		}
		left := max(float64(st.n)-st.done, 0)
		if left == 0 {
			continue
		}
		slots := 1.0
		if s < len(e.slots) {
			slots = e.slots[s]
		}
		t := avg
		if !sampled {
			t = e.DefaultTaskTime(s)
		}
		w += left * t / slots
	}
	if all {
		return 0
	}
	return max(w, e.minRem)
}
