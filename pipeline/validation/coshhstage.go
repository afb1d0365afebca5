package validation

import (
	"bytes"
	"context"
	"log/slog"
	"math"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/cluster/task/coshh"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/report"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
)

// COSHH's tuning grid (the tune-coshh stage): every k of COSHHKGrid with
// every re-classification tolerance of COSHHToleranceGrid, each a
// classification and two LP solves on the first half of the tuning window
// (at most its last COSHHGridFitMaxJobs jobs before the simulated ones; one
// fit per k, which the tolerances share) and a task-level simulation of
// COSHH on its second half (at most COSHHGridMaxJobs jobs) — 10 runs of at
// most 5,000 jobs; on the embedded trace about a third of run's CPU time
// more (see the README).
var (
	COSHHKGrid         = []int{2, 4, 6, 8, 12}
	COSHHToleranceGrid = []float64{0.5, 2}
)

// COSHHMinTuneJobs is the fewest tuning-window jobs COSHH is tuned on (half
// to fit, half to simulate); with fewer the grid's first point is used,
// fitted on the whole tuning window. COSHHGridMaxJobs bounds the jobs a
// grid point simulates (the last of the tuning window) and
// COSHHGridFitMaxJobs the jobs its classes are fitted on (the last ones
// before those simulated), so that the grid's cost does not grow with the
// log; the chosen point is then fitted on the whole tuning window.
//
// COSHHValidateMaxJobs bounds the jobs of the validation window that the
// COSHH comparison (COSHH, FIFO and Fair with the execution-time model)
// simulates: the first ones of the window. On Table 3's cluster most logs
// overload the model's machines, and the task-level simulation of an
// ever-growing backlog does not stay linear in the jobs (a 1 M-job log's
// 300,000-job window ran for over 10 minutes); the table's note says when
// the window was cut.
const (
	COSHHMinTuneJobs     = 40
	COSHHGridMaxJobs     = 5000
	COSHHGridFitMaxJobs  = 50000
	COSHHValidateMaxJobs = 20000
)

// COSHHGridMaxTasks and COSHHValidateMaxTasks bound the tasks of those
// simulated windows as well (WindowBudget: the engine's cost goes with the
// tasks, and an overloaded backlog with them); 5,000 and 20,000 jobs of a
// log without task counts make about 6,500 and 26,000 tasks (not cut), of
// a log with Hadoop's counts 15–40 times more. COSHHGridMinJobs and
// COSHHValidateMinJobs are their floors: the grid ranks points by a mean
// completion time, and the comparison states means and p99s over at least
// 5,000 jobs (50 beyond the p99).
var (
	COSHHGridMaxTasks     = 40_000
	COSHHGridMinJobs      = 2_000
	COSHHValidateMaxTasks = 150_000
	COSHHValidateMinJobs  = 5_000
)

// COSHHGridPoint is one point of COSHH's tuning grid: the mean completion
// time (s) of COSHH on the tuning window's last SimJobs jobs, the classes
// its plan ended with and its re-classifications; Error when the point
// could not be fitted or simulated.
type COSHHGridPoint struct {
	K              int     `json:"k"`
	Tolerance      float64 `json:"tolerance"`
	MeanCompletion float64 `json:"mean_completion_s"`
	Classes        int     `json:"classes"`
	Replans        int     `json:"reclassifications"`
	Lambda         float64 `json:"lambda"`
	// OfferedLoad is the simulated window's load with the execution-time
	// model (ExecTimeLoad; null when undefined or not simulated).
	OfferedLoad *float64 `json:"offered_load,omitempty"`
	Error       string   `json:"error,omitempty"`
}

// COSHHState is the tune-coshh stage's state: the grid and the chosen fit
// (on the whole tuning window), or Note saying why there is none.
type COSHHState struct {
	Grid []COSHHGridPoint `json:"grid"`
	Fit  *COSHHFit        `json:"fit,omitempty"`
	// FitJobs and SimJobs are the grid's windows: fitted on rows
	// [FitFrom, FitJobs), simulated on the next SimJobs.
	FitFrom int    `json:"fit_from,omitempty"`
	FitJobs int    `json:"fit_jobs"`
	SimJobs int    `json:"sim_jobs"`
	Note    string `json:"note,omitempty"`
}

// COSHHSizes are the log's sizes in container-seconds of the spec (what the
// classify stage classifies).
func COSHHSizes(in *inputs.Inputs) []float64 {
	return estimate.ContainerSeconds(in.Sizes, in.Source, in.Config.Sizes, in.Spec.Capacity())
}

// COSHHGridPointOf simulates COSHH with tolerance tol on rows [h, lo) from
// fit (k classes fitted before h; fitErr when it could not be fitted).
func COSHHGridPointOf(in *inputs.Inputs, sizes []float64, fit *COSHHFit, fitErr error, h, lo, k int, tol float64) COSHHGridPoint {
	pt := COSHHGridPoint{K: k, Tolerance: tol}
	fail := func(err error) COSHHGridPoint { pt.Error = err.Error(); return pt }
	if fitErr != nil {
		return fail(fitErr)
	}
	f := *fit // the tolerances share the fit; each run replans its own copy
	f.Tolerance = tol
	fit = &f
	w, err := NewCOSHHWindow(in, sizes, h, lo, fit.Secondary.SizeFloor)
	if err != nil {
		return fail(err)
	}
	c, q, err := w.COSHHPolicyOf(fit, nil, true)
	if err != nil {
		return fail(err)
	}
	r, err := w.Run(context.Background(), c, q) // at most COSHHGridMaxJobs jobs; tuneCOSHH looks at ctx between points
	if err != nil {
		return fail(err)
	}
	pt.MeanCompletion, pt.Replans, pt.Lambda = r.Metrics.MeanCompletion, r.Replans, fit.Lambda
	load, _ := tasklevel.ExecTimeLoad(w.Jobs, w.Cluster)
	pt.OfferedLoad = report.FinitePtr(load)
	pt.Classes = len(r.Fit.Secondary.Classes)
	return pt
}

// COSHHValidation is COSHH beside FIFO and Fair on the validation window
// at task level, every job's speed on each machine type from the
// execution-time model (seed 003 §5's setting), COSHH routing by the plan
// read back from the emitted schedplan.yaml: seed 003 §5.1's metrics for
// the whole window (Runs: COSHH, FIFO, Fair), per user and per class (the
// plan's secondary classes, by nearest centre), and the plan.
type COSHHValidation struct {
	K         int     `json:"k"`
	Tolerance float64 `json:"tolerance"`
	// Horizon (s) is the common end of the time averages: the last
	// completion of any of the runs.
	Horizon float64 `json:"horizon_s"`
	// FirstArrival (s) is the start of the time averages: the window's
	// first arrival.
	FirstArrival float64 `json:"first_arrival_s"`
	// OfferedLoad is the window's load with the execution-time model
	// (ExecTimeLoad, ExecLoadDef: every job spread over the cluster, as
	// FIFO and Fair place it) and OfferedLoadBound the least any placement
	// needs; null when undefined.
	OfferedLoad      *float64         `json:"offered_load"`
	OfferedLoadBound *float64         `json:"offered_load_bound"`
	Runs             []COSHHMetricRow `json:"runs"`
	Users            []COSHHMetricRow `json:"users"`
	Classes          []COSHHMetricRow `json:"classes"`
	// FinalClasses is the number of classes COSHH's plan had at the end of
	// the run (re-classifications add classes).
	FinalClasses int    `json:"final_classes"`
	Note         string `json:"note"`
	// MachineTypes is the number of machine types of the cluster spec:
	// with one, COSHH's row says it is for heterogeneous clusters
	// (COSHHRowNote).
	MachineTypes int `json:"machine_types"`
	// Grid is the tuning grid (fitted on FitJobs jobs — the last ones
	// before those simulated, at most COSHHGridFitMaxJobs —, simulated on
	// the next SimJobs of the tuning window).
	Grid    []COSHHGridPoint `json:"grid"`
	FitJobs int              `json:"grid_fit_jobs"`
	SimJobs int              `json:"grid_sim_jobs"`
}

// COSHHMetricRow is one configuration's seed 003 §5.1 metrics over a scope
// (all jobs, one user or one class): jobs, mean completion − arrival (s),
// Dissatisfaction and Fairness (variance of share/weight over the active
// users; FairnessAbs is seed 003's Σ|Δ − avg|) — scope "all" and "user"
// only; for "all", Dissatisfaction and FairnessAbs are seed 003's,
// averaged over the run's job completions (coshh.COSHHRunMetrics
// .PaperDissatisfaction), the rest time averages —, map tasks and local ones (Locality = 100·local/maps,
// %), the user's mean containers, and COSHH's overhead: Alg. 1 runs, Alg.
// 2 decisions, re-classifications and LP solves (zero for the baselines).
// Wall-clock times are not kept here (they differ between identical runs:
// logged by the run).
type COSHHMetricRow struct {
	Config          string  `json:"configuration"`
	Scope           string  `json:"scope"`
	Key             string  `json:"key"`
	Jobs            int     `json:"jobs"`
	MeanCompletion  float64 `json:"mean_completion_s"`
	Dissatisfaction float64 `json:"dissatisfaction"`
	Fairness        float64 `json:"fairness_share_variance"`
	FairnessAbs     float64 `json:"fairness_abs_dev"`
	MapTasks        int     `json:"map_tasks"`
	LocalMapTasks   int     `json:"local_map_tasks"`
	MeanContainers  float64 `json:"mean_containers"`
	Alg1Runs        int     `json:"alg1_runs"`
	Alg2Decisions   int     `json:"alg2_decisions"`
	Replans         int     `json:"reclassifications"`
	LPSolves        int     `json:"lp_solves"`
}

// Locality returns the row's share of local map tasks in percent (NaN
// without map tasks).
func (r COSHHMetricRow) Locality() float64 {
	return coshh.COSHHLocality{Maps: r.MapTasks, Local: r.LocalMapTasks}.Percent()
}

// COSHHRowNames are the task-level validation rows of COSHH's comparison.
var COSHHRowNames = []string{"coshh (emitted plan; exec-time model)", "fifo (exec-time model)", "fair (exec-time model)"}

// COSHHOneTypeNote is said beside COSHH's rows when the cluster spec has
// one machine type (as --cluster auto's is): COSHH matches job classes to
// machine types (seed 003); with one type every class gets the same
// machines, each served in arrival order, so its row is FIFO-like and no
// judgement of COSHH.
const COSHHOneTypeNote = "one machine type: COSHH is for heterogeneous clusters, FIFO-like here"

// COSHHRowNote returns the note for COSHH's rows on a cluster spec of
// types machine types: COSHHOneTypeNote with one, else "".
func COSHHRowNote(types int) string {
	if types == 1 {
		return COSHHOneTypeNote
	}
	return ""
}

// TaskRowName is the name of the task-level validation row of run k
// (COSHHRowNames: COSHH, FIFO, Fair); COSHH's carries COSHHRowNote.
func (v *COSHHValidation) TaskRowName(k int) string {
	if note := COSHHRowNote(v.MachineTypes); k == 0 && note != "" {
		return "coshh (emitted plan; " + note + "; exec-time model)"
	}
	return COSHHRowNames[k]
}

// RowName is the name a COSHH comparison row of scheduler config is shown
// under: COSHH's carries COSHHRowNote.
func (v *COSHHValidation) RowName(config string) string {
	if note := COSHHRowNote(v.MachineTypes); config == "coshh" && note != "" {
		return config + " (" + note + ")"
	}
	return config
}

// COSHHValidationRow is a run as a task-level validation row (responses in
// seconds; slowdowns over each job's time alone on the window's cluster,
// fluid: task.FluidJobs of the window's jobs, alone: task.FluidAlone of
// them on its cluster; dl, when not nil, the jobs' deadlines,
// task.ReferenceDeadlines; the bounds b are the fluid ones at the cluster's
// rate, lower bounds still, as the execution-time model only slows tasks
// down).
func COSHHValidationRow(name, policy string, fluid []sim.Job, alone sim.Alone, w *COSHHWindow, r *COSHHRun, b *experiment.Bounds, dl []float64) ValidationRow {
	m := sim.Metrics{Alone: alone}
	s := m.Compute(fluid, r.Result.Completion, w.Cluster.Rate(), dl)
	a := experiment.Aggregate{Policy: policy, Runs: 1, Mean: s, MeanResponse: experiment.Spread{Min: s.Response.Mean, P50: s.Response.Mean, Max: s.Response.Mean}, Missed: float64(s.Missed)}
	if b == nil {
		b = &experiment.Bounds{}
	}
	row := ValidationRowOf(name, 0, a, b)
	row.Policy = policy + ", exec-time model"
	return row
}

// MetricRows adds a run's rows: all jobs, each user, each class.
func (v *COSHHValidation) MetricRows(name string, r *COSHHRun, jobs []task.Job, classOf []int, classes int) {
	m, h := r.Metrics, v.Horizon
	all := COSHHMetricRow{Config: name, Scope: "all", Jobs: len(jobs), MeanCompletion: m.MeanCompletion,
		Alg1Runs: m.Overhead.Arrivals, Alg2Decisions: m.Overhead.Picks, Replans: r.Replans, LPSolves: r.LPSolves}
	if m.Shares != nil {
		// Seed 003 §5.1's Dissatisfaction and Fairness where the paper
		// evaluates them, at the run's job completions (§5.2); the share
		// variance, not the paper's, over [first arrival, horizon].
		all.Dissatisfaction, all.Fairness, all.FairnessAbs = m.PaperDissatisfaction, m.Shares.ShareVariance(h), m.PaperFairness
	}
	perJob := func(keep func(j int) bool) (maps, local int) {
		for j, l := range m.JobLocality {
			if keep(j) {
				maps, local = maps+l.Maps, local+l.Local
			}
		}
		return maps, local
	}
	all.MapTasks, all.LocalMapTasks = perJob(func(int) bool { return true })
	v.Runs = append(v.Runs, all)
	for u, um := range m.Users {
		row := COSHHMetricRow{Config: name, Scope: "user", Key: um.Name, Jobs: um.Jobs, MeanCompletion: um.MeanCompletion}
		if m.Shares != nil {
			row.Dissatisfaction, row.MeanContainers = m.Shares.User(u, h)
		}
		row.MapTasks, row.LocalMapTasks = perJob(func(j int) bool { return jobs[j].User == um.Name })
		v.Users = append(v.Users, row)
	}
	for c := 0; c < classes; c++ {
		row := COSHHMetricRow{Config: name, Scope: "class", Key: bundle.ClassName(c)}
		for j := range jobs {
			if classOf[j] == c {
				row.Jobs++
				row.MeanCompletion += r.Result.Completion[j] - jobs[j].Arrival
			}
		}
		if row.Jobs > 0 {
			row.MeanCompletion /= float64(row.Jobs)
		}
		row.MapTasks, row.LocalMapTasks = perJob(func(j int) bool { return classOf[j] == c })
		v.Classes = append(v.Classes, row)
	}
}

// LogOverhead logs a run's wall-clock scheduler overhead (ms): COSHH's
// Alg. 1 and Alg. 2 calls, its re-classifications (k-means and LP) and
// the LP re-solves alone, and the core's scheduling rounds (every policy).
// It differs between identical runs, so it is logged, not written.
func LogOverhead(name string, r *COSHHRun) {
	o := r.Metrics.Overhead
	ms := func(ns int64) float64 { return float64(ns) / 1e6 }
	slog.Info("coshh comparison: scheduler overhead", "policy", name, "alg1_ms", ms(o.ArriveTime.Nanoseconds()), "alg2_ms", ms(o.PickTime.Nanoseconds()),
		"reclassification_ms", ms(o.ReplanTime.Nanoseconds()), "lp_resolve_ms", ms(r.LPTime.Nanoseconds()), "scheduling_rounds_ms", ms(r.Metrics.SchedNanos),
		"decisions", r.Result.Decisions)
}

// COSHHTableColumns documents coshh.parquet: one row per configuration ×
// scope (all, user, class) × key, with COSHHMetricRow's fields.
const COSHHTableColumns = "configuration, scope (all|user|class), key (user or class name), jobs, mean_completion_s, dissatisfaction, fairness_share_variance, fairness_abs_dev, locality_pct, map_tasks, local_map_tasks, mean_containers, alg1_runs, alg2_decisions, reclassifications, lp_solves"

// Table returns coshh.parquet (COSHHTableColumns); values a scope does not
// define (a class's dissatisfaction) are NaN.
func (v *COSHHValidation) Table() ([]byte, error) {
	rows := append(append(append([]COSHHMetricRow(nil), v.Runs...), v.Users...), v.Classes...)
	n := len(rows)
	cfg, scope, key := make([]string, n), make([]string, n), make([]string, n)
	jobs, maps, local, a1, a2, rp, lps := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
	mc, dis, fv, fa, loc, cont := make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	for i, r := range rows {
		cfg[i], scope[i], key[i] = r.Config, r.Scope, r.Key
		jobs[i], maps[i], local[i] = int64(r.Jobs), int64(r.MapTasks), int64(r.LocalMapTasks)
		a1[i], a2[i], rp[i], lps[i] = int64(r.Alg1Runs), int64(r.Alg2Decisions), int64(r.Replans), int64(r.LPSolves)
		mc[i], dis[i], fv[i], fa[i], loc[i], cont[i] = r.MeanCompletion, r.Dissatisfaction, r.Fairness, r.FairnessAbs, r.Locality(), r.MeanContainers
		switch r.Scope {
		case "class":
			dis[i], fv[i], fa[i], cont[i] = math.NaN(), math.NaN(), math.NaN(), math.NaN()
		case "user":
			fv[i], fa[i] = math.NaN(), math.NaN()
		}
	}
	t := &data.Table{}
	t.Add("configuration", cfg)
	t.Add("scope", scope)
	t.Add("key", key)
	t.Add("jobs", jobs)
	t.Add("mean_completion_s", mc)
	t.Add("dissatisfaction", dis)
	t.Add("fairness_share_variance", fv)
	t.Add("fairness_abs_dev", fa)
	t.Add("locality_pct", loc)
	t.Add("map_tasks", maps)
	t.Add("local_map_tasks", local)
	t.Add("mean_containers", cont)
	t.Add("alg1_runs", a1)
	t.Add("alg2_decisions", a2)
	t.Add("reclassifications", rp)
	t.Add("lp_solves", lps)
	var buf bytes.Buffer
	if err := data.WriteTable(&buf, t, data.FormatParquet); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// COSHHVersion changes when COSHH's tuning or validation changes what it
// computes, so that older stamps are stale.
const COSHHVersion = 10 // 3: the grid states its offered load; 4: map tasks take their job's input blocks local first (locality); 5: type scales by ExecModelScales (a zero-size job keeps scale 1); 6: Hadoop 1's FIFO and Fair's delay of 1.5 offers as baselines; 7: the time averages' first arrival recorded; 8: Fair breaks queue ties by name, as FairSharePolicy; 9: λ (CLP) from the folded master that certifies it; 10: the grid and validation windows bounded in tasks too (COSHHGridMaxTasks, COSHHValidateMaxTasks)
