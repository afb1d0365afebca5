package validation

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/report"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// TaskValidation is the task-level view of the validation window: the
// emitted YARN files loaded back and simulated with package cluster/task
// on the cluster spec's machines, beside FIFO, the current scheduler and
// the tuned LAS_MQ. Sizes and bounds are in container-seconds of work, the
// LAS_MQ thresholds in held container-seconds (HeldPerUnit);
// the bounds are the fluid ones at the cluster's total rate (RateCS), which
// are lower bounds for the task level (no task granularity, no stage
// barrier, no container fragmentation in the fluid server). The rows'
// slowdowns divide each response by the job's time alone on the empty
// cluster (task.FluidAlone: a bounded slowdown), and their missed
// deadlines count completions later than under the current scheduler
// beyond a tolerance (TaskLevel.ReferenceDeadlines), not after the fluid
// PS of Bounds.
type TaskValidation struct {
	Rows []ValidationRow `json:"rows"`
	// Bounds are the fluid bounds of the window's task jobs at RateCS.
	Bounds *experiment.Bounds `json:"bounds"`
	// RateCS is the cluster's total rate, container-seconds per second;
	// Machines and Containers count the spec's machines and containers.
	RateCS     float64 `json:"rate_container_seconds_per_s"`
	Machines   int     `json:"machines"`
	Containers int     `json:"containers"`
	Tasks      int     `json:"tasks"`
	// OfferedLoad is the window's load on the cluster (TaskLoadDef; null
	// when undefined); each row states the load it ran at.
	OfferedLoad *float64 `json:"offered_load"`
	// Terms decomposes OfferedLoad: the window's plain load and the
	// execution-time model's terms (TaskLoadModel); absent when they are
	// undefined (LoadModel.Defined: a window of one job has no span).
	Terms *tasklevel.LoadModel `json:"load_terms,omitempty"`
	// Current names what the current scheduler is at task level.
	Current string `json:"current"`
	// Improvement is 1 − tuned/current mean response (task-level LAS_MQ
	// against the current scheduler).
	Improvement float64 `json:"improvement_over_current"`
	Improved    bool    `json:"improved"`
	Note        string  `json:"note"`
}

// TaskBoundsNote says how the two views relate.
const TaskBoundsNote = "task level: jobs as map/reduce tasks on the cluster spec's containers (sizes in container-seconds of work, LAS_MQ thresholds in held container-seconds: containers × seconds held); the fluid bounds at the cluster's total rate are lower bounds for the task level; " + tasklevel.TaskMetricsNote

// Task-level validation row names.
const (
	TaskTunedName   = "tuned las_mq (task)"
	TaskCurrentName = "current"
	// TaskEmittedCapacityName starts the names of the rows that load the
	// emitted capacity-scheduler.xml back (EmittedVerdict).
	TaskEmittedCapacityName = "emitted capacity-scheduler.xml"
)

// TaskValidateMaxJobs bounds the jobs of the validation window that the
// task-level views simulate (this table, its H-PFSP rows and the
// task-level calibration): the first ones of the window. The task-level
// core holds about 1.3 KB a job while it runs on two workers (its
// simulators' per-job and per-stage state, the task jobs, a copy of them
// with each scheduler file's queues): the 300,000 validation jobs of a
// 1 M-job log took 400 MB, and the 3 M of a 10 M-job log would take 4 GB.
// The note says when the window was cut; a window of at most this many
// jobs is simulated whole, as before.
var TaskValidateMaxJobs = 300_000

// TaskValidateMaxTasks bounds the tasks of those jobs as well (BudgetJobs):
// the engine's time and memory go with the tasks. 300,000 jobs of a log
// without task counts make about 390,000 tasks (1.3 a job), so such a log
// is not cut by it; a log with Hadoop's counts (15–40 tasks a job) would
// otherwise simulate 10–30 times as many. TaskValidateMinJobs is the
// floor, as the COSHH comparison's (COSHHValidateMinJobs): the rows state
// means and p99s, and 5,000 jobs leave 50 beyond the p99; tune-deploy's
// verdict draws its chunks from these jobs (4 of at least 800). A floor
// of more jobs would let the cost grow with the tasks a job again (the
// 120,000-job log of 40 tasks a job has 120 a job in its validation
// window: 20,000 jobs were 2.4 M tasks).
var (
	TaskValidateMaxTasks = 600_000
	TaskValidateMinJobs  = 5_000
)

// TaskWindow returns the validation window's jobs the task-level views
// simulate, rows lo to lo+n−1 of the log (at most TaskValidateMaxJobs
// jobs and TaskValidateMaxTasks tasks), and the note's words when they
// are not the whole window ("" when they are).
func TaskWindow(in *inputs.Inputs) (lo, n int, cut string, err error) {
	lo, n = in.Split.TuneJobs, in.NumSimJobs()-in.Split.TuneJobs
	all := n
	why := "TaskValidateMaxJobs"
	if n > TaskValidateMaxJobs {
		n = TaskValidateMaxJobs
	}
	k, tasks, err := taskWindowBudget(in, lo, n)
	if err != nil {
		return 0, 0, "", err
	}
	if k < n {
		n, why = k, BudgetWhy("TaskValidateMaxTasks", TaskValidateMaxTasks, "TaskValidateMinJobs", TaskValidateMinJobs, tasks)
	}
	if n < all {
		cut = fmt.Sprintf("; only the validation window's first %d of %d jobs (%s)", n, all, why)
	}
	return lo, n, cut, nil
}

// BytesReadTo is the end of the rows of the validation window whose byte
// columns validate and report read (inputs.ReleaseTuningRows keeps those,
// and the history rows before the window): the task-level views' jobs
// (TaskWindow: the table's rows, the emitted files', the calibration and
// tune-deploy's verdict chunks, with the execution-time model of their
// bytes) and COSHH's (its first COSHHValidateMaxJobs jobs at most, whose
// paper features and re-classifications read them). The fluid runs read
// no bytes. At the 10 M log it keeps 0.32 M of the 3 M rows: 7 MB, not
// 72.
func BytesReadTo(in *inputs.Inputs) (int, error) {
	lo, n, _, err := TaskWindow(in)
	if err != nil {
		return 0, err
	}
	return lo + max(n, COSHHValidateMaxJobs), nil
}

// BudgetWhy is a cut window's reason for its note: the task budget
// (maxName = maxTasks) and the tasks kept, or, when the floor of jobs
// (minName = minJobs) holds more tasks than the budget, that floor.
func BudgetWhy(maxName string, maxTasks int, minName string, minJobs, tasks int) string {
	if tasks > maxTasks {
		return fmt.Sprintf("%s %d; its floor %s of %d jobs holds %d tasks", maxName, maxTasks, minName, minJobs, tasks)
	}
	return fmt.Sprintf("%s %d: %d tasks", maxName, maxTasks, tasks)
}

// taskWindowKey is what the validation window's cut depends on beyond
// the run's inputs: the validation table, its added rows, the calibration
// and tune-deploy's verdict each ask for the same window, and counting the
// tasks of 300,000 jobs allocates about 50 MB, which at 1 M jobs near the
// soft memory limit costs GC cycles, so the run's Inputs count it once
// (Inputs.Memo).
type taskWindowKey struct {
	jobs                     *data.Jobs
	tasks                    *data.Tasks
	spec                     *cluster.Spec
	capacity                 float64
	lo, n, maxTasks, minJobs int
}

// taskWindowBudget is WindowBudget of rows lo..lo+n−1 with the validation
// budgets, counted once per run and key.
func taskWindowBudget(in *inputs.Inputs, lo, n int) (k, tasks int, err error) {
	key := taskWindowKey{in.Jobs, in.Tasks, in.Spec, in.Capacity, lo, n, TaskValidateMaxTasks, TaskValidateMinJobs}
	v, err := in.Memo(key, func() (any, error) {
		k, tasks, err := WindowBudget(in, in.Tasks, lo, n, TaskValidateMaxTasks, TaskValidateMinJobs, false)
		return [2]int{k, tasks}, err
	})
	if err != nil {
		return 0, 0, err
	}
	kt := v.([2]int)
	return kt[0], kt[1], nil
}

// WindowBudget is tasklevel.BudgetJobsWith on rows lo..lo+n−1 of the
// run's log as the task-level views build their jobs (the spec's task
// cluster; t the tasks table they replay, in.Tasks, or nil for the views
// that synthesise every job's tasks):
// how many of them, the first ones or (fromEnd) the last ones, hold at
// most maxTasks tasks (at least minJobs jobs), and their tasks.
func WindowBudget(in *inputs.Inputs, t *data.Tasks, lo, n, maxTasks, minJobs int, fromEnd bool) (k, tasks int, err error) {
	cl, err := tasklevel.TaskCluster(in.Spec)
	if err != nil {
		return 0, 0, err
	}
	win, err := in.Window(lo, lo+n)
	if err != nil {
		return 0, 0, err
	}
	return tasklevel.BudgetJobsWith(in.Jobs, t, win, lo, in.Capacity, cl.Rate(), maxTasks, minJobs, fromEnd)
}

// TaskPlan is the task-level validation of the window planned: its
// experiments (Experiments), which the validate stage runs in one pool
// with the fluid ones, and the table their results make (Finish).
type TaskPlan struct {
	in          *inputs.Inputs
	cl          *task.Cluster
	res, named  *tasklevel.TaskLevel
	jobs        []task.Job
	configs     []taskConfig
	added       []taskConfig
	addedDef    []float64
	current     string // the current scheduler's task-level specification
	cut         string
	xs          []*experiment.Experiment
	x, xn, xadd *experiment.Experiment
}

// taskConfig is one row of the task-level table: its name, the
// specification simulated and the one shown.
type taskConfig struct{ name, spec, shown string }

// AddedRowsReferenceNote ends the name of a row added by AddRows whose
// missed deadlines count against Fair with one pool per user
// (DefaultTaskReference) while the table's current scheduler is another
// (--current-config): the column says "vs current".
const AddedRowsReferenceNote = " (missed deadlines vs fair:pool=user)"

// TaskRow names a row that AddRows adds to the task-level table.
type TaskRow struct{ Name, Spec string }

// PlanTaskValidation plans the task-level simulation of the validation
// window (at most TaskValidateMaxJobs of its jobs): dir holds the emitted
// capacity-scheduler.xml and fair-scheduler.xml.
func PlanTaskValidation(in *inputs.Inputs, cs *inputs.Classes, tuned tuner.LASMQParams, dir string) (*TaskPlan, error) {
	cl, err := tasklevel.TaskCluster(in.Spec)
	if err != nil {
		return nil, err
	}
	lo, n, cut, err := TaskWindow(in)
	if err != nil {
		return nil, err
	}
	// One cluster model: each job as fast on a type as the execution-time
	// model says (the LP's μ, COSHH's rows).
	win, err := in.Window(lo, lo+n)
	if err != nil {
		return nil, err
	}
	jobs, err := tasklevel.ModelTaskJobs(in.Jobs, in.Tasks, win, lo, in.Capacity, in.Spec, cl.Rate(), in.Config.Seed)
	if err != nil {
		return nil, err
	}
	// Applications name the queue they named in the log, if it says.
	res := &tasklevel.TaskLevel{Cluster: cl, Jobs: jobs, ContainerMB: in.Config.ContainerMB, Named: bundle.LogQueuesOf(in.Jobs, lo, n)}
	// The jobs of the classified row name their class's queue (the second
	// capacity row); nothing else does.
	named := namingClassQueues(res, cs, lo)
	// The thresholds as emitted, in the units of in.Capacity, converted to
	// the held container-seconds the task level counts.
	held, err := bundle.HeldPerUnit(in.Capacity, cl.Containers())
	if err != nil {
		return nil, err
	}
	m := tasklevel.TaskLASMQ(tuned.Policy(), held)
	current, currentSpec := "fair, one pool per user", "fair:pool=user"
	if in.Config.CurrentConfig != "" {
		if currentSpec, err = inputs.CurrentConfigSpec(in.Config.CurrentConfig); err != nil {
			return nil, err
		}
		current = filepath.Base(in.Config.CurrentConfig)
	}
	res.Reference = currentSpec // the deadlines: the current scheduler's completions
	return &TaskPlan{in: in, cl: cl, res: res, named: named, jobs: jobs, current: currentSpec, cut: cut, configs: []taskConfig{
		{"fifo", "fifo", "fifo"},
		{TaskCurrentName + " (" + current + ")", currentSpec, currentSpec},
		{TaskEmittedCapacityName + routedHow(res.Named), "capacity:file=" + filepath.Join(dir, "capacity-scheduler.xml"), "capacity:file=capacity-scheduler.xml"},
		{"emitted fair-scheduler.xml", "fair:file=" + filepath.Join(dir, "fair-scheduler.xml"), "fair:file=fair-scheduler.xml"},
		{TaskTunedName, m.Spec(), m.Spec()},
	}}, nil
}

// AddRows adds rows to the end of the table, simulated on the window's
// jobs as the task-level model builds them from the log alone (no tasks
// table), with hpfspDefault as H-PFSP's prior task times
// (TaskLevel.HPFSPDefault) and their missed deadlines against Fair with
// one pool per user (DefaultTaskReference). When the plan's own jobs and
// reference are those (no --tasks, no --current-config) the rows are
// policies of its experiment, so that a policy already in it is not
// simulated twice and the reference's run serves both; otherwise they get
// their own jobs and reference run. Call it before Experiments.
func (tp *TaskPlan) AddRows(rows []TaskRow, hpfspDefault []float64) {
	for _, r := range rows {
		tp.added = append(tp.added, taskConfig{r.Name, r.Spec, r.Spec})
	}
	tp.addedDef = hpfspDefault
}

// AddNote appends s to the table's note (words on a window the added rows
// were tuned on, as its own cut's are).
func (tp *TaskPlan) AddNote(s string) { tp.cut += s }

// Experiments returns the plan's experiments, built on the first call:
// the table's policies (the added rows' first, so that the longest, H-PFSP,
// starts early in the pool), the emitted capacity-scheduler.xml with the
// jobs naming their class's queue, and the added rows' own experiment when
// they need one. Every one is Local (no UnitHook shards it).
func (tp *TaskPlan) Experiments() ([]*experiment.Experiment, error) {
	if tp.xs != nil {
		return tp.xs, nil
	}
	in := tp.in
	shared := in.Tasks == nil && tp.current == tasklevel.DefaultTaskReference
	var specs []string
	add := func(specs []string, c taskConfig) []string {
		if !slices.Contains(specs, c.spec) {
			specs = append(specs, c.spec)
		}
		return specs
	}
	if shared {
		tp.res.HPFSPDefault = tp.addedDef // only H-PFSP reads it
		for _, c := range tp.added {
			specs = add(specs, c)
		}
	} else if len(tp.added) > 0 {
		lo, n, _, err := TaskWindow(in)
		if err != nil {
			return nil, err
		}
		win, err := in.Window(lo, lo+n)
		if err != nil {
			return nil, err
		}
		jobs, err := tasklevel.ModelTaskJobs(in.Jobs, nil, win, lo, in.Capacity, in.Spec, tp.cl.Rate(), in.Config.Seed)
		if err != nil {
			return nil, err
		}
		res := &tasklevel.TaskLevel{Cluster: tp.cl, Jobs: jobs, ContainerMB: in.Config.ContainerMB, HPFSPDefault: tp.addedDef}
		var own []string
		for _, c := range append(slices.Clone(tp.added), taskConfig{spec: tasklevel.DefaultTaskReference}) {
			own = add(own, c)
		}
		if tp.xadd, err = res.PooledExperiment(own); err != nil {
			return nil, err
		}
		tp.xadd.Local = true
	}
	for _, c := range tp.configs {
		specs = add(specs, c)
	}
	x, err := tp.res.PooledExperiment(specs)
	if err != nil {
		return nil, err
	}
	// The same jobs and deadlines, the class queues named (one copy of the
	// window's fluid jobs and deadlines for both).
	xn := *x
	xn.Policies, xn.Resolution = []string{tp.configs[2].spec}, tp.named
	x.Local, xn.Local = true, true
	tp.x, tp.xn = x, &xn
	tp.xs = []*experiment.Experiment{x}
	if tp.xadd != nil {
		tp.xs = append(tp.xs, tp.xadd)
	}
	tp.xs = append(tp.xs, &xn)
	return tp.xs, nil
}

// Finish makes the task-level table out of the results of Experiments, in
// their order.
func (tp *TaskPlan) Finish(out []*experiment.ExperimentResult) (*TaskValidation, error) {
	x := tp.x
	b, err := experiment.ComputeBounds(x.Jobs, x.Capacity)
	if err != nil {
		return nil, err
	}
	cl, jobs := tp.cl, tp.jobs
	tv := &TaskValidation{Bounds: b, RateCS: cl.Rate(), Machines: cl.Nodes(), Containers: cl.Containers(), Current: tp.current, Note: TaskBoundsNote + tp.cut,
		OfferedLoad: report.FinitePtr(tasklevel.ExecLoad(jobs, cl))}
	if terms := tasklevel.TaskLoadModel(jobs, cl); terms.Defined() {
		tv.Terms = &terms
	}
	for _, j := range jobs {
		tv.Tasks += j.NumTasks()
	}
	rowOf := func(xi int, c taskConfig) ValidationRow {
		pol := out[xi].Policies[slices.Index(tp.xs[xi].Policies, c.spec)]
		row := ValidationRowOf(c.name, 0, pol.Aggregate(), b)
		row.Policy = c.shown
		return row
	}
	var cur, tunedMean float64
	for _, c := range tp.configs {
		row := rowOf(0, c)
		tv.Rows = append(tv.Rows, row)
		switch c.name {
		case TaskTunedName:
			tunedMean = row.Mean
		case tp.configs[1].name:
			cur = row.Mean
		}
	}
	row := rowOf(len(tp.xs)-1, tp.configs[2])
	row.Name, row.Policy = TaskEmittedCapacityName+", jobs name their class queue", tp.configs[2].shown+" (queue <class>)"
	tv.Rows = append(tv.Rows[:3], append([]ValidationRow{row}, tv.Rows[3:]...)...)
	if cur > 0 {
		tv.Improvement, tv.Improved = 1-tunedMean/cur, tunedMean < cur
	}
	xi := 0 // the added rows' experiment
	if tp.xadd != nil {
		xi = 1
	}
	for _, c := range tp.added {
		row := rowOf(xi, c)
		if tp.current != tasklevel.DefaultTaskReference {
			// Their deadlines are Fair's with one pool per user (their own
			// reference run, Experiments), not the current scheduler's
			// that the column names.
			row.Name += AddedRowsReferenceNote
		}
		tv.Rows = append(tv.Rows, row)
	}
	return tv, nil
}

// routedHow names how the applications of the emitted
// capacity-scheduler.xml's routed row reach their queues: the log's queue
// (named, when the log has a queue column) or none.
func routedHow(named []string) string {
	if named != nil {
		return ", jobs name the log's queue"
	}
	return ", no queue named"
}

// emittedRows returns the current scheduler's row and the rows that load
// the emitted capacity-scheduler.xml back (nil, nil without a current row
// of positive mean).
func (t *TaskValidation) emittedRows() (*ValidationRow, []ValidationRow) {
	var cur *ValidationRow
	for k := range t.Rows {
		if strings.HasPrefix(t.Rows[k].Name, TaskCurrentName+" (") {
			cur = &t.Rows[k]
		}
	}
	if cur == nil || !(cur.Mean > 0) {
		return nil, nil
	}
	var rows []ValidationRow
	for _, r := range t.Rows {
		if strings.HasPrefix(r.Name, TaskEmittedCapacityName) {
			rows = append(rows, r)
		}
	}
	return cur, rows
}

// namingClassQueues returns a copy of r whose jobs, rows first, first+1, …
// of the log, name the queue of their class in the secondary
// classification (a job not classified names none): applications
// submitted to their class's queue of the emitted capacity-scheduler.xml.
func namingClassQueues(r *tasklevel.TaskLevel, cs *inputs.Classes, first int) *tasklevel.TaskLevel {
	named := *r
	named.Class = make([]string, len(r.Jobs))
	for i := range r.Jobs {
		if k := cs.Secondary.ClassOf(first + i); k >= 0 && int(k) < len(cs.Secondary.Result.Classes) {
			named.Class[i] = bundle.ClassName(cs.Secondary.Result.Classes[k].ID)
		}
	}
	return &named
}

// EmittedVerdict says how each emitted capacity-scheduler.xml row (the
// file a user deploys, not the tuned policy it encodes) compares with the
// current scheduler in mean response, naming the rows that do NOT beat it:
// the tuned policy's verdict alone would hide a deployed file that loses.
func (t *TaskValidation) EmittedVerdict() string {
	cur, rows := t.emittedRows()
	var parts []string
	for _, r := range rows {
		how := "beats it by"
		if !(r.Mean < cur.Mean) {
			how = "does NOT beat it:"
		}
		parts = append(parts, fmt.Sprintf("%s %s %+.1f%% (%.4g s against %.4g s)", strings.TrimPrefix(r.Name, TaskEmittedCapacityName+", "), how, 100*(1-r.Mean/cur.Mean), r.Mean, cur.Mean))
	}
	if len(parts) == 0 {
		return ""
	}
	return "the emitted capacity-scheduler.xml against the current scheduler (" + t.Current + "), mean response: " + strings.Join(parts, "; ")
}

// TaskLevelVersion changes when the task-level validation changes what it
// computes, so that older stamps of the validate stage are stale (4: at
// most TaskValidateMaxJobs jobs; 5: slowdowns by the time alone, capped
// fair-share deadlines; 6: the tuned LAS_MQ's thresholds in held
// container-seconds; 7: applications name the log's queue; 8: PRISM's
// defaults (deficit fairness, ε 0.99, α 0.02) and the phase model's CPU
// thrashing, for a prism baseline; 9: slowdowns over the simulated time
// alone, bounded at 1 s; deadlines from the current scheduler's
// completions; 10: jobs in the execution-time model, ExecModelScales; 11:
// a log's queue placed as written first, then by its name in schedplan's
// files); 12: H-PFSP's Algorithm 2 as printed (issue 28); 13: H-PFSP
// gives §II.C's residual slots to other jobs, fallback=ps, by default, and
// PRISM's fairness counts tasks, fairness=tasks); 14: Fair breaks queue ties by name, as
// FairSharePolicy; 15: Capacity orders queues, counts user limits and
// stops at the queue limit as Hadoop 3.4 (PriorityUtilizationQueueOrderingPolicy,
// UsersManager.computeUserLimit, AbstractLeafQueue.assignContainers); 16:
// H-PFSP's progress updates in one treap descent, slacks differing by
// rounding; 17: with --current-config the added rows say that their
// deadlines are Fair's with one pool per user, AddedRowsReferenceNote);
// 18: the window bounded in tasks too (TaskValidateMaxTasks); 19: a job
// replayed from the tasks table counts its table's tasks in that bound;
// 20: the note says what H-PFSP's rows were tuned on, HPFSPTuning.Note).
const TaskLevelVersion = 20

// OneReplayNote qualifies the task-level validation table's comparisons:
// one replay of the window with the run's seed, descriptive; the verdict
// is DeployVerdict's.
const OneReplayNote = "one replay of the validation window (the run's task seed; not the verdict, which pairs chunks × seeds)"

// RowsText says how the task-level LAS_MQ policy (the tuned levels run
// by the simulator, not a deployed file) compares with the current
// scheduler in mean response.
func (t *TaskValidation) RowsText() string {
	if t.Improved {
		return fmt.Sprintf("the tuned LAS_MQ policy (not a deployed file) beats the current scheduler (%s) by %.1f%% in mean response", t.Current, 100*t.Improvement)
	}
	return fmt.Sprintf("the tuned LAS_MQ policy (not a deployed file) does NOT beat the current scheduler (%s): %+.1f%% mean response", t.Current, -100*t.Improvement)
}
