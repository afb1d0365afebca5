package pipeline

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"math"
	"path/filepath"
	"runtime"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
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

// COSHHGridPoint is one point of COSHH's tuning grid: the mean completion
// time (s) of COSHH on the second half of the tuning window, the classes
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

// coshhState is the tune-coshh stage's state: the grid and the chosen fit
// (on the whole tuning window), or Note saying why there is none.
type coshhState struct {
	Grid []COSHHGridPoint `json:"grid"`
	Fit  *COSHHFit        `json:"fit,omitempty"`
	// FitJobs and SimJobs are the grid's windows: fitted on rows
	// [FitFrom, FitJobs), simulated on the next SimJobs.
	FitFrom int    `json:"fit_from,omitempty"`
	FitJobs int    `json:"fit_jobs"`
	SimJobs int    `json:"sim_jobs"`
	Note    string `json:"note,omitempty"`
}

// coshhSizes are the log's sizes in container-seconds of the spec (what the
// classify stage classifies).
func coshhSizes(in *Inputs) []float64 {
	return estimate.ContainerSeconds(in.Sizes, in.Source, in.Config.Sizes, in.Spec.Capacity())
}

// tuneCOSHH searches COSHH's k and tolerance on the tuning window (fit on
// its first half, simulate COSHH at task level on its second half — at
// most COSHHGridMaxJobs jobs —, least
// mean completion time wins; ties: the smaller k, then tolerance) and fits
// the chosen point on the whole tuning window. A log too small or
// degenerate for COSHH (no positive span, an LP without solution) leaves a
// note instead of failing the run.
func (p *pipelineRun) tuneCOSHH(ctx context.Context) (map[string][]byte, error) {
	in := p.in
	st := coshhState{}
	sizes := coshhSizes(in)
	lo := in.Split.TuneJobs
	best := -1
	if lo >= COSHHMinTuneJobs {
		h := max(lo/2, lo-COSHHGridMaxJobs)
		st.FitFrom, st.FitJobs, st.SimJobs = max(0, h-COSHHGridFitMaxJobs), h, lo-h
		// Each k's fit and its tolerances' runs are independent: side
		// by side, stored by grid index.
		nt := len(COSHHToleranceGrid)
		st.Grid = make([]COSHHGridPoint, len(COSHHKGrid)*nt)
		err := ParallelFor(ctx, len(COSHHKGrid), runtime.GOMAXPROCS(0), func(_, i int) error {
			k := COSHHKGrid[i]
			fit, err := fitCOSHHRange(in.Jobs, sizes, in.Spec, st.FitFrom, h, k, COSHHToleranceGrid[0], in.Config.Seed, in.Config.Solver)
			for ti, tol := range COSHHToleranceGrid {
				if err := ctx.Err(); err != nil {
					return err
				}
				st.Grid[i*nt+ti] = coshhGridPoint(in, sizes, fit, err, h, lo, k, tol)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		for i, pt := range st.Grid {
			if pt.Error == "" && (best < 0 || pt.MeanCompletion < st.Grid[best].MeanCompletion) {
				best = i
			}
		}
	}
	k, tol := COSHHKGrid[0], COSHHToleranceGrid[0]
	if best >= 0 {
		k, tol = st.Grid[best].K, st.Grid[best].Tolerance
	} else if len(st.Grid) > 0 {
		st.Note = "no point of the grid could be simulated (" + st.Grid[0].Error + "); "
	}
	if lo < 1 {
		st.Note += "no tuning window"
		p.coshh = st
		return nil, nil
	}
	fit, err := FitCOSHH(in.Jobs, sizes, in.Spec, lo, k, tol, in.Config.Seed, in.Config.Solver)
	if err != nil {
		st.Note += "COSHH could not be fitted on the tuning window: " + err.Error()
	} else {
		st.Fit = fit
		if best < 0 && len(st.Grid) == 0 {
			st.Note = fmt.Sprintf("the tuning window has %d jobs (< %d): k = %d, tolerance %g without a search", lo, COSHHMinTuneJobs, k, tol)
		}
	}
	p.coshh = st
	return nil, nil
}

// coshhGridPoint simulates COSHH with tolerance tol on rows [h, lo) from
// fit (k classes fitted before h; fitErr when it could not be fitted).
func coshhGridPoint(in *Inputs, sizes []float64, fit *COSHHFit, fitErr error, h, lo, k int, tol float64) COSHHGridPoint {
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
	load, _ := ExecTimeLoad(w.Jobs, w.Cluster)
	pt.OfferedLoad = finitePtr(load)
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
// averaged over the run's job completions (task.COSHHRunMetrics
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
	return task.COSHHLocality{Maps: r.MapTasks, Local: r.LocalMapTasks}.Percent()
}

// coshhRowNames are the task-level validation rows of COSHH's comparison.
var coshhRowNames = []string{"coshh (emitted plan; exec-time model)", "fifo (exec-time model)", "fair (exec-time model)"}

// coshhValidate simulates COSHH (the plan of the emitted schedplan.yaml in
// the output directory) beside FIFO and Fair on the validation window,
// appends their rows to the task-level table and returns the metrics and
// coshh.parquet; the wall-clock overhead is logged (logOverhead). Without
// a COSHH fit it returns a note only.
func (p *pipelineRun) coshhValidate(ctx context.Context) (*COSHHValidation, map[string][]byte, error) {
	in, fit := p.in, p.coshh.Fit
	if fit == nil {
		return &COSHHValidation{Note: "COSHH was not simulated: " + p.coshh.Note, Grid: p.coshh.Grid}, nil, nil
	}
	b, err := LoadBundle(filepath.Join(p.r.Dir, "schedplan.yaml"))
	if err != nil {
		return nil, nil, fmt.Errorf("coshh: reading the emitted bundle back: %w", err)
	}
	if b.COSHH == nil {
		return nil, nil, fmt.Errorf("coshh: the emitted schedplan.yaml has no coshh section")
	}
	plan, err := b.COSHH.Plan()
	if err != nil {
		return nil, nil, fmt.Errorf("coshh: the emitted schedplan.yaml: %w", err)
	}
	sizes := coshhSizes(in)
	lo, hi := in.Split.TuneJobs, in.Jobs.Len()
	cut := ""
	if hi-lo > COSHHValidateMaxJobs {
		cut = fmt.Sprintf("; only the validation window's first %d of %d jobs (COSHHValidateMaxJobs)", COSHHValidateMaxJobs, hi-lo)
		hi = lo + COSHHValidateMaxJobs
	}
	w, err := NewCOSHHWindow(in, sizes, lo, hi, fit.Secondary.SizeFloor)
	if err != nil {
		return nil, nil, err
	}
	runs, err := w.RunAll(ctx, fit, plan)
	if err != nil {
		return nil, nil, fmt.Errorf("coshh validation: %w", err)
	}
	load, bound := ExecTimeLoad(w.Jobs, w.Cluster)
	v := &COSHHValidation{K: fit.K, Tolerance: fit.Tolerance, Horizon: COSHHHorizon(runs), FinalClasses: len(runs[0].Fit.Secondary.Classes),
		OfferedLoad: finitePtr(load), OfferedLoadBound: finitePtr(bound),
		Note: "task level on the spec's machine types, each job's tasks as fast on a type as the execution-time model says (exec rate, memory, retrieve rate); COSHH routes by the plan of schedplan.yaml (fitted on the tuning window) and re-classifies when a job fits no class; FIFO with Hadoop's locality preference, Fair with delay scheduling; Dissatisfaction and Fairness (Σ|Δ − avg|) of all jobs at the job completions (seed 003 §5.2), the other time averages over [first arrival, horizon]" + cut}
	v.Grid, v.FitJobs, v.SimJobs = p.coshh.Grid, p.coshh.FitJobs-p.coshh.FitFrom, p.coshh.SimJobs
	classOf := make([]int, len(w.Jobs))
	x2, err := fit.Secondary.ScaledRows(in.Jobs, sizes, windowRows(lo, len(w.Jobs)))
	if err != nil {
		return nil, nil, err
	}
	for q, x := range x2 {
		c, _ := task.NearestCentre(fit.Plan.Secondary.Centres, x)
		classOf[q] = int(c)
	}
	// The task-level rows' deadlines: Fair's completions on these jobs
	// (runs[2], one pool per user), as the task table's other rows
	// (TaskMetricsNote).
	dl := task.ReferenceDeadlines(w.Jobs, runs[2].Result.Completion)
	var fluid []sim.Job // the rows' jobs, their times alone simulated once
	if p.vs.Task != nil {
		fluid = task.FluidJobs(w.Jobs, w.Cluster)
	}
	for k, r := range runs {
		name := []string{"coshh", "fifo", "fair"}[k]
		v.metricRows(name, r, w.Jobs, classOf, len(fit.Plan.Secondary.Centres))
		logOverhead(name, r)
		if t := p.vs.Task; t != nil {
			row := coshhValidationRow(coshhRowNames[k], name, fluid, w, r, t.Bounds, dl)
			row.OfferedLoad = v.OfferedLoad
			t.Rows = append(t.Rows, row)
		}
	}
	files := map[string][]byte{}
	if files["coshh.parquet"], err = v.table(); err != nil {
		return nil, nil, err
	}
	return v, files, nil
}

func windowRows(lo, n int) []int {
	rows := make([]int, n)
	for k := range rows {
		rows[k] = lo + k
	}
	return rows
}

// coshhValidationRow is a run as a task-level validation row (responses in
// seconds; slowdowns over each job's time alone on the window's cluster,
// fluid: task.FluidJobs of the window's jobs on its cluster; dl, when not nil, the jobs' deadlines,
// task.ReferenceDeadlines; the bounds b are the fluid ones at the cluster's
// rate, lower bounds still, as the execution-time model only slows tasks
// down).
func coshhValidationRow(name, policy string, fluid []sim.Job, w *COSHHWindow, r *COSHHRun, b *Bounds, dl []float64) ValidationRow {
	var m sim.Metrics
	s := m.Compute(fluid, r.Result.Completion, w.Cluster.Rate(), dl)
	a := Aggregate{Policy: policy, Runs: 1, Mean: s, MeanResponse: Spread{s.Response.Mean, s.Response.Mean, s.Response.Mean}, Missed: float64(s.Missed)}
	if b == nil {
		b = &Bounds{}
	}
	row := ValidationRowOf(name, 0, a, b)
	row.Policy = policy + ", exec-time model"
	return row
}

// metricRows adds a run's rows: all jobs, each user, each class.
func (v *COSHHValidation) metricRows(name string, r *COSHHRun, jobs []task.Job, classOf []int, classes int) {
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
		row := COSHHMetricRow{Config: name, Scope: "class", Key: ClassName(c)}
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

// logOverhead logs a run's wall-clock scheduler overhead (ms): COSHH's
// Alg. 1 and Alg. 2 calls, its re-classifications (k-means and LP) and
// the LP re-solves alone, and the core's scheduling rounds (every policy).
// It differs between identical runs, so it is logged, not written.
func logOverhead(name string, r *COSHHRun) {
	o := r.Metrics.Overhead
	ms := func(ns int64) float64 { return float64(ns) / 1e6 }
	slog.Info("coshh comparison: scheduler overhead", "policy", name, "alg1_ms", ms(o.ArriveTime.Nanoseconds()), "alg2_ms", ms(o.PickTime.Nanoseconds()),
		"reclassification_ms", ms(o.ReplanTime.Nanoseconds()), "lp_resolve_ms", ms(r.LPTime.Nanoseconds()), "scheduling_rounds_ms", ms(r.Metrics.SchedNanos),
		"decisions", r.Result.Decisions)
}

// COSHHTableColumns documents coshh.parquet: one row per configuration ×
// scope (all, user, class) × key, with COSHHMetricRow's fields.
const COSHHTableColumns = "configuration, scope (all|user|class), key (user or class name), jobs, mean_completion_s, dissatisfaction, fairness_share_variance, fairness_abs_dev, locality_pct, map_tasks, local_map_tasks, mean_containers, alg1_runs, alg2_decisions, reclassifications, lp_solves"

// table returns coshh.parquet (COSHHTableColumns); values a scope does not
// define (a class's dissatisfaction) are NaN.
func (v *COSHHValidation) table() ([]byte, error) {
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

// coshhVersion changes when COSHH's tuning or validation changes what it
// computes, so that older stamps are stale.
const coshhVersion = 5 // 3: the grid states its offered load; 4: map tasks take their job's input blocks local first (locality); 5: type scales by ExecModelScales (a zero-size job keeps scale 1)

// validateCOSHH runs coshhValidate into the validation state and files.
func (p *pipelineRun) validateCOSHH(ctx context.Context, files map[string][]byte) error {
	v, extra, err := p.coshhValidate(ctx)
	if err != nil {
		return err
	}
	p.vs.COSHH = v
	for n, b := range extra {
		files[n] = b
	}
	return nil
}
