package tasklevel

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/cluster/task"
	_ "github.com/schedplan/schedplan/cluster/task/all" // the names of coshh and hpfsp (task.Register)
	"github.com/schedplan/schedplan/cluster/task/prism"
	"github.com/schedplan/schedplan/cluster/yarn"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/internal/configfile"
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/experiment"
)

// TaskLevel is the task-level resolution (package cluster/task): the jobs
// as map and reduce stages of tasks on the machines of a cluster spec.
// Experiment job i is Jobs[i]; an experiment over them uses
// FluidJobs(Jobs) with capacity Cluster.Rate(), so sizes, estimates and the
// fluid bounds are in container-seconds at exec_rate 1; slowdowns are
// bounded slowdowns over each job's time alone (task.FluidAlone); deadlines
// come from a reference scheduler (ReferenceDeadlines). Policies are the
// task registry's ("fifo", "fair:pool=user", "las_mq:k=…", and every
// policy registered there later) plus
// "capacity:file=PATH" and "fair:file=PATH", which load a
// capacity-scheduler.xml or fair-scheduler.xml (parsed and checked by
// package cluster/yarn, Hadoop's load-time rules) and place every job as
// that file's queue mappings or placement policy place its user.
type TaskLevel struct {
	Cluster *task.Cluster
	Jobs    []task.Job
	// ContainerMB converts a fair-scheduler.xml's memory amounts
	// (minResources, maxResources) to containers (0: 1024).
	ContainerMB int
	// Options are the simulator's options (slow start).
	Options task.Options
	// Machines are the capacity vectors of the cluster's machines for the
	// phase-level policies (PhaseMachines; prism, fair-slots,
	// yarn-containers).
	Machines []prism.Vector
	// phase records the phase-level runs' metrics (PhaseMetricsOf); nil
	// until the first run.
	phase *phaseRecord
	// Class, when set, is every job's class queue ("C3"): with a
	// capacity-scheduler.xml the job's application names that class's
	// first leaf ("C3_l0" in a file of an older layout, else "C3", the
	// queue that is its own level 0); with a fair-scheduler.xml it is the
	// queue named to the placement policy. Nil: applications name no
	// queue.
	Class []string
	// Named, when set, is the queue every job's application names (the
	// log's queue column, LogQueuesOf); Class overrides it. Nil: the
	// applications name no queue.
	Named []string
	// HPFSPDefault is eq. 18's prior task time per stage (seconds) for
	// hpfsp run with its online estimator; nil: MeanTaskTimes of Jobs.
	HPFSPDefault []float64
	// Reference is the policy specification whose completions, with
	// task.ReferenceDeadlines' tolerance, are the jobs' deadlines
	// (TaskExperiment, SimulateExperiment): the current scheduler. Empty:
	// DefaultTaskReference.
	Reference string
	// stats records the engine's events, tasks and wall time per policy
	// (TaskRunStatsOf); nil until the first run.
	stats *taskStatsRecord
	// fluid caches task.FluidJobs(Jobs), and alone task.FluidAlone(Jobs,
	// Cluster) (each job's time alone is a small simulation); nil until
	// first needed.
	fluid []sim.Job
	alone *sim.Alone
	// ref is the reference scheduler's run of ReferenceDeadlines, which an
	// experiment's run of the same specification over the same jobs and
	// estimates reuses (the current scheduler is also one of the policies
	// compared); set before any experiment runs, nil until then.
	ref *refRun
}

// refRun is a run over all of a resolution's jobs with their own
// estimates.
type refRun struct {
	owner              *TaskLevel // the resolution run (not a copy of it)
	spec               string
	completion, starts []float64
	events, tasks      int
	wall               time.Duration
}

// fluidJobs returns task.FluidJobs of the resolution's jobs, computed
// once.
func (r *TaskLevel) fluidJobs() []sim.Job {
	if r.fluid == nil {
		r.fluid = task.FluidJobs(r.Jobs)
	}
	return r.fluid
}

// fluidAlone returns what the resolution's slowdowns are over,
// task.FluidAlone of its jobs on its cluster (computed once): an
// experiment over its jobs (Experiment.Alone) divides by it.
func (r *TaskLevel) fluidAlone() sim.Alone {
	if r.alone == nil {
		a := task.FluidAlone(r.Jobs, r.Cluster)
		r.alone = &a
	}
	return *r.alone
}

// specTitle names a cluster spec in a message: "cluster spec NAME", or
// just "cluster spec" when the spec has no name: field.
func specTitle(spec *cluster.Spec) string {
	if strings.TrimSpace(spec.Name) == "" {
		return "cluster spec"
	}
	return "cluster spec " + spec.Name
}

// TaskCluster turns a cluster spec into a task-level cluster: one machine
// type per resource type, its slots as containers, and its node label the
// name the emitted capacity-scheduler.xml gives it (YARNName); the spec's
// heartbeat_s is the nodes' heartbeat.
func TaskCluster(spec *cluster.Spec) (*task.Cluster, error) {
	cl := &task.Cluster{Heartbeat: spec.Heartbeat}
	for _, r := range spec.Resources {
		cl.Types = append(cl.Types, task.MachineType{Name: r.Name, Count: r.Count, Containers: r.Slots, ExecRate: r.ExecRate, Label: bundle.YARNName(r.Name)})
	}
	if err := cl.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", specTitle(spec), err)
	}
	return cl, nil
}

// TaskJobSkew is σ of the log-normal spread of synthesised task durations
// within a stage (task.SynthOptions.Skew; CV ≈ 0.53).
const TaskJobSkew = 0.5

// TaskJobs builds the task-level jobs of a job log's rows lo, lo+1, … from
// their fluid jobs fl (arrival, weight, and size in the units of capacity,
// converted to container-seconds of a cluster of the given rate): task
// counts and task-seconds from the log when it has them, else the size,
// synthesised with a seeded skew (task.Synthesize, TaskJobSkew).
func TaskJobs(j *data.Jobs, fl []sim.Job, lo int, capacity, rate float64, seed uint64) ([]task.Job, error) {
	shapes, err := shapesOf(nil, j, fl, lo, capacity, rate)
	if err != nil {
		return nil, err
	}
	jobs, err := task.Synthesize(shapes, task.SynthOptions{Skew: TaskJobSkew, Seed: seed})
	if err != nil {
		return nil, fmt.Errorf("%s: rows %d..%d: %w", j.Source, lo+1, lo+len(fl), err)
	}
	return jobs, nil
}

// shapesOf returns the task shapes of rows lo, lo+1, … of j whose fluid
// jobs are fl (TaskJobs), in dst's room when it has enough.
func shapesOf(dst []task.Shape, j *data.Jobs, fl []sim.Job, lo int, capacity, rate float64) ([]task.Shape, error) {
	if lo < 0 || lo+len(fl) > j.Len() {
		return nil, fmt.Errorf("%s: rows %d..%d of %d jobs", j.Source, lo+1, lo+len(fl), j.Len())
	}
	if !(capacity > 0) || !(rate > 0) || math.IsInf(capacity, 0) || math.IsInf(rate, 0) {
		return nil, fmt.Errorf("capacity %v and cluster rate %v must be finite positive numbers", capacity, rate)
	}
	shapes := dst[:0]
	if cap(dst) < len(fl) {
		shapes = make([]task.Shape, 0, len(fl))
	}
	shapes = shapes[:len(fl)]
	for k, f := range fl {
		i := lo + k
		sh := task.Shape{ID: i, Arrival: f.Arrival, User: j.UserAt(i), Weight: f.Weight, Size: f.Size * rate / capacity}
		if v, ok := j.MapTasks.At(i); ok && v > 0 {
			sh.MapTasks = int(v)
		}
		if v, ok := j.ReduceTasks.At(i); ok && v > 0 {
			sh.ReduceTasks = int(v)
		}
		if v, ok := j.MapTaskSeconds.At(i); ok && v > 0 && !math.IsInf(v, 0) {
			sh.MapSeconds = v
		}
		if v, ok := j.ReduceTaskSeconds.At(i); ok && v > 0 && !math.IsInf(v, 0) {
			sh.ReduceSeconds = v
		}
		shapes[k] = sh
	}
	return shapes, nil
}

// TaskWindow is the task-level form of a window on a cluster spec: a
// window whose jobs are the task jobs' fluid jobs in container-seconds at
// the cluster's rate, and the resolution that simulates them (simulate
// --level task).
func (w *Window) TaskWindow(spec *cluster.Spec, seed uint64, containerMB int) (*Window, *TaskLevel, error) {
	cl, err := TaskCluster(spec)
	if err != nil {
		return nil, nil, err
	}
	jobs, err := ModelTaskJobs(w.Log, nil, w.Jobs, w.First, w.Capacity, spec, cl.Rate(), seed)
	if err != nil {
		return nil, nil, err
	}
	tl := &TaskLevel{Cluster: cl, Jobs: jobs, ContainerMB: containerMB, Machines: PhaseMachines(spec)}
	tw := *w
	tw.Jobs, tw.Capacity = tl.fluidJobs(), cl.Rate()
	tw.CapacityFrom = fmt.Sprintf("task level: %d machines, %d containers of %s, total rate in container-seconds/s; sizes in container-seconds", cl.Nodes(), cl.Containers(), specTitle(spec))
	tw.OfferedLoad = ExecLoad(jobs, cl)
	tl.Named = bundle.LogQueuesOf(w.Log, w.First, len(jobs))
	return &tw, tl, nil
}

// AtLevel returns the window and resolution simulate runs at: level
// "fluid" (the window as it is, resolution nil: Fluid), "task" (TaskWindow
// on the window's cluster spec), or "auto" (task when TaskLevelAuto).
func (w *Window) AtLevel(level string, specs []string, seed uint64) (*Window, experiment.Resolution, error) {
	switch level {
	case "auto":
		if !TaskLevelAuto(specs) {
			return w, nil, nil
		}
	case "fluid":
		return w, nil, nil
	case "task":
	default:
		return nil, nil, experiment.ParamErr("level", level, "use fluid, task or auto")
	}
	tw, r, err := w.TaskWindow(w.Spec, seed, 0)
	if err != nil {
		return nil, nil, err
	}
	return tw, r, nil
}

// TaskLevelAuto reports whether simulate's --level auto picks the task
// level for these specifications: when one loads a YARN file (file=) or
// names a policy only the task level has.
func TaskLevelAuto(specs []string) bool {
	for _, s := range specs {
		name, params, err := sim.SplitSpec(s)
		if err != nil {
			continue
		}
		if _, ok := params["file"]; ok {
			return true
		}
		if _, notFluid := sim.LookupPolicy(name); notFluid != nil && TaskPolicyDoc(name) != "" {
			return true
		}
	}
	return false
}

// Name is "task".
func (r *TaskLevel) Name() string { return "task" }

// TaskPolicy is a parsed specification: a constructor of fresh policy
// instances and the queue every job lands in (nil: the jobs' own).
type TaskPolicy struct {
	make  func() (task.Policy, error)
	queue []string
	uses  sim.Uses
	// cluster, when set, is the cluster the policy runs on in place of
	// the resolution's (a capacity-scheduler.xml that names no node label
	// is for machines without labels).
	cluster *task.Cluster
}

// Policy checks a specification (loading its file, if any) and says what
// it uses.
func (r *TaskLevel) Policy(spec string) (sim.PolicyInfo, error) {
	if name, _, err := sim.SplitSpec(spec); err == nil && phasePolicyDocs[name] != "" {
		if _, err := r.parsePhase(spec); err != nil {
			return sim.PolicyInfo{}, err
		}
		return sim.PolicyInfo{Name: name, Doc: phasePolicyDocs[name]}, nil
	}
	p, err := r.parse(spec)
	if err != nil {
		return sim.PolicyInfo{}, err
	}
	name, _, _ := sim.SplitSpec(spec)
	return sim.PolicyInfo{Name: name, Doc: task.PolicyDoc(name), Uses: p.uses}, nil
}

func (r *TaskLevel) parse(spec string) (*TaskPolicy, error) {
	name, params, err := sim.SplitSpec(spec)
	if err != nil {
		return nil, err
	}
	// What the policy reads is recorded once, in the task registry.
	info, ok := task.LookupPolicy(name)
	if !ok { // the phase-level ones are known here too (Policy)
		return nil, fmt.Errorf("unknown task-level policy %q (known: %s)", name, strings.Join(TaskPolicyNames(), ", "))
	}
	tp := &TaskPolicy{uses: info.Uses}
	file, hasFile := params["file"]
	delete(params, "file")
	switch {
	case !hasFile && name == "hpfsp":
		if err := r.hpfspPolicy(tp, params); err != nil {
			return nil, err
		}
		return tp, nil
	case !hasFile:
		if _, err := task.NewPolicy(name, params); err != nil {
			return nil, err
		}
		if name == "capacity" {
			// Its queues name no node label (their jobs request the
			// default partition): the stock Capacity Scheduler of a
			// cluster whose machines carry none, as loadCapacity
			// simulates a file that names no label.
			tp.cluster = unlabelled(r.Cluster)
		}
		tp.make = func() (task.Policy, error) { return task.NewPolicy(name, params) }
		return tp, nil
	case len(params) > 0:
		return nil, fmt.Errorf("policy %s: file= takes no other parameters", name)
	case name == "capacity":
		root, queue, labelled, err := r.loadCapacity(file)
		if err != nil {
			return nil, err
		}
		tp.queue = queue
		if !labelled {
			tp.cluster = unlabelled(r.Cluster)
		}
		tp.make = func() (task.Policy, error) { return &task.Capacity{Root: root}, nil }
		return tp, nil
	case name == "fair":
		root, queue, users, err := r.LoadFair(file)
		if err != nil {
			return nil, err
		}
		tp.queue = queue
		tp.make = func() (task.Policy, error) {
			return &task.Fair{Root: root, Placement: task.PlaceByQueue, UserMaxApps: users.named, UserMaxAppsDefault: users.def, QueueMaxAppsDefault: users.queueDef}, nil
		}
		return tp, nil
	}
	return nil, fmt.Errorf("policy %s: file= is for capacity (capacity-scheduler.xml) and fair (fair-scheduler.xml)", name)
}

// loadCapacity parses and checks a capacity-scheduler.xml and returns its
// queue tree, every job's leaf (as CapacityScheduler.addApplication and
// the file's queue mappings place an application of the job's user that
// names its class's queue (Class), else the log's queue (Named), else
// none) and whether the file
// names any node label: one that names none is for a cluster whose
// machines carry no label (every machine in the default partition).
func (r *TaskLevel) loadCapacity(path string) (root task.CapacityQueue, queue []string, labelled bool, err error) {
	b, err := configfile.Read(path)
	if err != nil {
		return root, nil, false, err
	}
	f, err := capacityFiles.get(b, parseCapacityFile)
	if err != nil {
		return root, nil, false, fmt.Errorf("%s: %w", path, err)
	}
	cs := f.cs
	queue = make([]string, len(r.Jobs))
	leaves := map[placedBy]string{} // each user, named queue and class placed once
	for i := range r.Jobs {
		k := r.placedBy(i)
		if p, ok := leaves[k]; ok {
			queue[i] = p
			continue
		}
		q, err := bundle.PlaceLogQueue(k.named, func(name string) (*yarn.CSQueue, error) { return cs.Place(k.user, nil, name) })
		if c := k.class; c != "" {
			for _, name := range []string{c + "_l0", c} {
				if cq, cerr := cs.Place(k.user, nil, name); cerr == nil {
					q, err = cq, nil
					break
				}
			}
		}
		if err != nil {
			return root, nil, false, fmt.Errorf("%s: job %d: %w", path, r.Jobs[i].ID+1, err)
		}
		queue[i], leaves[k] = q.Path, q.Path
	}
	if f.demErr != nil {
		return root, nil, false, fmt.Errorf("%s: %w", path, f.demErr)
	}
	return f.root, queue, f.labelled, nil
}

// DemotionsByPath returns the file's LAS_MQ demotion rules by the path of
// the level they demote from (the rules schedplan's controller applies).
func DemotionsByPath(cs *yarn.CapacityScheduler) (map[string]yarn.Demotion, error) {
	ds, err := cs.Demotions()
	if err != nil {
		return nil, err
	}
	m := make(map[string]yarn.Demotion, len(ds))
	for _, d := range ds {
		m[d.From.Path] = d
	}
	return m, nil
}

// unlabelled returns a copy of the cluster whose machines carry no label.
func unlabelled(cl *task.Cluster) *task.Cluster {
	c := *cl
	c.Types = append([]task.MachineType(nil), cl.Types...)
	for i := range c.Types {
		c.Types[i].Label = ""
	}
	return &c
}

// CapacityQueue converts a parsed Capacity Scheduler queue: capacities as
// percentages of the parent's on every partition, from the absolute
// capacities the parser computed (so weights and percentages read alike);
// the leaf's ordering-policy and minimum-user-limit-percent; and the
// LAS_MQ demotion rule of dem (yarn.Demotions: the threshold after which
// `schedplan yarn-controller` moves an application to the next sibling
// leaf), which the simulation applies as the controller would.
func CapacityQueue(cs *yarn.CapacityScheduler, q *yarn.CSQueue, dem map[string]yarn.Demotion) task.CapacityQueue {
	out := task.CapacityQueue{Name: q.Name, DefaultLabel: q.DefaultNodeLabelExpression, UserLimitFactor: q.UserLimitFactor,
		MinUserLimitPercent: q.MinimumUserLimitPercent, FairOrder: q.OrderingPolicy == yarn.FairOrdering}
	if out.UserLimitFactor == 0 {
		out.UserLimitFactor = 1e-9 // YARN's 0 admits no user; task's 0 means 1
	}
	rel := func(label string) (float64, float64) {
		p := q.Partition(label)
		if q.Parent == nil {
			return 100, 100
		}
		pp := q.Parent.Partition(label)
		c, m := 0.0, 0.0
		if pp.AbsoluteCapacity > 0 {
			c = 100 * p.AbsoluteCapacity / pp.AbsoluteCapacity
		}
		if pp.AbsoluteMaximumCapacity > 0 {
			m = 100 * p.AbsoluteMaximumCapacity / pp.AbsoluteMaximumCapacity
		}
		return math.Min(c, 100), math.Max(math.Min(m, 100), 1e-9)
	}
	out.Capacity, out.MaxCapacity = rel(yarn.NoLabel)
	for _, l := range q.Labels {
		if l == yarn.NoLabel || !q.CanAccess(l) {
			continue
		}
		if out.Labels == nil {
			out.Labels = map[string]task.LabelCapacity{}
		}
		c, m := rel(l)
		out.Labels[l] = task.LabelCapacity{Capacity: c, MaxCapacity: m}
	}
	for _, c := range q.Children {
		cq := CapacityQueue(cs, c, dem)
		if d, ok := dem[c.Path]; ok {
			cq.DemoteAfter, cq.DemoteTo = d.After, d.To.Name
		}
		out.Children = append(out.Children, cq)
	}
	return out
}

// LoadFair parses and checks a fair-scheduler.xml and returns its queue
// tree, every job's queue (the file's placement policy applied to the
// job's user and the queue its application names: its class's (Class),
// else the log's (Named), else none) and its per-user application limits.
func (r *TaskLevel) LoadFair(path string) (task.FairQueue, []string, fairAppLimits, error) {
	b, err := configfile.Read(path)
	if err != nil {
		return task.FairQueue{}, nil, fairAppLimits{}, err
	}
	f, err := fairFiles.get(b, parseFairFile)
	if err == nil {
		err = f.usrErr
	}
	if err != nil {
		return task.FairQueue{}, nil, fairAppLimits{}, fmt.Errorf("%s: %w", path, err)
	}
	fs, users := f.fs, f.users
	queue := make([]string, len(r.Jobs))
	leaves := map[placedBy]string{} // each user, named queue and class placed once
	for i := range r.Jobs {
		k := r.placedBy(i)
		if p, ok := leaves[k]; ok {
			queue[i] = p
			continue
		}
		place := func(name string) (string, error) { return fs.Place(k.user, nil, name) }
		if k.class != "" {
			queue[i], err = place(k.class)
		} else {
			queue[i], err = bundle.PlaceLogQueue(k.named, place)
		}
		if err != nil {
			return task.FairQueue{}, nil, fairAppLimits{}, fmt.Errorf("%s: job %d: %w", path, r.Jobs[i].ID+1, err)
		}
		leaves[k] = queue[i]
	}
	mb := r.ContainerMB
	if mb <= 0 {
		mb = 1024
	}
	return FairQueue(fs, fs.Root, int64(mb)), queue, users, nil
}

// FairQueue converts a parsed Fair Scheduler queue; memory amounts become
// containers of mb MB (minResources rounded up, maxResources down).
func FairQueue(fs *yarn.FairScheduler, q *yarn.FSQueue, mb int64) task.FairQueue {
	out := task.FairQueue{Name: q.Name, Weight: q.Weight}
	pol := q.SchedulingPolicy
	if pol == "" {
		pol = fs.DefaultQueueSchedulingPolicy
	}
	out.FIFO = pol == "fifo"
	if r := q.MinResources; r != nil && !r.Percent && r.MemoryMB > 0 {
		out.MinShare = int(min((r.MemoryMB+mb-1)/mb, math.MaxInt32))
	}
	if r := q.MaxResources; r != nil && !r.Percent && r.MemoryMB < math.MaxInt64 {
		out.MaxShare = int(max(1, min(r.MemoryMB/mb, math.MaxInt32)))
	}
	apps := q.MaxRunningApps
	if apps < 0 {
		apps = fs.QueueMaxAppsDefault // AllocationConfiguration.getQueueMaxApps
	}
	switch {
	case apps <= 0:
		// Hadoop runs no application of the queue: its runnable count is
		// never below the limit (MaxRunningAppsEnforcer.canAppBeRunnable).
		out.MaxRunningApps = task.NoRunningApps
	case apps < math.MaxInt32:
		out.MaxRunningApps = int(apps)
	}
	for _, c := range q.Children {
		out.Children = append(out.Children, FairQueue(fs, c, mb))
	}
	return out
}

// placedBy is what a YARN file's placement reads of a job: its user, the
// queue its application names and its class queue. Placement depends on
// nothing else, so loadCapacity and LoadFair place each triple once.
type placedBy struct{ user, named, class string }

// placedBy returns job i's placement inputs.
func (r *TaskLevel) placedBy(i int) placedBy {
	return placedBy{user: r.Jobs[i].User, named: r.named(i), class: r.class(i)}
}

// class returns job i's class queue ("" without one).
func (r *TaskLevel) class(i int) string {
	if i < len(r.Class) {
		return r.Class[i]
	}
	return ""
}

// named returns the queue job i's application names ("" for none).
func (r *TaskLevel) named(i int) string {
	if i < len(r.Named) {
		return r.Named[i]
	}
	return ""
}

// NewSimulator returns a task-level simulator.
func (r *TaskLevel) NewSimulator() experiment.Simulator {
	return &TaskSimulator{R: r, Parsed: map[string]*TaskPolicy{}}
}

// TaskSimulator is TaskLevel's Simulator (one per worker).
type TaskSimulator struct {
	R      *TaskLevel
	s      task.Simulator
	Parsed map[string]*TaskPolicy
	est    []float64 // a run's estimates (task.Options.Estimates)
	res    sim.Result
	// FirstStart is the last run's first task start of every job.
	FirstStart []float64
	// unrecorded leaves the runs out of TaskRunStatsOf (the reference
	// deadlines' run).
	unrecorded bool
	// keepRef keeps a run over all the jobs with their own estimates as
	// TaskLevel.ref (the reference deadlines' run).
	keepRef bool
}

// Simulate runs a fresh instance of the policy over the task jobs
// first..first+len(jobs)−1 with the estimates of jobs; capacity must be the
// cluster's rate.
func (t *TaskSimulator) Simulate(ctx context.Context, jobs []sim.Job, first int, capacity float64, spec string) (*sim.Result, error) {
	if first < 0 || first+len(jobs) > len(t.R.Jobs) {
		return nil, fmt.Errorf("task level: jobs %d..%d of %d", first, first+len(jobs), len(t.R.Jobs))
	}
	if rate := t.R.Cluster.Rate(); math.Abs(capacity-rate) > 1e-9*rate {
		return nil, fmt.Errorf("task level: capacity %g is not the cluster's rate %g container-seconds/s", capacity, rate)
	}
	if name, _, err := sim.SplitSpec(spec); err == nil && phasePolicyDocs[name] != "" {
		return t.runPhase(ctx, jobs, first, spec)
	}
	tp := t.Parsed[spec]
	if tp == nil {
		var err error
		if tp, err = t.R.parse(spec); err != nil {
			return nil, err
		}
		t.Parsed[spec] = tp
	}
	full := first == 0 && len(jobs) == len(t.R.Jobs)
	if ref := t.R.ref; ref != nil && ref.owner == t.R && ref.spec == spec && full && sameEstimates(t.R.Jobs, jobs) {
		if !t.unrecorded {
			t.R.recordRun(spec, ref.events, ref.tasks, ref.wall)
		}
		return t.result(t.R.Jobs, slices.Clone(ref.completion), slices.Clone(ref.starts)), nil
	}
	p, err := tp.make()
	if err != nil {
		return nil, err
	}
	run := t.R.Jobs[first : first+len(jobs)]
	// This run's estimates and queues beside the resolution's jobs (the
	// simulator reads them through the overrides): no copy of the window
	// per worker.
	opt := t.R.Options
	if !sameEstimates(run, jobs) {
		t.est = slices.Grow(t.est[:0], len(jobs))
		for i := range jobs {
			t.est = append(t.est, jobs[i].Estimate)
		}
		opt.Estimates = t.est
	}
	if tp.queue != nil {
		opt.Queues = tp.queue[first : first+len(jobs)]
	}
	cl := t.R.Cluster
	if tp.cluster != nil {
		cl = tp.cluster
	}
	t0 := time.Now()
	res, err := t.s.RunContext(ctx, run, cl, p, opt)
	if err != nil {
		return nil, err
	}
	wall := time.Since(t0)
	if full && !t.unrecorded {
		t.R.recordRun(spec, res.Events, res.Tasks, wall)
	}
	if full && t.keepRef && sameEstimates(t.R.Jobs, jobs) {
		t.R.ref = &refRun{owner: t.R, spec: spec, completion: slices.Clone(res.Completion), starts: slices.Clone(res.FirstStart),
			events: res.Events, tasks: res.Tasks, wall: wall}
	}
	return t.result(run, res.Completion, res.FirstStart), nil
}

// result is the run's result: the completions and first task starts of
// run's jobs, and their responses.
func (t *TaskSimulator) result(run []task.Job, completion, firstStart []float64) *sim.Result {
	t.res.Completion, t.FirstStart = completion, firstStart
	t.res.Response = t.res.Response[:0]
	for i, c := range completion {
		t.res.Response = append(t.res.Response, c-run[i].Arrival)
	}
	return &t.res
}

// sameEstimates reports whether every task job's estimate is the fluid
// job's.
func sameEstimates(tj []task.Job, jobs []sim.Job) bool {
	for i := range tj {
		if tj[i].Estimate != jobs[i].Estimate {
			return false
		}
	}
	return true
}

// DefaultTaskReference is the reference scheduler of the task-level
// deadlines when TaskLevel.Reference is empty: the current scheduler of a
// run without --current-config (Fair, one pool per user).
const DefaultTaskReference = "fair:pool=user"

// ReferenceDeadlines runs the reference scheduler (Reference, else
// DefaultTaskReference) over the resolution's jobs, exact estimates, and
// returns their deadlines: task.ReferenceDeadlines of its completions.
func (r *TaskLevel) ReferenceDeadlines(ctx context.Context) ([]float64, error) {
	ref := r.Reference
	if ref == "" {
		ref = DefaultTaskReference
	}
	ts := &TaskSimulator{R: r, Parsed: map[string]*TaskPolicy{}, unrecorded: true, keepRef: true}
	res, err := ts.Simulate(ctx, r.fluidJobs(), 0, r.Cluster.Rate(), ref)
	if err != nil {
		return nil, fmt.Errorf("reference scheduler %s of the task-level deadlines: %w", ref, err)
	}
	return task.ReferenceDeadlines(r.Jobs, res.Completion), nil
}

// TaskExperiment is an experiment of the policies over the task-level
// resolution's jobs, with their deadlines from the reference scheduler
// (ReferenceDeadlines: one more simulation).
func (r *TaskLevel) TaskExperiment(policies []string) (*experiment.Experiment, error) {
	dl, err := r.ReferenceDeadlines(context.Background())
	if err != nil {
		return nil, err
	}
	return &experiment.Experiment{Jobs: r.fluidJobs(), Capacity: r.Cluster.Rate(), Deadlines: dl, Alone: r.fluidAlone(), Policies: policies, Runs: 1, Resolution: r}, nil
}

// PooledExperiment is TaskExperiment without the reference scheduler's
// run ahead of the pool: the reference (Reference, else
// DefaultTaskReference) must be one of the policies, and its run, the
// pool's first, gives every run's deadlines (experiment.Reference), the
// same ones ReferenceDeadlines computes.
func (r *TaskLevel) PooledExperiment(policies []string) (*experiment.Experiment, error) {
	ref := r.Reference
	if ref == "" {
		ref = DefaultTaskReference
	}
	k := slices.Index(policies, ref)
	if k < 0 {
		return nil, fmt.Errorf("reference scheduler %s of the task-level deadlines is not among the policies %s", ref, strings.Join(policies, ", "))
	}
	x := &experiment.Experiment{Jobs: r.fluidJobs(), Capacity: r.Cluster.Rate(), Alone: r.fluidAlone(), Policies: policies, Runs: 1, Resolution: r}
	x.Reference = &experiment.Reference{Of: x, Policy: k, Deadlines: func(completion []float64) []float64 {
		return task.ReferenceDeadlines(r.Jobs, completion)
	}}
	return x, nil
}

// PolicyHelp lists the policies of both resolutions, one a line, for the
// CLI's help: the fluid registry's (package sim) and the task level's
// (package cluster/task, every policy registered there), plus the YARN
// files the task level loads.
func PolicyHelp() string {
	var s strings.Builder // every command line builds it: no copy per line
	for _, n := range sim.PolicyNames() {
		info, _ := sim.LookupPolicy(n)
		fmt.Fprintf(&s, "  %-9s %s (uses %s)\n", n, info.Doc, info.Uses)
	}
	s.WriteString("\nTask level (--level task; on the --cluster machines, sizes in container-seconds):\n")
	for _, n := range task.PolicyNames() {
		fmt.Fprintf(&s, "  %-9s %s\n", n, task.PolicyDoc(n))
	}
	for _, n := range PhasePolicyNames() {
		fmt.Fprintf(&s, "  %-9s %s\n", n, phasePolicyDocs[n])
	}
	s.WriteString("  capacity:file=PATH  a capacity-scheduler.xml (queues, node labels, user-limit-factor; jobs placed by its queue mappings)\n")
	s.WriteString("  fair:file=PATH      a fair-scheduler.xml (weights, minResources in containers of 1024 MB, placement policy)\n")
	return s.String()
}
