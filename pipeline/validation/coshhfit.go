package validation

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"time"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/cluster/task/coshh"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/lp"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/report"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
)

// COSHHFit is a COSHH plan (seed 003 §3) fitted on the first Rows jobs of a
// log: both classifications with K classes, the LP of each on the cluster
// spec, and the routing plan (classes, radii, suggested sets) the task-level
// COSHH policy starts from. Tolerance is Alg. 1's re-classification
// tolerance (coshh.COSHHConfig.Tolerance).
type COSHHFit struct {
	K         int              `json:"k"`
	Tolerance float64          `json:"tolerance"`
	Rows      int              `json:"rows"`
	Primary   *classify.Result `json:"primary"`
	Secondary *classify.Result `json:"secondary"`
	Plan      *coshh.COSHHPlan `json:"plan"`
	// Lambda is λ of the secondary classification's LP; Delta[i][t] its
	// allocation, class i's fraction of type t's machines;
	// PrimaryDelta the primary's (nil without primary classes).
	Lambda       float64     `json:"lambda"`
	Delta        [][]float64 `json:"delta"`
	PrimaryDelta [][]float64 `json:"primary_delta,omitempty"`

	psol, ssol *lp.COSHHSolution
}

// FitCOSHH classifies rows [0, rows) of j (sizes in container-seconds of
// spec, as the classify stage has them) into k classes by COSHH's two
// classifications (classify.COSHH, seed 003's features) and solves the LP
// of each on spec.
func FitCOSHH(j *data.Jobs, sizes []float64, spec *cluster.Spec, rows, k int, tolerance float64, seed uint64, solver lp.Solver) (*COSHHFit, error) {
	return FitCOSHHRange(j, sizes, spec, 0, rows, k, tolerance, seed, solver)
}

// FitCOSHHRange is FitCOSHH on rows [from, rows) of j.
func FitCOSHHRange(j *data.Jobs, sizes []float64, spec *cluster.Spec, from, rows, k int, tolerance float64, seed uint64, solver lp.Solver) (*COSHHFit, error) {
	return fitCOSHH(j, sizes, 1, spec, from, rows, k, tolerance, seed, solver)
}

// FitCOSHHScaled is FitCOSHH of the sizes sizes[i]·scale, read so where
// they are read (classify.Options.SizeScale): with the log's sizes and
// estimate.ContainerScale, COSHHSizes's bits without its copy of every
// job's size (76 MB at the 10 M log, beside tune-coshh's classification
// of the 7 M-job tuning window: tune's live peak).
func FitCOSHHScaled(j *data.Jobs, sizes []float64, scale float64, spec *cluster.Spec, rows, k int, tolerance float64, seed uint64, solver lp.Solver) (*COSHHFit, error) {
	return fitCOSHH(j, sizes, scale, spec, 0, rows, k, tolerance, seed, solver)
}

// fitCOSHH is FitCOSHHRange of the sizes sizes[i]·scale.
func fitCOSHH(j *data.Jobs, sizes []float64, scale float64, spec *cluster.Spec, from, rows, k int, tolerance float64, seed uint64, solver lp.Solver) (*COSHHFit, error) {
	if from < 0 || rows <= from || rows > j.Len() || len(sizes) != j.Len() {
		return nil, fmt.Errorf("coshh: fit on rows %d..%d of %d jobs (%d sizes)", from, rows, j.Len(), len(sizes))
	}
	sub := j
	if rows-from < j.Len() {
		sub = j.Rows(from, rows) // a view: no copy of the rows
	}
	prim, sec, err := classify.COSHH(sub, sizes[from:rows], spec, classify.Options{K: k, Seed: seed, SizeScale: scale})
	if err != nil {
		return nil, err
	}
	f := &COSHHFit{K: k, Tolerance: tolerance, Rows: rows, Primary: prim, Secondary: sec}
	if err := f.Solve(spec, solver); err != nil {
		return nil, err
	}
	return f, nil
}

// DropRowLabels drops the classifications' per-row labels
// (classify.Result.DropLabels of Primary and Secondary: 4 B a row of the
// window fitted on, 8 more a primary row), which nothing reads once the
// fit is made: a re-classification starts from the classes' centres, and
// a fit loaded from a stage's stamp has no labels either (they are not in
// its JSON).
func (f *COSHHFit) DropRowLabels() {
	for _, r := range []*classify.Result{f.Primary, f.Secondary} {
		if r != nil {
			r.DropLabels()
		}
	}
}

// Solve solves both LPs and sets the plan, λ and the allocations.
//
// A re-solve (f holding an earlier solution, as on a re-classification)
// starts from the earlier solution's columns (lp.COSHHOptions.Warm), which
// gives the cold solve's canonical allocation in fewer rounds.
func (f *COSHHFit) Solve(spec *cluster.Spec, solver lp.Solver) error {
	var err error
	if f.psol, err = tasklevel.COSHHSolve(f.Primary, spec, lp.COSHHOptions{Solver: solver, Warm: f.psol}); err != nil {
		return fmt.Errorf("coshh: primary LP: %w", err)
	}
	if f.ssol, err = tasklevel.COSHHSolve(f.Secondary, spec, lp.COSHHOptions{Solver: solver, Warm: f.ssol}); err != nil {
		return fmt.Errorf("coshh: secondary LP: %w", err)
	}
	if f.ssol == nil {
		return fmt.Errorf("coshh: the secondary classification has no classes")
	}
	f.Plan = tasklevel.COSHHPlan(f.Primary, f.Secondary, f.psol, f.ssol)
	f.Lambda = f.ssol.Lambda
	f.Delta = f.ssol.Delta
	if f.psol != nil {
		f.PrimaryDelta = f.psol.Delta
	}
	if !report.Finite(f.Lambda) {
		return fmt.Errorf("coshh: λ = %v", f.Lambda)
	}
	for _, dd := range [][][]float64{f.Delta, f.PrimaryDelta} {
		for _, row := range dd {
			for _, v := range row {
				if !report.Finite(v) {
					return fmt.Errorf("coshh: allocation %v is not finite", v)
				}
			}
		}
	}
	return nil
}

// COSHHReplanLimit bounds the re-classifications of one simulated run
// (each refits k-means on every job seen so far and re-solves the LP), and
// COSHHMaxExtraClasses how many classes re-classifications may add to a
// plan's k.
// COSHHRefitRows bounds the jobs a re-classification refits on: the last
// ones seen (all of them on logs of up to that many jobs).
const (
	COSHHReplanLimit     = 20
	COSHHMaxExtraClasses = 8
	COSHHRefitRows       = 20000
)

// coshhReplanner is seed 003 Alg. 1's "else" branch for a simulated window
// whose task job q is row lo+q of j: when a job fits no class within the
// tolerance, the classification it broke is refitted (classify.Result
// .Refit) on the jobs seen so far — rows 0 … lo+q, the fit's history
// and the window's arrivals, the last COSHHRefitRows of them — warm-started from the current centres plus
// the job's own vector as a new centre (while the plan has fewer than k +
// COSHHMaxExtraClasses classes), in the same feature space, and its LP is
// re-solved; the router swaps the plan. At most COSHHReplanLimit times a
// run; later misfits join their nearest class.
type coshhReplanner struct {
	j      *data.Jobs
	sizes  []float64
	spec   *cluster.Spec
	lo     int
	x1, x2 [][]float64
	shared map[string]bool // by user: the user has a min share
	policy *coshh.COSHH
	fit    COSHHFit // current classifications and solutions
	solver lp.Solver
	seed   uint64
	maxK   int

	replans, lpSolves int
	lpTime            time.Duration
}

func newCOSHHReplanner(j *data.Jobs, sizes []float64, spec *cluster.Spec, lo int, fit *COSHHFit, x1, x2 [][]float64, solver lp.Solver, seed uint64) *coshhReplanner {
	q := &coshhReplanner{j: j, sizes: sizes, spec: spec, lo: lo, x1: x1, x2: x2, fit: *fit, solver: solver, seed: seed,
		maxK: len(fit.Secondary.Classes) + COSHHMaxExtraClasses}
	q.shared = map[string]bool{}
	return q
}

func (q *coshhReplanner) replan(job int) (*coshh.COSHHPlan, error) {
	if q.replans >= COSHHReplanLimit {
		return nil, nil
	}
	fitP, fitS := q.policy.Router().Fits(job)
	seen := q.lo + job + 1
	var all, prim []int
	for i := max(0, seen-COSHHRefitRows); i < seen; i++ {
		all = append(all, i)
		if q.hasShare(i) {
			prim = append(prim, i)
		}
	}
	f := q.fit
	var err error
	if !fitS {
		if f.Secondary, err = q.refit(f.Secondary, all, q.x2[job]); err != nil {
			return nil, err
		}
	}
	if !fitP && q.x1 != nil && f.Primary != nil && len(f.Primary.Classes) > 0 {
		if f.Primary, err = q.refit(f.Primary, prim, q.x1[job]); err != nil {
			return nil, err
		}
	}
	t0 := time.Now()
	err = f.Solve(q.spec, q.solver)
	q.lpTime += time.Since(t0)
	q.lpSolves++
	if err != nil {
		return nil, err
	}
	q.fit = f
	q.replans++
	return f.Plan, nil
}

// hasShare reports whether row i's user has a min share (looked up once
// per user: a replan reads at most COSHHRefitRows rows, whatever the log).
func (q *coshhReplanner) hasShare(i int) bool {
	u := q.j.UserAt(i)
	v, ok := q.shared[u]
	if !ok {
		v = q.spec.User(u).MinShare > 0
		q.shared[u] = v
	}
	return v
}

func (q *coshhReplanner) refit(res *classify.Result, rows []int, x []float64) (*classify.Result, error) {
	start := res.Centres()
	if len(start) < q.maxK && len(x) == len(res.Features) {
		start = append(start, x)
	}
	if len(rows) < len(start) {
		start = start[:len(rows)]
	}
	return res.Refit(q.j, q.sizes, rows, start, classify.Options{Seed: q.seed})
}

// COSHHWindow is the task-level form of rows [Lo, Lo+len(Jobs)) of a log
// for COSHH's comparison (seed 003 §5): the jobs as map and reduce tasks
// (TaskJobs) whose speed on each machine type follows the execution-time
// model (COSHHTypeScales: Table 3's exec rates, memories and retrieve
// rates), on the spec's machines.
type COSHHWindow struct {
	J       *data.Jobs
	Sizes   []float64 // container-seconds of the spec, every row of J
	Spec    *cluster.Spec
	Cluster *task.Cluster
	Lo      int
	Jobs    []task.Job
	Solver  lp.Solver
	Seed    uint64
}

// NewCOSHHWindow builds the window of rows [lo, hi) of in's log.
func NewCOSHHWindow(in *inputs.Inputs, sizes []float64, lo, hi int, floor float64) (*COSHHWindow, error) {
	cl, err := tasklevel.TaskCluster(in.Spec)
	if err != nil {
		return nil, err
	}
	win, err := in.Window(lo, hi)
	if err != nil {
		return nil, err
	}
	jobs, err := tasklevel.ModelTaskJobs(in.Jobs, nil, win, lo, in.Capacity, in.Spec, cl.Rate(), in.Config.Seed)
	if err != nil {
		return nil, err
	}
	return &COSHHWindow{J: in.Jobs, Sizes: sizes, Spec: in.Spec, Cluster: cl, Lo: lo, Jobs: jobs, Solver: in.Config.Solver, Seed: in.Config.Seed}, nil
}

// COSHHRun is one configuration's run on a window: its metrics and, for
// COSHH, the re-classifications and LP solves.
type COSHHRun struct {
	Metrics  *coshh.COSHHRunMetrics
	Result   *task.Result
	Replans  int
	LPSolves int
	LPTime   time.Duration
	// Fit is COSHH's plan at the end of the run (after re-classifications).
	Fit *COSHHFit
}

// COSHHPolicyOf returns the COSHH policy of a fit for the window, routing
// from plan (the fit's own when nil: e.g. the plan read back from the
// emitted schedplan.yaml), re-classifying (Alg. 1) when replan is set.
func (w *COSHHWindow) COSHHPolicyOf(fit *COSHHFit, plan *coshh.COSHHPlan, replan bool) (*coshh.COSHH, *coshhReplanner, error) {
	rows := make([]int, len(w.Jobs))
	for k := range rows {
		rows[k] = w.Lo + k
	}
	if plan == nil {
		plan = fit.Plan
	}
	c := &coshh.COSHH{Plan: plan, Users: tasklevel.COSHHUsers(w.Spec), Tolerance: fit.Tolerance}
	var err error
	if c.X2, err = fit.Secondary.ScaledRows(w.J, w.Sizes, rows); err != nil {
		return nil, nil, fmt.Errorf("coshh: secondary features: %w", err)
	}
	if fit.Primary != nil && len(fit.Primary.Classes) > 0 {
		if c.X1, err = fit.Primary.ScaledRows(w.J, w.Sizes, rows); err != nil {
			return nil, nil, fmt.Errorf("coshh: primary features: %w", err)
		}
	}
	if !replan {
		return c, nil, nil
	}
	q := newCOSHHReplanner(w.J, w.Sizes, w.Spec, w.Lo, fit, c.X1, c.X2, w.Solver, w.Seed)
	q.policy = c
	c.Replan = q.replan
	return c, q, nil
}

// Run simulates the window under p (COSHH with its replanner q, or any
// task-level policy with q nil) and measures seed 003 §5.1's metrics.
func (w *COSHHWindow) Run(ctx context.Context, p task.Policy, q *coshhReplanner) (*COSHHRun, error) {
	m, res, err := coshh.SimulateCOSHHMetrics(ctx, w.Jobs, w.Cluster, p, tasklevel.COSHHUsers(w.Spec), w.Seed, task.Options{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p.Name(), err)
	}
	r := &COSHHRun{Metrics: m, Result: res}
	if q != nil {
		r.Replans, r.LPSolves, r.LPTime = q.replans, q.lpSolves, q.lpTime
		f := q.fit
		r.Fit = &f
	}
	return r, nil
}

// COSHHBaselines are the task-level policies COSHH is compared with (seed
// 003 §5: Hadoop's FIFO and Fair sharing, one pool per user).
var COSHHBaselines = []string{"fifo", "fair"}

// COSHHBaseline returns baseline name (task.ParsePolicy) with Hadoop's
// locality rules of seed 003's era (Hadoop 0.20/1.x), as §5 compares
// locality. FIFO is returned as parsed: Hadoop 1's JobQueueTaskScheduler
// .assignTasks offers a free slot to the jobs in queue order and gives the
// first job with a map left one of its node-local maps, else a rack-local
// one (JobInProgress.obtainNewNodeOrRackLocalMapTask), else a non-local
// one (obtainNewNonLocalMapTask): it never passes the head job over for
// locality. The model has one rack (rack-local = any node), so that is
// FIFO's order with the job's input blocks handed out node-local first
// (coshh.COSHHBlocks.Take); task.FIFO.LocalityPreference, which passes
// jobs over, is not Hadoop's rule. Fair gets delay scheduling: Hadoop 1's
// FairScheduler.getAllowedLocalityLevel lets a job launch a non-local map
// once it has waited the locality delay (node, then rack; each
// min(15 s, 1.5 heartbeat intervals) by default, FairScheduler
// .assignTasks), which with one rack is 1.5 heartbeat intervals; as a
// skip count (task.Fair.LocalityDelay) that is 1.5 offers of every node.
// Other policies are returned as parsed.
func COSHHBaseline(name string, nodes int) (task.Policy, error) {
	p, err := task.ParsePolicy(name)
	if err != nil {
		return nil, err
	}
	if q, ok := p.(*task.Fair); ok {
		q.LocalityDelay = (3*nodes + 1) / 2
	}
	return p, nil
}

// RunAll simulates COSHH (from fit, routing from plan when not nil, with
// re-classification) and the baselines on the window, in the order COSHH,
// FIFO, Fair (run side by side).
func (w *COSHHWindow) RunAll(ctx context.Context, fit *COSHHFit, plan *coshh.COSHHPlan) ([]*COSHHRun, error) {
	c, q, err := w.COSHHPolicyOf(fit, plan, true)
	if err != nil {
		return nil, err
	}
	ps := []task.Policy{c}
	for _, name := range COSHHBaselines {
		p, err := COSHHBaseline(name, w.Cluster.Nodes())
		if err != nil {
			return nil, err
		}
		ps = append(ps, p)
	}
	// The runs are independent: side by side, stored by index (only the
	// logged decision times feel the neighbours).
	out := make([]*COSHHRun, len(ps))
	err = experiment.ParallelFor(ctx, len(ps), runtime.GOMAXPROCS(0), func(_, i int) error {
		var rq *coshhReplanner
		if i == 0 {
			rq = q
		}
		r, err := w.Run(ctx, ps[i], rq)
		out[i] = r
		return err
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// COSHHHorizon is the common horizon of runs' time averages (seed 003
// compares Dissatisfaction(T) at one T): the last completion of any.
func COSHHHorizon(runs []*COSHHRun) float64 {
	h := math.Inf(-1)
	for _, r := range runs {
		h = math.Max(h, r.Metrics.End)
	}
	return h
}
