package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/cluster/task/hpfsp"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/report"
	"github.com/schedplan/schedplan/pipeline/runreport"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
	"github.com/schedplan/schedplan/pipeline/tuner"
	"github.com/schedplan/schedplan/pipeline/validation"
)

// HPFSPTuning is the H-PFSP tuning of a run (the tune-hpfsp stage's
// state): seed 002's FAIR_LIMIT and progress threshold searched at task
// level on the tuning window, with the online EWMA estimator whose prior
// (eq. 18) is the tuning window's mean task time per stage.
type HPFSPTuning struct {
	Best  tasklevel.HPFSPEvaluation   `json:"best"`
	Evals []tasklevel.HPFSPEvaluation `json:"evaluations"`
	// Jobs and Tasks count the task-level jobs tuned on: the tuning
	// window's, its last HPFSPTuneMaxJobs on a longer window (Skipped
	// counts the jobs before them).
	Jobs    int `json:"jobs"`
	Tasks   int `json:"tasks"`
	Skipped int `json:"skipped_jobs,omitempty"`
	// DefaultTaskS is eq. 18's prior task time per stage, in seconds
	// (the tuning window's means); ReportIntervalS the progress-report
	// interval the runs used, in seconds.
	DefaultTaskS    []float64 `json:"default_task_s"`
	ReportIntervalS float64   `json:"report_interval_s"`
}

// Note is what the task-level table's note says of the jobs H-PFSP was
// tuned on when they are not the whole tuning window ("" when they are).
func (h *HPFSPTuning) Note() string {
	if h.Skipped == 0 {
		return ""
	}
	return fmt.Sprintf("; H-PFSP tuned on the tuning window's last %d of %d jobs, %d tasks (HPFSPTuneMaxJobs %d, HPFSPTuneMaxTasks %d, floor HPFSPTuneMinJobs %d)",
		h.Jobs, h.Jobs+h.Skipped, h.Tasks, HPFSPTuneMaxJobs, HPFSPTuneMaxTasks, HPFSPTuneMinJobs)
}

// HPFSPTuneThresholds are the progress thresholds (getStage, Alg. 3) the
// run's tuning tries with every FAIR_LIMIT of DefaultFairLimits: seed
// 002's 0.95 and an earlier switch to the reduce stage's fair phase.
var HPFSPTuneThresholds = []float64{hpfsp.DefaultStageThreshold, 0.8}

// hpfspTuneVersion changes when the H-PFSP tuning changes what it
// computes, so that older stamps are stale.
const hpfspTuneVersion = 9 // 3: jobs in the execution-time model (ExecModelScales); 4: H-PFSP's Algorithm 2 as printed (issue 28); 5: with §II.C's residual slots to other jobs (fallback=ps) by default; 6: Fair breaks queue ties by name; 7: H-PFSP's progress updates in one treap descent (slacks differ by rounding); 8: tuned on the last 50,000 jobs, not 100,000 (HPFSPTuneMaxJobs); 9: and at most HPFSPTuneMaxTasks tasks

// hpfspReportInterval is the progress-report interval of a cluster (the
// hpfsp.HPFSP default: its heartbeat, else hpfsp.DefaultReportInterval).
func hpfspReportInterval(cl *task.Cluster) float64 {
	if cl.Heartbeat > 0 {
		return cl.Heartbeat
	}
	return hpfsp.DefaultReportInterval
}

// HPFSPTuneMaxJobs bounds the jobs H-PFSP is tuned on: the last ones of the
// tuning window (nearest the validation window), so that the grid's cost
// (about 1.5 CPU-s per run per 100,000 jobs) does not grow with the log.
// On the 1 M-job synthetic log the last 25,000, 50,000 and 100,000 jobs
// rank the grid alike and choose the same (FAIR_LIMIT 0, threshold 0.95;
// mean responses within 1% of each other); 50,000 halves the cost of
// 100,000.
var HPFSPTuneMaxJobs = 50000

// HPFSPTuneMaxTasks bounds those jobs' tasks as well (tasklevel.BudgetJobs:
// the grid's cost goes with the tasks): 50,000 jobs of a log without task
// counts make about 65,000 tasks (not cut), of a log with Hadoop's counts
// 750,000–2,000,000. HPFSPTuneMinJobs is the floor: the grid's points are
// ranked by a mean over the jobs (the last 25,000 jobs ranked it as 50,000
// and 100,000 did on the 1 M-job log; 10,000 is a judgement, not
// measured), and a higher floor would let the cost grow with the tasks a
// job again.
var (
	HPFSPTuneMaxTasks = 300_000
	HPFSPTuneMinJobs  = 10_000
)

// TuneHPFSPWindow tunes H-PFSP on a tuning window (tune: its fluid jobs,
// rows 0.. of log, sizes in the units of capacity; its last
// HPFSPTuneMaxJobs when it is longer): its jobs at task level
// on the cluster spec's machines (TaskJobs, TaskCluster; ExecModelScales), every FAIR_LIMIT
// of DefaultFairLimits × HPFSPTuneThresholds (the first threshold only
// when no job has a second stage) under obj, with the online estimator
// (no job's size is read).
func TuneHPFSPWindow(ctx context.Context, log *data.Jobs, tune []sim.Job, capacity float64, spec *cluster.Spec, seed uint64, obj tuner.Objective) (*HPFSPTuning, error) {
	cl, err := tasklevel.TaskCluster(spec)
	if err != nil {
		return nil, err
	}
	lo := max(0, len(tune)-HPFSPTuneMaxJobs)
	return tuneHPFSPJobs(ctx, log, tune[lo:], lo, cl, capacity, spec, seed, obj)
}

// tuneHPFSPJobs is TuneHPFSPWindow of the jobs it may tune on, rows lo..
// of log (tune: their fluid jobs): the last of them within
// HPFSPTuneMaxTasks tasks (at least HPFSPTuneMinJobs jobs).
func tuneHPFSPJobs(ctx context.Context, log *data.Jobs, tune []sim.Job, lo int, cl *task.Cluster, capacity float64, spec *cluster.Spec, seed uint64, obj tuner.Objective) (*HPFSPTuning, error) {
	n, _, err := tasklevel.BudgetJobs(log, tune, lo, capacity, cl.Rate(), HPFSPTuneMaxTasks, HPFSPTuneMinJobs, true)
	if err != nil {
		return nil, err
	}
	lo, tune = lo+len(tune)-n, tune[len(tune)-n:]
	jobs, err := tasklevel.ModelTaskJobs(log, nil, tune, lo, capacity, spec, cl.Rate(), seed)
	if err != nil {
		return nil, err
	}
	h := &HPFSPTuning{Jobs: len(jobs), Skipped: lo, DefaultTaskS: tasklevel.MeanTaskTimes(jobs, cl), ReportIntervalS: hpfspReportInterval(cl)}
	for i := range jobs {
		h.Tasks += jobs[i].NumTasks()
	}
	// The threshold only moves a job from its first stage to the next:
	// with single-stage jobs every threshold schedules alike.
	thresholds := HPFSPTuneThresholds[:1]
	if len(h.DefaultTaskS) > 1 {
		thresholds = HPFSPTuneThresholds
	}
	newEst := tasklevel.HPFSPEstimator(estimate.ProgressConfig{Default: h.DefaultTaskS})
	best, evals, err := tasklevel.TuneHPFSP(ctx, jobs, cl, nil, thresholds, obj, newEst, task.Options{})
	if err != nil {
		return nil, err
	}
	h.Best, h.Evals = best, evals
	return h, nil
}

// TuneHPFSPText is tune --policy hpfsp: TuneHPFSPWindow on the window's
// tuning window, printed as text or, with asJSON, as JSON.
func TuneHPFSPText(ctx context.Context, out io.Writer, w *tasklevel.Window, seed uint64, obj tuner.Objective, asJSON bool) error {
	tune, _ := w.Split.Windows(w.Jobs)
	h, err := TuneHPFSPWindow(ctx, w.Log, tune, w.Capacity, w.Spec, seed, obj)
	if err != nil {
		return err
	}
	if !asJSON {
		h.WriteText(out, w.Log.Source)
		return nil
	}
	b, err := json.MarshalIndent(struct {
		Trace string `json:"trace"`
		*HPFSPTuning
	}{w.Log.Source, h}, "", "  ")
	if err != nil {
		return err
	}
	_, err = out.Write(append(b, '\n'))
	return err
}

// WriteText prints the tuning: every candidate's scores and the choice,
// with the parameters' units.
func (h *HPFSPTuning) WriteText(w io.Writer, source string) {
	fmt.Fprintf(w, "trace %s: H-PFSP tuned at task level on the tuning window (%d jobs, %d tasks); sizes online (%s estimator, eq. 18 prior %s s per stage, progress reports every %g s)\n",
		source, h.Jobs, h.Tasks, bundle.HPFSPOnline, report.FmtFloats(h.DefaultTaskS), h.ReportIntervalS)
	tw := report.NewTable(w, tabwriter.AlignRight)
	fmt.Fprintln(tw, "fair_limit (tasks/stage)\tthreshold (map progress)\tmean response (s)\tp99 (s)\tmean slowdown\tp99 slowdown\tmissed deadlines (vs fair)\t")
	for _, e := range h.Evals {
		sc := e.Score
		fmt.Fprintf(tw, "%d\t%g\t%.4g\t%.4g\t%.4g\t%.4g\t%.2f%%\t\n", e.FairLimit, e.Threshold, sc.Mean, sc.P99, sc.MeanSlowdown, sc.P99Slowdown, 100*sc.Missed)
	}
	tw.Flush()
	fmt.Fprintf(w, "(%s)\n", tasklevel.TaskMetricsNote)
	fmt.Fprintf(w, "tuned H-PFSP: %s (FAIR_LIMIT %d %s, threshold %g %s)\n", h.Best.Config().Spec(), h.Best.FairLimit, bundle.HPFSPFairLimitUnit, h.Best.Threshold, bundle.HPFSPThresholdUnit)
}

// tuneHPFSP: H-PFSP's FAIR_LIMIT and threshold on the tuning window.
func (p *pipelineRun) tuneHPFSP(ctx context.Context) (map[string][]byte, error) {
	in := p.in
	cl, err := tasklevel.TaskCluster(in.Spec)
	if err != nil {
		return nil, fmt.Errorf("h-pfsp: %w", err)
	}
	// The jobs tuned on alone (TuneHPFSPWindow's), not the whole window.
	lo := max(0, in.Split.TuneJobs-HPFSPTuneMaxJobs)
	tune, err := in.Window(lo, in.Split.TuneJobs)
	if err != nil {
		return nil, fmt.Errorf("h-pfsp: %w", err)
	}
	h, err := tuneHPFSPJobs(ctx, in.Jobs, tune, lo, cl, in.Capacity, in.Spec, in.Config.Seed, in.Config.Objective)
	if err != nil {
		return nil, fmt.Errorf("h-pfsp: %w", err)
	}
	p.ht = *h
	return nil, nil
}

// hpfspConfig is the bundle's h_pfsp section of a run (nil before the
// tuning).
func (p *pipelineRun) hpfspConfig() *bundle.HPFSPConfig {
	if p.ht.Evals == nil {
		return nil
	}
	c := p.ht.Best.Config()
	c.FairLimitUnit, c.ThresholdUnit = bundle.HPFSPFairLimitUnit, bundle.HPFSPThresholdUnit
	c.Estimator = bundle.HPFSPOnline
	c.ReportIntervalS = p.ht.ReportIntervalS
	c.DefaultTaskS = p.ht.DefaultTaskS
	return c
}

// hpfspRows are the task-level validation's rows of H-PFSP (the tuned
// parameters, the online estimator with the tuning window's task times as
// eq. 18's prior, validation.TaskPlan.AddRows) and its references — FSP
// with exact sizes (the protective schedule H-PFSP improves on) and Fair
// in one pool (PS: the deadlines it protects) — on the same validation
// window and bounds as the tuned LAS_MQ's row.
func (p *pipelineRun) hpfspRows() []validation.TaskRow {
	return []validation.TaskRow{{Name: runreport.TaskFSPName, Spec: "fsp"}, {Name: runreport.TaskPSName, Spec: "fair"}, {Name: runreport.TaskHPFSPName, Spec: p.ht.Best.Config().Spec()}}
}
