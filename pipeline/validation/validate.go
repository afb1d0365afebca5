package validation

import (
	"bufio"
	"cmp"
	"context"
	"errors"
	"io"
	"os"
	"runtime"
	"slices"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/report"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// ValidationRow is one configuration on the validation window: metrics
// averaged over its runs (one run with exact sizes, Runs runs per σ > 0).
type ValidationRow struct {
	Name         string  `json:"name"`
	Policy       string  `json:"policy"`
	Sigma        float64 `json:"sigma"` // log-normal size-estimation error; 0 = exact
	Runs         int     `json:"runs"`
	Mean         float64 `json:"mean_response"`
	MeanMin      float64 `json:"mean_response_min"` // across runs
	MeanMax      float64 `json:"mean_response_max"`
	P50          float64 `json:"p50_response"`
	P99          float64 `json:"p99_response"`
	MeanSlowdown float64 `json:"mean_slowdown"`
	P99Slowdown  float64 `json:"p99_slowdown"`
	Gap          float64 `json:"gap_to_lower_bound"`
	Missed       float64 `json:"missed_deadlines"` // mean over runs
	MissedShare  float64 `json:"missed_share"`
	MaxLate      float64 `json:"max_lateness_s"`
	// OfferedLoad is the load the row was simulated at, when its table's
	// rows differ in it (the task-level table: TaskLoadDef, ExecLoadDef).
	OfferedLoad *float64 `json:"offered_load,omitempty"`
}

// ValidationState holds the validation rows and the data behind the
// report's plots.
type ValidationState struct {
	Rows       []ValidationRow   `json:"rows"`
	CDF        []report.Series   `json:"cdf"`
	ClassNames []string          `json:"class_names"`
	PerClass   []report.Series   `json:"per_class"`
	SigmaXs    []float64         `json:"sigma_xs"`
	SigmaBoxes []report.BoxGroup `json:"sigma_boxes"`
	// OfferedLoad is the validation window's load at the capacity
	// (FluidLoadDef; null when undefined); the load curve's LoadXs are it
	// times each load factor (the factors themselves when it is null).
	OfferedLoad *float64          `json:"offered_load"`
	LoadXs      []float64         `json:"load_xs"`
	LoadCurves  []report.XYSeries `json:"load_curves"`
	// Results is which jobs' rows results.parquet holds (all, sample:N or
	// none; ParseResults).
	Results string `json:"results"`
	// Task is the task-level view (TaskValidation).
	Task *TaskValidation `json:"task,omitempty"`
	// COSHH is COSHH beside FIFO and Fair at task level (COSHHValidation).
	COSHH *COSHHValidation `json:"coshh,omitempty"`
	// Calibration compares the current scheduler's simulations with the
	// log's observed times (calibrate).
	Calibration *CalibrationReport `json:"calibration,omitempty"`
	// currentResp are the current scheduler's per-job responses (exact
	// sizes, in job order) for the calibration, which runs in the same
	// stage; nil when it is not among the configurations.
	currentResp []float64
}

type valConfig struct {
	name, spec string
	uses       sim.Uses
}

// ValidatedConfigs lists what validation runs: the tuned configuration as
// emitted (tuned: the levels capacity-scheduler.xml implements), Hu et
// al.'s default and the first guess, the current scheduler and the
// baselines (each policy once, however it is spelt), with what each uses.
func ValidatedConfigs(cfg inputs.RunConfig, tr *tuner.TuneReport, tuned tuner.LASMQParams) ([]valConfig, error) {
	list := []valConfig{
		{name: "tuned las_mq", spec: tuned.Spec()},
		{name: tuner.DefaultLASMQName, spec: sim.DefaultLASMQ().Spec()},
		{name: "first guess las_mq", spec: tr.Result.FirstGuess.Spec()},
		{name: "current (" + cfg.Current + ")", spec: cfg.Current},
	}
	for _, b := range cfg.Baselines {
		list = append(list, valConfig{name: b, spec: b})
	}
	var out []valConfig
	seen := map[string]bool{}
	for _, c := range list {
		p, err := sim.ParsePolicy(c.spec)
		if err != nil {
			return nil, err
		}
		if key := sim.SpecOf(p); !seen[key] {
			seen[key] = true
			info, err := experiment.Fluid.Policy(c.spec)
			if err != nil {
				return nil, err
			}
			c.uses = info.Uses
			out = append(out, c)
		}
	}
	return out, nil
}

// validation is the validate stage's plan: the configurations and the
// experiments that run them on the validation window.
type validation struct {
	Configs []valConfig
	// lo and n are the validation window's first row and its jobs, which
	// every experiment reads from one Source (windowSource).
	lo, n int
	// Exact runs every configuration with exact sizes and keeps per-job rows.
	Exact *experiment.Experiment
	// sigmas[k] runs the configurations that use size estimates (sized)
	// with log-normal errors of σ = sigmaOf[k] > 0.
	sigmas  []*experiment.Experiment
	sigmaOf []float64
	sized   []int
	// loads[k] runs every configuration at load factor loadOf[k]; the
	// factors that repeat an earlier one share its experiment, and a
	// factor of 1 is the exact-size experiment itself (the same
	// simulations: Scale 1 leaves the jobs as they are), so no
	// (configuration, load) pair is simulated twice.
	loads  []*experiment.Experiment
	loadOf []float64
}

// PlanValidation builds the experiments of the validate stage.
func PlanValidation(in *inputs.Inputs, tr *tuner.TuneReport, tuned tuner.LASMQParams, b *experiment.Bounds) (*validation, error) {
	cfg := in.Config
	configs, err := ValidatedConfigs(cfg, tr, tuned)
	if err != nil {
		return nil, err
	}
	lo, hi := in.Split.TuneJobs, in.NumSimJobs()
	valJobs, err := windowSource(in, lo, hi)
	if err != nil {
		return nil, err
	}
	v := &validation{Configs: configs, lo: lo, n: hi - lo}
	var all, sized []string
	for c, vc := range configs {
		all = append(all, vc.spec)
		if vc.uses.Estimates {
			sized = append(sized, vc.spec)
			v.sized = append(v.sized, c)
		}
	}
	v.Exact = &experiment.Experiment{Source: valJobs, Capacity: in.Capacity, Deadlines: b.Deadlines, Policies: all, Runs: 1}
	for _, s := range cfg.Sigmas {
		if s > 0 && len(sized) > 0 {
			v.sigmas = append(v.sigmas, &experiment.Experiment{Source: valJobs, Capacity: in.Capacity, Deadlines: b.Deadlines, Policies: sized,
				Errors: estimate.ErrorModel{Kind: estimate.LogNormal, Sigma: s}, Runs: cfg.Runs, Seed: cfg.Seed})
			v.sigmaOf = append(v.sigmaOf, s)
		}
	}
	byFactor := map[float64]*experiment.Experiment{1: v.Exact}
	for _, f := range cfg.LoadFactors {
		x := byFactor[f]
		if x == nil {
			x = &experiment.Experiment{Source: valJobs, Scale: f, Capacity: in.Capacity, Policies: all, Runs: 1, MeanOnly: true}
			byFactor[f] = x
		}
		v.loads = append(v.loads, x)
		v.loadOf = append(v.loadOf, f)
	}
	return v, nil
}

// windowSource builds the validation window, rows [lo, hi) of the log,
// each time the pool needs it (Inputs.WindowSource, with its Into): the
// exact-size and σ runs share one build, each load factor scales one of
// its own, and none is held beside another's runs. A window Inputs kept
// (KeepWindow, ReleaseSimJobs) is dropped at each build: it would stay
// live beside the load factors' copies (0.19 GB at the 10 M log's 3 M
// validation jobs). A later stage's Window builds its jobs afresh.
func windowSource(in *inputs.Inputs, lo, hi int) (*experiment.Source, error) {
	src, err := in.WindowSource(lo, hi)
	if err != nil {
		return nil, err
	}
	build, into := src.Build, src.Into
	src.Build = func() ([]sim.Job, error) {
		if err := in.KeepWindow(lo, lo); err != nil {
			return nil, err
		}
		return build()
	}
	src.Into = func(buf []sim.Job) ([]sim.Job, error) {
		if err := in.KeepWindow(lo, lo); err != nil {
			return nil, err
		}
		return into(buf)
	}
	return src, nil
}

// UnitOrderVersion changes with the order of the validate stage's fluid
// simulations (experiments), which a shard's part numbers them by, so that
// a part written in another order is not merged (1: the load factors
// highest first).
const UnitOrderVersion = 1

// experiments lists the distinct experiments of the plan, the exact-size
// one first, the load factors last, highest first: the workers take the
// simulations in this order, and a simulation's cost grows with the load
// (PFSP at factor 1.2 is the longest of all, 15 CPU-s at 3 M jobs), so
// the pool ends on its shortest ones rather than on one core.
func (v *validation) experiments() []*experiment.Experiment {
	xs := append([]*experiment.Experiment{v.Exact}, v.sigmas...)
	order := make([]int, len(v.loads))
	for k := range order {
		order[k] = k
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(v.loadOf[b], v.loadOf[a]) })
	for _, k := range order {
		if x := v.loads[k]; !slices.Contains(xs, x) {
			xs = append(xs, x)
		}
	}
	return xs
}

// validationResults are the results of a validation's experiments.
type validationResults struct {
	exact  *experiment.ExperimentResult
	sigmas []*experiment.ExperimentResult
	loads  []*experiment.ExperimentResult
}

// Run runs the plan's experiments in one pool with also, which start
// first (they must be Local, so that a UnitHook numbers the plan's
// simulations alone), and returns also's results besides.
func (v *validation) Run(ctx context.Context, opt experiment.RunOptions, also ...*experiment.Experiment) (*validationResults, []*experiment.ExperimentResult, error) {
	for _, x := range also {
		if !x.Local {
			return nil, nil, errors.New("validation: an experiment pooled with the fluid ones is not Local")
		}
	}
	xs := v.experiments()
	out, err := experiment.RunExperiments(ctx, opt, append(slices.Clip(also), xs...)...)
	if err != nil {
		return nil, nil, err
	}
	alsoOut, out := out[:len(also)], out[len(also):]
	r := &validationResults{exact: out[0], sigmas: out[1 : 1+len(v.sigmas)]}
	for _, x := range v.loads {
		r.loads = append(r.loads, out[slices.Index(xs, x)])
	}
	return r, alsoOut, nil
}

// ValidationRowOf is a configuration's aggregate as a validation row.
func ValidationRowOf(name string, sigma float64, a experiment.Aggregate, b *experiment.Bounds) ValidationRow {
	m := a.Mean
	return ValidationRow{
		Name: name, Policy: a.Policy, Sigma: sigma, Runs: a.Runs,
		Mean: m.Response.Mean, MeanMin: a.MeanResponse.Min, MeanMax: a.MeanResponse.Max,
		P50: m.Response.P50, P99: m.Response.P99, MeanSlowdown: m.Slowdown.Mean, P99Slowdown: m.Slowdown.P99,
		Gap: b.Gap(m.Response.Mean), Missed: a.Missed, MissedShare: m.MissedShare, MaxLate: m.MaxLate,
	}
}

// rows returns the validation table: every configuration with exact sizes,
// then each σ > 0 for the configurations that use estimates.
func (v *validation) rows(r *validationResults, b *experiment.Bounds) []ValidationRow {
	var rows []ValidationRow
	for c, vc := range v.Configs {
		rows = append(rows, ValidationRowOf(vc.name, 0, r.exact.Policies[c].Aggregate(), b))
	}
	for k, s := range v.sigmaOf {
		for i, c := range v.sized {
			rows = append(rows, ValidationRowOf(v.Configs[c].name, s, r.sigmas[k].Policies[i].Aggregate(), b))
		}
	}
	return rows
}

// plots fills the data behind the report's figures; the CDF and per-class
// means come from the sink that saw the exact-size runs.
func (v *validation) plots(st *ValidationState, r *validationResults, cfg inputs.RunConfig, classNames []string, rs *experiment.ResultsSink) {
	st.ClassNames = classNames
	st.CDF, st.PerClass = rs.Cdf, rs.Class
	st.SigmaXs = cfg.Sigmas
	for i, c := range v.sized {
		g := report.BoxGroup{Name: v.Configs[c].name}
		for _, s := range cfg.Sigmas {
			var sample []float64
			if s == 0 {
				sample = r.exact.Policies[c].MeanResponses()
			}
			for k, sk := range v.sigmaOf {
				if sk == s {
					sample = r.sigmas[k].Policies[i].MeanResponses()
				}
			}
			g.Samples = append(g.Samples, sample)
		}
		st.SigmaBoxes = append(st.SigmaBoxes, g)
	}
	base := 1.0 // the factors, when the window's load is undefined
	if st.OfferedLoad != nil {
		base = *st.OfferedLoad
	}
	for _, f := range v.loadOf {
		st.LoadXs = append(st.LoadXs, f*base)
	}
	for c, vc := range v.Configs {
		curve := report.XYSeries{Name: vc.name, X: st.LoadXs}
		for k := range v.loadOf {
			curve.Y = append(curve.Y, r.loads[k].Policies[c].Summaries[0].Response.Mean)
		}
		st.LoadCurves = append(st.LoadCurves, curve)
	}
}

// Validate simulates every configuration on the validation window and
// returns the state and the files to write: results.parquet, streamed by
// stream (a Runner's StreamFile) as each configuration's exact-size run
// finishes, holding the rows of the jobs cfg.Results chooses (none: no
// file). A shard's run (opt.Units sharding) keeps its exact-size units'
// rows for its part instead and writes nothing; the merge hands the parts'
// rows to the same stream in the same order. The experiments also (the
// task-level ones, Local) run in the same pool of simulations, first, so
// that both cores stay busy to the end; their results are returned in
// their order (a shard does not run them).
func Validate(ctx context.Context, in *inputs.Inputs, cs *inputs.Classes, tr *tuner.TuneReport, tuned tuner.LASMQParams, b *experiment.Bounds, stream func(name string) (*os.File, error), opt experiment.RunOptions, also ...*experiment.Experiment) (*ValidationState, map[string][]byte, []*experiment.ExperimentResult, error) {
	plan, err := PlanValidation(in, tr, tuned, b)
	if err != nil {
		return nil, nil, nil, err
	}
	if opt.Units.Sharding() {
		plan.Exact.KeepRows = true
		if _, _, err := plan.Run(ctx, opt); err != nil {
			return nil, nil, nil, err
		}
		return nil, nil, nil, tuner.ErrShardDone // a shard writes its units, not the stage's files
	}
	var classNames []string
	for _, c := range cs.Secondary.Result.Classes {
		classNames = append(classNames, bundle.ClassName(c.ID)+" "+c.Label)
	}
	first, n := plan.lo, plan.n
	classOf := cs.Secondary.View(first, n)
	id := func(i int) []byte { return in.Jobs.ID.Bytes(first + i) }
	choice, err := experiment.ParseResults(in.Config.ResultsOrDefault())
	if err != nil {
		return nil, nil, nil, experiment.ParamErr("results", in.Config.Results, "%v", err)
	}
	choice = choice.Resolve(n)
	var keep []bool
	if choice.Mode == experiment.ResultsSample {
		keep = experiment.SampleJobs(n, choice.N, id)
	}
	var out *experiment.BufferedFile
	files := map[string][]byte{}
	if choice.Mode != experiment.ResultsNone {
		f, err := stream("results.parquet")
		if err != nil {
			return nil, nil, nil, err
		}
		out = &experiment.BufferedFile{F: f, Bw: bufio.NewWriterSize(f, 1<<20)}
		defer out.F.Close() // a second close is harmless
		files["results.parquet"] = nil
	}
	var w io.Writer
	if out != nil {
		w = out
	}
	names := make([]string, len(plan.Configs))
	for c, vc := range plan.Configs {
		names[c] = vc.name
	}
	rs, err := experiment.NewResultsSink(w, keep, id, classOf, len(classNames), names)
	if err != nil {
		return nil, nil, nil, err
	}
	current := experiment.CanonicalSpec(in.Config.Current)
	for c, vc := range plan.Configs {
		if experiment.CanonicalSpec(vc.spec) == current {
			rs.Current = c
			break
		}
	}
	plan.Exact.Sink = rs.Sink
	res, alsoOut, err := plan.Run(ctx, opt, also...)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := rs.Close(); err != nil {
		return nil, nil, nil, err
	}
	if out != nil {
		if err := out.Finish(); err != nil {
			return nil, nil, nil, err
		}
	}
	st := &ValidationState{Rows: plan.rows(res, b), Results: choice.String(), currentResp: rs.CurrentResp, OfferedLoad: report.FinitePtr(in.WindowLoad(plan.lo, plan.lo+plan.n))}
	plan.plots(st, res, in.Config, classNames, rs)
	endPhase()
	return st, files, alsoOut, nil
}

// endPhase runs a garbage collection at the end of the validate stage's
// pool of simulations (the fluid and task-level runs), whose per-job
// buffers — every worker's simulator, policies and copies of the window —
// are then garbage. Without it the collector's next goal is twice the
// pool's peak (GOGC), and the phase after it grows the heap up to it
// before collecting: at a 1 M-job log (300,000 validation jobs), when the
// task-level runs were a phase of their own, they peaked at 553 MB live
// and the H-PFSP runs after them grew the heap to 957 MB.
func endPhase() { runtime.GC() }
