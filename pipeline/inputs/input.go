package inputs

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/data"
	_ "github.com/schedplan/schedplan/data/logs" // the log formats' readers
	"github.com/schedplan/schedplan/data/spark"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
)

// Input is a job log as run, describe and convert read it: its jobs, the
// tasks that go with them (the log's own, or a tasks table given with
// --tasks), and, for another system's log, the reader's summary of what it
// dropped and why.
type Input struct {
	Jobs  *data.Jobs
	Tasks *data.Tasks // nil: no tasks
	// TasksFrom says where the tasks came from: the log itself, or the
	// tasks table's path.
	TasksFrom string
	// TaskJobs counts the jobs that have tasks, OrphanTasks the tasks whose
	// job is not in the log (left out).
	TaskJobs, OrphanTasks int
	// Log is the log reader's summary; nil for a jobs table.
	Log *data.LogSummary
	// Columns says what became of a jobs table's columns (used, ignored
	// and why, failed jobs dropped or kept); nil for another system's log.
	Columns *data.ColumnReport
}

// InputOptions say how to read a job log: the data.Open spec, the reader
// options (format, mapping, the log readers' options) and a tasks table.
type InputOptions struct {
	Trace string
	Read  data.ReadOptions
	// Tasks is a tasks table (Parquet, Arrow or CSV) whose tasks belong to
	// the log's jobs ("": none). Jobs take their task counts and
	// task-seconds from it where the log leaves them out
	// (data.Jobs.FillFromTasks), and the task-level validation runs its
	// tasks as they ran instead of synthesising them (TaskJobsWith).
	Tasks string
}

// LogFormatOf returns the log format of a trace: format when it is a log
// format, else the one detected from the content (data.ResolveFormat); ""
// when the trace is a canonical job log (Parquet, Arrow, CSV, SWIM .tsv,
// embedded).
func LogFormatOf(trace string, format data.Format) data.Format {
	if f, err := data.ResolveFormat(trace, format); err == nil && data.IsLogFormat(f) {
		return f
	}
	return ""
}

// LogFormatNames lists the log formats, comma-separated.
func LogFormatNames() string {
	var names []string
	for _, f := range data.LogFormats() {
		names = append(names, string(f))
	}
	return strings.Join(names, ", ")
}

// CheckLogOptions refuses log-reader options that do not apply to a log of
// format f ("" for a canonical job log): --spark-job makes Spark jobs only
// of a Spark event log. (--keep-failed applies to a jobs table with a
// state column too, which ReadInput checks once it has read the header.)
func CheckLogOptions(o data.LogOptions, f data.Format) error {
	if _, err := data.ParseSparkUnit(string(o.Spark)); err != nil {
		return experiment.ParamErr("spark-job", o.Spark, "%v", err)
	}
	if o.Spark == data.SparkJob && f != spark.Name {
		what := "a jobs table"
		if f != "" {
			what = "a " + string(f) + " log"
		}
		return experiment.ParamErr("spark-job", o.Spark, "the trace is %s, not a Spark event log", what)
	}
	return nil
}

// ReadInput reads a job log (data.Open; a log of another system through
// data.ReadLog, keeping its tasks and its summary) and the tasks table
// o.Tasks, checking the options first. A log that has tasks of its own
// refuses a tasks table (which would be the same tasks twice or other
// ones). On an error reading a log, the Input returned holds the log's
// summary (Log) when the reader got that far.
func ReadInput(o InputOptions) (*Input, error) {
	rf, rerr := data.ResolveFormat(o.Trace, o.Read.Format) // the trace's one detection
	f := rf
	if !data.IsLogFormat(f) {
		f = ""
	}
	if err := CheckLogOptions(o.Read.Log, f); err != nil {
		return nil, err
	}
	in := &Input{}
	if f == "" {
		if rerr != nil {
			return nil, rerr // data.Open's error
		}
		opt := o.Read
		opt.Format = rf
		opt.Columns = func(r *data.ColumnReport) { in.Columns = r }
		j, err := data.Open(o.Trace, opt)
		if err != nil {
			return nil, err
		}
		in.Jobs = j
		if o.Read.Log.KeepFailed && (in.Columns == nil || in.Columns.State == "") {
			return nil, experiment.ParamErr("keep-failed", true, "the trace is a jobs table without a state column (%s), which holds no failed jobs to keep; --keep-failed is for such tables and for logs (--format %s)", strings.Join(data.StateColumns, ", "), LogFormatNames())
		}
		logColumns(in.Columns)
	} else {
		opt := o.Read
		opt.Format = f
		opt.Log.Summary = func(s *data.LogSummary) { c := *s; in.Log = &c }
		lg, err := data.ReadLog(o.Trace, opt)
		if err != nil {
			return in, err // in.Log says what was read and dropped
		}
		in.Jobs, in.Tasks = lg.Jobs, lg.Tasks
		if in.Tasks != nil {
			in.TasksFrom = "the log"
			in.TaskJobs, in.OrphanTasks = countTaskJobs(in.Jobs, in.Tasks)
		}
	}
	if o.Tasks == "" {
		return in, nil
	}
	if in.Tasks != nil {
		return nil, experiment.ParamErr("tasks", o.Tasks, "this %s log has tasks of its own (%d); convert it first, or leave --tasks out", f, in.Tasks.Len())
	}
	t, err := data.ReadTasksFile(o.Tasks, data.ReadOptions{})
	if err != nil {
		return nil, fmt.Errorf("--tasks: %w", err)
	}
	in.Tasks, in.TasksFrom = t, o.Tasks
	in.TaskJobs, in.OrphanTasks = in.Jobs.FillFromTasks(t)
	if in.TaskJobs == 0 {
		return nil, experiment.ParamErr("tasks", o.Tasks, "none of its %d tasks belongs to a job of %s (job_id must match)", t.Len(), in.Jobs.Source)
	}
	if in.OrphanTasks > 0 {
		slog.Warn("tasks whose job is not in the log are left out", "tasks", o.Tasks, "count", in.OrphanTasks)
	}
	if err := checkTaskCover(in.Jobs, o.Tasks, in.TaskJobs); err != nil {
		return nil, err
	}
	return in, nil
}

// checkTaskCover refuses a tasks table that leaves a job without work when
// the sizes come from the tasks' seconds: the job had no task in it and no
// task-seconds of its own (the size estimator then blamed the jobs file's
// task-seconds column, which the user never gave).
func checkTaskCover(j *data.Jobs, tasks string, covered int) error {
	if covered == j.Len() {
		return nil
	}
	if src, err := estimate.SourceOf(j); err != nil || src != estimate.FromTaskSeconds {
		return nil
	}
	for i := 0; i < j.Len(); i++ {
		_, okm := j.MapTaskSeconds.At(i)
		_, okr := j.ReduceTaskSeconds.At(i)
		if !okm && !okr {
			return experiment.ParamErr("tasks", tasks, "covers %d of %d jobs: job %q (row %d of %s) has no task in it, and sizes come from the tasks' seconds: give every job's tasks, or leave --tasks out", covered, j.Len(), j.ID.At(i), i+1, j.Source)
		}
	}
	return nil
}

// countTaskJobs counts the jobs of j that have tasks in t, and the tasks
// of no job of j.
func countTaskJobs(j *data.Jobs, t *data.Tasks) (jobs, orphans int) {
	ids := make(map[string]bool, j.Len())
	for i := 0; i < j.Len(); i++ {
		ids[j.ID.At(i)] = true
	}
	seen := map[string]bool{}
	for i := 0; i < t.Len(); i++ {
		id := t.JobID.At(i)
		switch {
		case !ids[id]:
			orphans++
		case !seen[id]:
			seen[id] = true
			jobs++
		}
	}
	return jobs, orphans
}

// TasksInfo is what a run or describe says of the tasks it read.
type TasksInfo struct {
	From        string `json:"from"`
	Tasks       int    `json:"tasks"`
	Jobs        int    `json:"jobs_with_tasks"`
	OrphanTasks int    `json:"orphan_tasks"`
}

// tasksInfo returns the input's TasksInfo (nil without tasks).
func (in *Input) tasksInfo() *TasksInfo {
	if in.Tasks == nil {
		return nil
	}
	return &TasksInfo{From: in.TasksFrom, Tasks: in.Tasks.Len(), Jobs: in.TaskJobs, OrphanTasks: in.OrphanTasks}
}

// TasksKey is the canonical content of the tasks (nil without), for the
// keys of the stages that read them.
func TasksKey(t *data.Tasks) ([]byte, error) {
	if t == nil {
		return nil, nil
	}
	h := sha256.New()
	if err := data.WriteTasks(h, t, data.FormatArrow); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}

// DescribeInput summarises a log read by ReadInput whose sizes have been
// derived: Describe, with what the log reader dropped and the tasks.
func DescribeInput(in *Input, sizes []float64, src estimate.Source) Workload {
	w := Describe(in.Jobs, sizes, src)
	w.Log, w.Columns = in.Log, in.Columns
	w.Tasks = in.tasksInfo()
	return w
}

// DescribeLog reads a job log (ReadInput), derives its sizes and
// summarises it: `schedplan describe`.
func DescribeLog(o InputOptions, sizes estimate.SizeOptions) (Workload, error) {
	if err := CheckSizeOptions(sizes); err != nil {
		return Workload{}, err
	}
	if f, err := data.ResolveFormat(o.Trace, o.Read.Format); err == nil {
		o.Read.Format = f // detected once: the scan and ReadInput read it as given
	}
	if o.Tasks == "" && !data.IsLogFormat(o.Read.Format) {
		// A jobs log: a Parquet one is scanned a row group at a time.
		// A table with a state column is not scanned (Open drops its
		// failed jobs), so --keep-failed has nothing to keep in one that is.
		if w, err := DescribeScan(o.Trace, o.Read, sizes); !errors.Is(err, data.ErrNotScannable) && !(err == nil && o.Read.Log.KeepFailed) {
			return w, err
		}
	}
	in, err := ReadInput(o)
	if err != nil {
		return Workload{}, err
	}
	s, src, err := estimate.Sizes(in.Jobs, sizes)
	if err != nil {
		return Workload{}, err
	}
	return DescribeInput(in, s, src), nil
}

// CheckWindowsWork refuses a split whose tuning or validation window holds
// no work at all (every job of size 0, as a log of failed jobs kept with
// --keep-failed can give): no bound, gap or slowdown is defined there.
// sizes are the jobs' sizes (the simulation jobs' Size), in log order.
func CheckWindowsWork(sizes []float64, s experiment.Split) error {
	for _, w := range []struct {
		name  string
		sizes []float64
	}{{"tuning", sizes[:s.TuneJobs]}, {"validation", sizes[s.TuneJobs:]}} {
		work := 0.0
		for _, v := range w.sizes {
			work += v
		}
		if !(work > 0) {
			return fmt.Errorf("the %s window's %d jobs have no work (every size is 0); give a larger log or another split", w.name, len(w.sizes))
		}
	}
	return nil
}

// SizedLog is a job log with every job's size (estimate.Sizes): in the
// units Src says, derived with Opt.
type SizedLog struct {
	Jobs  *data.Jobs
	Sizes []float64
	Src   estimate.Source
	Opt   estimate.SizeOptions
}

// ReadSpecAndLog loads the cluster spec (clusterPath, --cluster), then
// checks the size options, reads the job log (trace, with the reader
// options read gives) and derives every job's size: what the commands that
// size a log on a cluster read (classify, capacity, simulate, bounds, tune).
func ReadSpecAndLog(clusterPath, trace string, read func() (data.ReadOptions, error), opt estimate.SizeOptions) (*cluster.Spec, *SizedLog, error) {
	spec, err := cluster.LoadSpec(clusterPath)
	if err != nil {
		return nil, nil, fmt.Errorf("--cluster: %w", err)
	}
	if err := CheckSizeOptions(opt); err != nil {
		return nil, nil, err
	}
	ro, err := read()
	if err != nil {
		return nil, nil, err
	}
	j, err := data.Open(trace, ro)
	if err != nil {
		return nil, nil, err
	}
	sizes, src, err := estimate.Sizes(j, opt)
	if err != nil {
		return nil, nil, err
	}
	if clusterPath == cluster.AutoName {
		spec = tasklevel.AutoClusterSpec(j, sizes, src, opt)
	}
	return spec, &SizedLog{j, sizes, src, opt}, nil
}

// ContainerSeconds returns the sizes in container-seconds of the cluster
// spec (estimate.ContainerSeconds): the unit of the classes' execution
// rates μ and of the COSHH LP.
func (s *SizedLog) ContainerSeconds(spec *cluster.Spec) []float64 {
	return estimate.ContainerSeconds(s.Sizes, s.Src, s.Opt, spec.Capacity())
}

// logColumns logs a jobs table's column report: the columns used at info
// level, each ignored column and the failed jobs dropped as warnings.
func logColumns(r *data.ColumnReport) {
	if r == nil {
		return
	}
	var used []string
	for _, u := range r.Used {
		used = append(used, u.Name)
	}
	slog.Info("columns used", "columns", strings.Join(used, ","))
	for _, c := range r.Ignored {
		slog.Info("column ignored", "column", c.Name, "why", c.Why)
	}
	if n := r.FailedTotal(); n > 0 {
		slog.Warn("failed or killed jobs", "state_column", r.State, "count", n, "kept", r.KeptFailed, "default", "dropped; --keep-failed keeps them")
	}
}
