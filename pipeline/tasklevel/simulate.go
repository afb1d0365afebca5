package tasklevel

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/cluster/task/prism"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/report"
)

// Window is a window of a job log prepared for fluid simulation: its jobs
// with sizes and the users' weights of the cluster spec, the capacity in the
// units of the sizes, and the offered load there.
type Window struct {
	Log  *data.Jobs
	Name string // all, tune or validate
	Jobs []sim.Job
	// First is the log row of Jobs[0]; Split is the log's tune/validate
	// split (SplitErr says why there is none).
	First    int
	Split    experiment.Split
	SplitErr error
	// Capacity is in the units of the sizes (RunCapacity), CapacityFrom
	// says where it came from, OfferedLoad is the window's load there.
	Capacity     float64
	CapacityFrom string
	OfferedLoad  float64
	// Spec is the cluster spec (its machines for the task level).
	Spec *cluster.Spec
}

// OpenWindow prepares window ("all", "tune" or "validate", split at the
// fraction split) of a log whose sizes were derived with opt, at capacity
// (0: SimCapacity of spec). A load above 1 is logged as a warning.
func OpenWindow(j *data.Jobs, sizes []float64, src estimate.Source, opt estimate.SizeOptions, spec *cluster.Spec, capacity, split float64, window string) (*Window, error) {
	if !(capacity >= 0) {
		return nil, experiment.ParamErr("capacity", capacity, "want a positive capacity, or 0 for the cluster spec's")
	}
	w := &Window{Log: j, Name: window, Spec: spec}
	var err error
	if w.Capacity, w.CapacityFrom, err = RunCapacity(capacity, src, opt, spec); err != nil {
		return nil, err
	}
	all, err := experiment.JobsOf(j, sizes, spec)
	if err != nil {
		return nil, err
	}
	if err := CheckClock(all, w.Capacity, w.CapacityFrom); err != nil {
		return nil, err
	}
	w.Jobs = all
	if w.Split, err = experiment.SplitByTime(all, split); err != nil {
		w.SplitErr = experiment.ParamErr("split", split, "%s: %v", j.Source, err)
	}
	switch window {
	case "all":
	case "tune", "validate":
		if w.SplitErr != nil {
			return nil, w.SplitErr
		}
		if msg := experiment.SmallWindowWarning(w.Split); msg != "" {
			slog.Warn(msg)
		}
		if tune, val := w.Split.Windows(all); window == "tune" {
			w.Jobs = tune
		} else {
			w.Jobs, w.First = val, w.Split.TuneJobs
		}
	default:
		return nil, experiment.ParamErr("window", window, "use all, tune or validate")
	}
	w.OfferedLoad = experiment.OfferedLoad(w.Jobs, w.Capacity)
	if msg := w.Warning(); msg != "" {
		slog.Warn(msg)
	}
	return w, nil
}

// Warning says when the window is overloaded ("" otherwise).
func (w *Window) Warning() string { return OverloadWarning(w.OfferedLoad, w.Capacity, w.CapacityFrom) }

// IDs returns the job ids of the window's jobs.
func (w *Window) IDs() []string {
	ids := make([]string, len(w.Jobs))
	for i := range ids {
		ids[i] = w.Log.ID.At(w.First + i)
	}
	return ids
}

// SimulateReport is what `schedplan simulate` prints: every policy's runs
// aggregated (the same aggregates as the validation table).
type SimulateReport struct {
	Trace        string                 `json:"trace"`
	Window       string                 `json:"window"`
	Jobs         int                    `json:"jobs"`
	Capacity     float64                `json:"capacity"`
	CapacityFrom string                 `json:"capacity_from"`
	OfferedLoad  *float64               `json:"offered_load"` // null when undefined (one arrival instant)
	Overloaded   bool                   `json:"overloaded"`
	Warning      string                 `json:"warning,omitempty"`
	Errors       string                 `json:"estimation_errors"`
	Seed         uint64                 `json:"seed"`
	Policies     []experiment.Aggregate `json:"policies"`
	// Note says what slowdowns and missed deadlines are at task level
	// (TaskMetricsNote); empty for the fluid level.
	Note string `json:"note,omitempty"`
	// TaskRuns are the task-level engine's events, tasks and wall time per
	// policy (task level; not the phase-level policies).
	TaskRuns []TaskRunStats `json:"task_runs,omitempty"`
	// Phase holds the phase-level policies' seed 004 metrics (task level).
	Phase         []PhaseMetrics `json:"phase_level,omitempty"`
	phaseMachines []prism.Vector
}

// SimulateExperiment is the experiment simulate runs on a window at
// resolution res (nil: fluid; see Window.AtLevel): the policies with PS
// deadlines, Runs runs of the error model (one when it is exact), per-job
// rows when rows is set. At task level the deadlines are the reference
// scheduler's completions with a tolerance (TaskLevel.ReferenceDeadlines).
func SimulateExperiment(w *Window, res experiment.Resolution, policies []string, m estimate.ErrorModel, runs int, seed uint64, rows bool) (*experiment.Experiment, error) {
	var deadlines []float64
	var alone sim.Alone
	var err error
	if tl, ok := res.(*TaskLevel); ok {
		deadlines, err = tl.ReferenceDeadlines(context.Background())
		alone = tl.fluidAlone()
	} else {
		deadlines, err = experiment.PSDeadlines(w.Jobs, w.Capacity)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", w.Log.Source, err)
	}
	if m.IsExact() && runs > 1 {
		slog.Info("exact sizes: every run would be the same; running once")
		runs = 1
	}
	return &experiment.Experiment{Jobs: w.Jobs, Capacity: w.Capacity, Deadlines: deadlines, Alone: alone, Policies: policies,
		Errors: m, Runs: runs, Seed: seed, KeepRows: rows, Resolution: res}, nil
}

// Simulate runs the experiment on the window and returns the report and,
// when the experiment keeps rows, the per-job results table.
func Simulate(ctx context.Context, w *Window, x *experiment.Experiment, opt experiment.RunOptions) (*SimulateReport, *data.Table, error) {
	res, err := x.Run(ctx, opt)
	if err != nil {
		return nil, nil, err
	}
	rep := &SimulateReport{Trace: w.Log.Source, Window: w.Name, Jobs: len(w.Jobs), Capacity: w.Capacity, CapacityFrom: w.CapacityFrom,
		OfferedLoad: report.FinitePtr(w.OfferedLoad), Overloaded: w.OfferedLoad > 1, Warning: w.Warning(), Errors: x.Errors.String(), Seed: x.Seed}
	if tl, ok := x.Resolution.(*TaskLevel); ok {
		rep.Phase, rep.phaseMachines = tl.PhaseMetricsOf(x.Policies), tl.Machines
		rep.TaskRuns = tl.TaskRunStatsOf(x.Policies)
		rep.Note = "task level: " + TaskMetricsNote
	}
	rows := &experiment.JobRows{}
	for _, p := range res.Policies {
		rep.Policies = append(rep.Policies, p.Aggregate())
		if p.Rows != nil {
			rows.AppendRows(p.Rows)
		}
	}
	if !x.KeepRows {
		return rep, nil, nil
	}
	return rep, rows.Table(w.IDs()), nil
}

// BoundsRow is one policy measured against the bounds.
type BoundsRow struct {
	Policy      string  `json:"policy"`
	Mean        float64 `json:"mean_response"`
	Gap         float64 `json:"gap_to_lower_bound"` // mean / SRPT mean − 1
	Missed      int     `json:"missed_deadlines"`
	MissedShare float64 `json:"missed_share"`
	MaxLate     float64 `json:"max_lateness_s"`
}

// MeasureBounds computes the window's bounds and measures each policy
// against them (exact sizes).
func MeasureBounds(ctx context.Context, w *Window, policies []string) (*experiment.Bounds, []BoundsRow, error) {
	b, err := experiment.ComputeBounds(w.Jobs, w.Capacity)
	if err != nil {
		return nil, nil, err
	}
	x := &experiment.Experiment{Jobs: w.Jobs, Capacity: w.Capacity, Deadlines: b.Deadlines, Policies: policies, Runs: 1}
	res, err := x.Run(ctx, experiment.RunOptions{})
	if err != nil {
		return nil, nil, err
	}
	var rows []BoundsRow
	for _, p := range res.Policies {
		s := p.Summaries[0]
		rows = append(rows, BoundsRow{Policy: p.Policy, Mean: s.Response.Mean, Gap: b.Gap(s.Response.Mean),
			Missed: s.Missed, MissedShare: s.MissedShare, MaxLate: s.MaxLate})
	}
	return b, rows, nil
}

// DeadlinesTable is the window's jobs with their PS deadlines.
func (w *Window) DeadlinesTable(b *experiment.Bounds) *data.Table {
	n := len(w.Jobs)
	arr, size := make([]float64, n), make([]float64, n)
	for i, j := range w.Jobs {
		arr[i], size[i] = j.Arrival, j.Size
	}
	return &data.Table{Names: []string{data.ColJobID, "arrival", "size", "ps_deadline"}, Cols: []any{w.IDs(), arr, size, b.Deadlines}}
}
