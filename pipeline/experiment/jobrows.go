package experiment

import (
	"fmt"
	"math"
	"slices"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/data"
)

// JobRows accumulates per-job results of several runs (policy × run) for a
// results file: one row per job and run.
type JobRows struct {
	Policy     []string
	Run        []int32
	Job        []int32 // index into the job list
	Arrival    []float64
	Size       []float64
	Estimate   []float64
	Completion []float64
	Response   []float64
	Slowdown   []float64 // NaN for zero-size jobs
	Deadline   []float64 // PS completion time (task level: the reference scheduler's, task.ReferenceDeadlines); NaN when not computed
	Missed     []bool
}

// appendRun adds one run's rows: its jobs, their completion times and
// responses (resp) and the PS deadlines (nil: none), each job's slowdown
// (over alone's times) and missed deadline computed from its response on
// capacity c as sim.Metrics computes them, not read from a Metrics'
// columns (which a worker then need not keep: 25 B a job); est[i] is job
// i's estimate (nil: the jobs').
func (r *JobRows) appendRun(policy string, run int, jobs []sim.Job, est, completion, resp []float64, c float64, alone *sim.Alone, deadlines []float64) {
	r.appendJobs(policy, run, jobs, est, completion, resp, c, alone, deadlines, 0, len(jobs), nil)
}

// appendJobs is appendRun of jobs [lo, hi) alone, skipping the jobs for
// which keep (when not nil) is false.
func (r *JobRows) appendJobs(policy string, run int, jobs []sim.Job, est, completion, resp []float64, c float64, alone *sim.Alone, deadlines []float64, lo, hi int, keep func(i int) bool) {
	for i := lo; i < hi; i++ {
		if keep != nil && !keep(i) {
			continue
		}
		j := &jobs[i]
		d, missed := math.NaN(), false
		if deadlines != nil {
			d = deadlines[i]
			_, missed = sim.MissedDeadline(j.Arrival, completion[i], d)
		}
		r.appendOne(policy, run, i, *j, estimateOf(jobs, est, i), completion[i], resp[i], alone.Slowdown(i, j, resp[i], c), d, missed)
	}
}

// estimateOf is job i's estimate: est[i], or without a column the job's.
func estimateOf(jobs []sim.Job, est []float64, i int) float64 {
	if est != nil {
		return est[i]
	}
	return jobs[i].Estimate
}

// appendOne adds job i's row: est its estimate, resp its response,
// slowdown its slowdown, d its deadline (NaN: none) and missed whether it
// missed it.
func (r *JobRows) appendOne(policy string, run, i int, j sim.Job, est, completion, resp, slowdown, d float64, missed bool) {
	r.Policy = append(r.Policy, policy)
	r.Run = append(r.Run, int32(run))
	r.Job = append(r.Job, int32(i))
	r.Arrival = append(r.Arrival, j.Arrival)
	r.Size = append(r.Size, j.Size)
	r.Estimate = append(r.Estimate, est)
	r.Completion = append(r.Completion, completion)
	r.Response = append(r.Response, resp)
	r.Slowdown = append(r.Slowdown, slowdown)
	r.Deadline = append(r.Deadline, d)
	r.Missed = append(r.Missed, missed)
}

// appendRow adds row k of src.
func (r *JobRows) appendRow(src *JobRows, k int) { r.appendRange(src, k, k+1) }

// Reset empties the rows, keeping their buffers.
func (r *JobRows) Reset() {
	r.Policy, r.Run, r.Job = r.Policy[:0], r.Run[:0], r.Job[:0]
	r.Arrival, r.Size, r.Estimate = r.Arrival[:0], r.Size[:0], r.Estimate[:0]
	r.Completion, r.Response, r.Slowdown = r.Completion[:0], r.Response[:0], r.Slowdown[:0]
	r.Deadline, r.Missed = r.Deadline[:0], r.Missed[:0]
}

// AppendRows appends all of src's rows.
func (r *JobRows) AppendRows(src *JobRows) { r.appendRange(src, 0, len(src.Policy)) }

// appendRange appends src's rows lo..hi−1.
func (r *JobRows) appendRange(src *JobRows, lo, hi int) {
	r.Policy = append(r.Policy, src.Policy[lo:hi]...)
	r.Run = append(r.Run, src.Run[lo:hi]...)
	r.Job = append(r.Job, src.Job[lo:hi]...)
	r.Arrival = append(r.Arrival, src.Arrival[lo:hi]...)
	r.Size = append(r.Size, src.Size[lo:hi]...)
	r.Estimate = append(r.Estimate, src.Estimate[lo:hi]...)
	r.Completion = append(r.Completion, src.Completion[lo:hi]...)
	r.Response = append(r.Response, src.Response[lo:hi]...)
	r.Slowdown = append(r.Slowdown, src.Slowdown[lo:hi]...)
	r.Deadline = append(r.Deadline, src.Deadline[lo:hi]...)
	r.Missed = append(r.Missed, src.Missed[lo:hi]...)
}

// Table returns the rows as a results table (snake_case columns); ids, when
// not nil, names the jobs (ids[Job[k]] becomes column job_id).
func (r *JobRows) Table(ids []string) *data.Table {
	if ids == nil {
		return r.table(nil)
	}
	return r.table(func(j int32) string { return ids[j] })
}

// table is Table with the job ids given by a function (nil: no job_id).
func (r *JobRows) table(id func(j int32) string) *data.Table {
	t := &data.Table{}
	t.Add("policy", r.Policy)
	t.Add("run", r.Run)
	t.Add("job", r.Job)
	if id != nil {
		col := make([]string, len(r.Job))
		for k, j := range r.Job {
			col[k] = id(j)
		}
		t.Add(data.ColJobID, col)
	}
	t.Add("arrival", r.Arrival)
	t.Add("size", r.Size)
	t.Add("estimate", r.Estimate)
	t.Add("completion", r.Completion)
	t.Add("response", r.Response)
	t.Add("slowdown", r.Slowdown)
	t.Add("ps_deadline", r.Deadline)
	t.Add("missed_deadline", r.Missed)
	return t
}

// JobsOf turns a jobs table and its sizes into simulation jobs: arrival =
// submit time, size = the derived size, estimate = size (exact; error models
// replace it), weight = the job's priority times, when spec is not nil and the
// log names users, its user's weight in spec (User.EffectiveWeight), and
// containers = the log's maps and reduces at task.DefaultMapContainers and
// task.DefaultReduceContainers each, as the task level runs them (0 when
// the log gives no task counts: LAS_MQ's containers order then has
// nothing to go by, sim.OrderContainers).
func JobsOf(j *data.Jobs, sizes []float64, spec *cluster.Spec) ([]sim.Job, error) {
	return JobsOfRange(j, sizes, spec, 0, len(sizes))
}

// JobsOfRange is JobsOf's jobs lo to hi−1 alone (out[i] is row lo+i),
// the same bits as JobsOf's: a stage that needs one window builds it
// without the whole log's jobs (inputs.Inputs.Window).
func JobsOfRange(j *data.Jobs, sizes []float64, spec *cluster.Spec, lo, hi int) ([]sim.Job, error) {
	r, err := NewJobRange(j, sizes, spec)
	if err != nil {
		return nil, err
	}
	return r.Jobs(lo, hi)
}

// JobRange builds JobsOf's jobs of any range of rows (Jobs), each user's
// weight looked up in the spec once, not at every range: a caller that
// builds many small ranges (the tuner's blocks) pays for their rows alone.
// It is safe for concurrent use.
type JobRange struct {
	j     *data.Jobs
	sizes []float64
	// userW is each user's weight by the code of its name in the user
	// column (the last slot: no user, data.DefaultUser); nil without a
	// spec or a user column.
	userW []float64
}

// NewJobRange checks the log's sizes and looks up its users' weights.
func NewJobRange(j *data.Jobs, sizes []float64, spec *cluster.Spec) (*JobRange, error) {
	if len(sizes) != j.Len() {
		return nil, fmt.Errorf("%s: %d sizes for %d jobs", j.Source, len(sizes), j.Len())
	}
	r := &JobRange{j: j, sizes: sizes}
	if spec != nil && j.User.Present() {
		r.userW = make([]float64, len(j.User.Values)+1)
		for c, n := range j.User.Values {
			r.userW[c] = spec.User(n).EffectiveWeight()
		}
		r.userW[len(j.User.Values)] = spec.User(data.DefaultUser).EffectiveWeight()
	}
	return r, nil
}

// Jobs returns rows [lo, hi)'s jobs, a slice of their own.
func (r *JobRange) Jobs(lo, hi int) ([]sim.Job, error) { return r.JobsInto(nil, lo, hi) }

// JobsInto is Jobs in buf's array when it holds them (every field of
// every job written: the same bits), else in a new one.
func (r *JobRange) JobsInto(buf []sim.Job, lo, hi int) ([]sim.Job, error) {
	j, sizes := r.j, r.sizes
	if lo < 0 || lo > hi || hi > len(sizes) {
		return nil, fmt.Errorf("%s: rows [%d, %d) outside the log's %d jobs", j.Source, lo, hi, len(sizes))
	}
	out := buf[:0]
	if cap(out) < hi-lo {
		out = make([]sim.Job, hi-lo)
	}
	out = out[:hi-lo]
	for k := range out {
		i := lo + k
		out[k] = sim.Job{Arrival: j.Submit[i], Size: sizes[i], Estimate: sizes[i], Weight: r.Weight(i), Containers: logContainers(j, i)}
	}
	return out, nil
}

// Weight is row i's job's weight (Jobs' Weight, the same bits) without
// building the job: its priority times its user's weight in the spec.
func (r *JobRange) Weight(i int) float64 {
	j := r.j
	w := float64(j.PriorityAt(i))
	if r.userW != nil {
		c := j.User.Codes[i]
		if c < 0 {
			c = int32(len(j.User.Values))
		}
		w *= r.userW[c]
	}
	return w
}

// Slice returns a copy of rows [lo, hi).
func (r *JobRows) Slice(lo, hi int) *JobRows {
	return &JobRows{
		Policy: slices.Clone(r.Policy[lo:hi]), Run: slices.Clone(r.Run[lo:hi]), Job: slices.Clone(r.Job[lo:hi]),
		Arrival: slices.Clone(r.Arrival[lo:hi]), Size: slices.Clone(r.Size[lo:hi]), Estimate: slices.Clone(r.Estimate[lo:hi]),
		Completion: slices.Clone(r.Completion[lo:hi]), Response: slices.Clone(r.Response[lo:hi]), Slowdown: slices.Clone(r.Slowdown[lo:hi]),
		Deadline: slices.Clone(r.Deadline[lo:hi]), Missed: slices.Clone(r.Missed[lo:hi]),
	}
}

// HasContainersRange reports whether some job of rows [lo, hi) has
// containers by the log's task counts: sim.HasContainers of JobsOfRange's
// jobs, without building them.
func HasContainersRange(j *data.Jobs, lo, hi int) bool {
	for i := lo; i < hi; i++ {
		if logContainers(j, i) > 0 {
			return true
		}
	}
	return false
}

// logContainers is the containers of job i's tasks by the log's task
// counts (see JobsOf), 0 without them.
func logContainers(j *data.Jobs, i int) float64 {
	m, okm := j.MapTasks.At(i)
	r, okr := j.ReduceTasks.At(i)
	if !okm && !okr {
		return 0
	}
	return float64(max(m, 0))*task.DefaultMapContainers + float64(max(r, 0))*task.DefaultReduceContainers
}
