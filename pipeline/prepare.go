package pipeline

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"strings"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/capacity"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
	"github.com/schedplan/schedplan/pipeline/tunedeploy"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// withDefaults fills the zero fields with the defaults (not with AsGiven).
func withDefaults(c inputs.RunConfig) inputs.RunConfig {
	if c.AsGiven {
		return c
	}
	d := inputs.DefaultRunConfig()
	def := func(v *string, dv string) {
		if *v == "" {
			*v = dv
		}
	}
	def(&c.Trace, d.Trace)
	def(&c.Cluster, d.Cluster)
	def(&c.Current, d.Current)
	def(&c.Constraints, d.Constraints)
	def((*string)(&c.Objective), string(d.Objective))
	for _, f := range []struct{ v, dv *float64 }{{&c.Sizes.DN, &d.Sizes.DN}, {&c.Sizes.Load, &d.Sizes.Load}, {&c.Split, &d.Split}} {
		if *f.v == 0 {
			*f.v = *f.dv
		}
	}
	for _, f := range []struct{ v, dv *int }{{&c.Budget, &d.Budget}, {&c.Folds, &d.Folds}, {&c.Blocks, &d.Blocks}, {&c.Runs, &d.Runs}, {&c.ContainerMB, &d.ContainerMB}} {
		if *f.v == 0 {
			*f.v = *f.dv
		}
	}
	if c.Seed == 0 {
		c.Seed = d.Seed
	}
	if c.Baselines == nil {
		c.Baselines = d.Baselines
	}
	if c.Sigmas == nil {
		c.Sigmas = d.Sigmas
	}
	if c.LoadFactors == nil {
		c.LoadFactors = d.LoadFactors
	}
	return c
}

// Prepare loads and checks every input of a run — every parameter, the
// cluster spec, the trace and its sizes, the policies named, the split, and
// the work and memory the run will take — so that a run with a bad input
// stops before it writes anything. Errors about a parameter are
// *ParamError; a run beyond the limits is a *TooBigError.
func Prepare(cfg inputs.RunConfig) (*inputs.Inputs, error) {
	cfg = withDefaults(cfg)
	if err := checkParams(&cfg); err != nil {
		return nil, err
	}
	in := &inputs.Inputs{Config: cfg}
	var err error
	if in.Spec, err = cluster.LoadSpec(cfg.Cluster); err != nil {
		return nil, experiment.ParamErr("cluster", cfg.Cluster, "%v", err)
	}
	if err := capacity.CheckWhatIfs(cfg.WhatIfs, in.Spec); err != nil {
		return nil, err
	}
	var currentSpec string
	if cfg.CurrentConfig != "" { // the file alone, before the log is read
		if in.CurrentConfigKey, currentSpec, err = inputs.ReadCurrentConfig(cfg.CurrentConfig); err != nil {
			return nil, err
		}
	}
	inputs.ApplyMemoryLimit(cfg.MemoryLimit, -1)
	if in.Input, err = inputs.ReadInput(inputs.InputOptions{Trace: cfg.Trace, Read: cfg.Read, Tasks: cfg.Tasks}); err != nil {
		return nil, err
	}
	in.Jobs, in.Tasks = in.Input.Jobs, in.Input.Tasks
	if err := inputs.CheckUserNames(in.Jobs, in.Spec, cfg.Cluster); err != nil {
		return nil, err
	}
	if cfg.CurrentConfig != "" { // then against the log (CheckCurrentConfig)
		if err := inputs.CheckCurrentConfigBytes(cfg.CurrentConfig, currentSpec, in.CurrentConfigKey, in.Jobs, cfg.ContainerMB); err != nil {
			return nil, err
		}
	}
	// The limit holds while the log is read too; "auto" is sized by the
	// log once its job count is known.
	if limit, from := inputs.ApplyMemoryLimit(cfg.MemoryLimit, in.Jobs.Len()); limit > 0 {
		slog.Info("soft memory limit", "bytes", limit, "from", from)
	}
	if in.TasksKey, err = inputs.TasksKey(in.Tasks); err != nil {
		return nil, err
	}
	if in.Sizes, in.Source, err = estimate.Sizes(in.Jobs, cfg.Sizes); err != nil {
		return nil, err
	}
	if cfg.Cluster == cluster.AutoName {
		in.Spec = tasklevel.AutoClusterSpec(in.Jobs, in.Sizes, in.Source, cfg.Sizes)
	}
	if in.Capacity, in.CapacityFrom, err = tasklevel.RunCapacity(cfg.Capacity, in.Source, cfg.Sizes, in.Spec); err != nil {
		return nil, err
	}
	// Every check below reads the log's columns (submit times, sizes):
	// the whole log's simulation jobs are never built (PlanSimJobs).
	if err = in.PlanSimJobs(); err != nil {
		return nil, err
	}
	if err := tasklevel.CheckClockColumns(in.Jobs.Submit, in.Sizes, in.Capacity, in.CapacityFrom); err != nil {
		return nil, err
	}
	if in.Split, err = experiment.SplitByArrivals(in.Jobs.Submit, cfg.Split); err != nil {
		return nil, experiment.ParamErr("split", cfg.Split, "%s: %v", in.Jobs.Source, err)
	}
	if err := inputs.CheckWindowsWork(in.Sizes, in.Split); err != nil {
		return nil, experiment.ParamErr("split", cfg.Split, "%s: %v", in.Jobs.Source, err)
	}
	if !cfg.NoLimits {
		if err := experiment.CheckCost("run", inputsCost(in)); err != nil {
			return nil, err
		}
	}
	in.OfferedLoad = experiment.OfferedLoadColumns(in.Jobs.Submit, in.Sizes, in.Capacity)
	for _, w := range []string{tasklevel.OverloadWarning(in.OfferedLoad, in.Capacity, in.CapacityFrom), experiment.SmallWindowWarning(in.Split)} {
		if w != "" {
			in.Warnings = append(in.Warnings, w)
			slog.Warn(w)
		}
	}
	in.Workload = inputs.DescribeInput(in.Input, in.Sizes, in.Source)
	th := sha256.New()
	if err := data.Write(th, in.Jobs, data.FormatArrow); err != nil {
		return nil, err
	}
	in.TraceKey = th.Sum(nil)
	if in.SpecKey, err = json.Marshal(in.Spec); err != nil {
		return nil, err
	}
	if in.JobsKey, err = in.SimJobsKey(); err != nil {
		return nil, err
	}
	return in, nil
}

// checkParams checks every parameter that can be checked without reading
// the inputs.
func checkParams(c *inputs.RunConfig) error {
	finite := func(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
	if err := inputs.CheckSizeOptions(c.Sizes); err != nil {
		return err
	}
	switch {
	case !(c.Capacity >= 0) || !finite(c.Capacity):
		return experiment.ParamErr("capacity", c.Capacity, "want a finite positive capacity, or 0 for the cluster spec's")
	case !(c.Split > 0 && c.Split < 1):
		return experiment.ParamErr("split", c.Split, "want a fraction strictly between 0 and 1")
	case c.K < classify.KUsers:
		return experiment.ParamErr("k", c.K, "want auto, users or a positive number")
	case c.Runs < 1 || c.Runs > experiment.MaxRuns:
		return experiment.ParamErr("runs", c.Runs, "want 1 to %d runs", experiment.MaxRuns)
	case c.ContainerMB < 1 || c.ContainerMB > inputs.MaxContainerMB:
		return experiment.ParamErr("container-mb", c.ContainerMB, "want 1 to %d MB", inputs.MaxContainerMB)
	case len(c.Baselines) == 0:
		return experiment.ParamErr("baselines", "", "no policy given")
	case len(c.Sigmas) == 0:
		return experiment.ParamErr("sigmas", "", "no σ given")
	}
	if err := checkListLengths(c); err != nil {
		return err
	}
	if err := checkStageOptions(&c.Stages); err != nil {
		return err
	}
	if _, err := data.ParseSparkUnit(string(c.Read.Log.Spark)); err != nil {
		return experiment.ParamErr("spark-job", c.Read.Log.Spark, "%v", err)
	}
	if _, _, err := inputs.ParseMemoryLimit(c.MemoryLimit); err != nil {
		return experiment.ParamErr("memory-limit", c.MemoryLimit, "%v", err)
	}
	if _, err := experiment.ParseResults(c.ResultsOrDefault()); err != nil {
		return experiment.ParamErr("results", c.Results, "%v", err)
	}
	if _, err := c.Solver.Resolve(); err != nil {
		return experiment.ParamErr("solver", c.Solver, "%v", err)
	}
	if err := checkTuneParams(c); err != nil {
		return err
	}
	for _, b := range c.Baselines {
		if _, err := experiment.Fluid.Policy(b); err != nil {
			return experiment.ParamErr("baselines", b, "%v", err)
		}
	}
	for i, s := range c.Sigmas {
		if !(s >= 0 && s <= estimate.MaxSigma) {
			return experiment.ParamErr("sigmas", s, "σ must be a number in [0, %d]", estimate.MaxSigma)
		}
		if slices.Contains(c.Sigmas[:i], s) {
			return experiment.ParamErr("sigmas", s, "σ given twice")
		}
	}
	for _, f := range c.LoadFactors {
		if !(f > 0 && f <= MaxLoadFactor) {
			return experiment.ParamErr("load-factors", f, "a load factor must be a number in (0, %d]", MaxLoadFactor)
		}
	}
	return nil
}

// MaxListValues bounds run's lists (--sigmas, --load-factors,
// --baselines): the run's work grows with each, and a report of thousands
// of rows is read by no one.
const MaxListValues = 100

// checkListLengths refuses lists longer than MaxListValues.
func checkListLengths(c *inputs.RunConfig) error {
	switch {
	case len(c.Sigmas) > MaxListValues:
		return experiment.ParamErr("sigmas", fmt.Sprintf("(%d values)", len(c.Sigmas)), "want at most %d σ: each is a set of simulations of every sized policy and a row of the report", MaxListValues)
	case len(c.LoadFactors) > MaxListValues:
		return experiment.ParamErr("load-factors", fmt.Sprintf("(%d values)", len(c.LoadFactors)), "want at most %d load factors: each is a validation of every configuration", MaxListValues)
	case len(c.Baselines) > MaxListValues:
		return experiment.ParamErr("baselines", fmt.Sprintf("(%d policies)", len(c.Baselines)), "want at most %d baselines", MaxListValues)
	}
	return nil
}

// MaxLoadFactor is the largest factor of --load-factors: 1e308 scaled the
// sizes to +Inf in the middle of the validate stage.
const MaxLoadFactor = 100

// checkTuneParams checks the tuning parameters: budget, objective,
// constraints, folds and the current scheduler.
func checkTuneParams(c *inputs.RunConfig) error {
	if c.Budget < 1 || c.Budget > inputs.MaxBudget {
		return experiment.ParamErr("budget", c.Budget, "want 1 to %d candidates", inputs.MaxBudget)
	}
	if _, err := experiment.Fluid.Policy(c.Current); err != nil {
		return experiment.ParamErr("current", c.Current, "%v", err)
	}
	if _, err := tuner.ParseObjective(string(c.Objective)); err != nil {
		return experiment.ParamErr("objective", c.Objective, "%v", err)
	}
	if _, err := tuner.ParseConstraints(c.Constraints); err != nil {
		return experiment.ParamErr("constraint", c.Constraints, "%v", err)
	}
	if c.Folds < 1 || c.Folds > inputs.MaxFolds {
		return experiment.ParamErr("folds", c.Folds, "want 1 to %d folds", inputs.MaxFolds)
	}
	return nil
}

// TuneRequest is what `schedplan tune` is asked, as its flags give it: the
// policy to tune (las_mq) and the tuning parameters, named as RunConfig
// names them.
type TuneRequest struct {
	Policy, Objective, Constraints, Current string
	Budget, Folds                           int
	Seed                                    uint64
}

// checkHPFSP refuses, with --policy hpfsp, the flags only LAS_MQ's search
// reads (H-PFSP's tuning scores a fixed grid of FAIR_LIMIT × threshold on
// the whole tuning window, with the objective and the seed): --budget 1
// was silently ignored. A flag at its default passes.
func (t TuneRequest) checkHPFSP() error {
	if strings.ToLower(t.Policy) != "hpfsp" {
		return nil
	}
	d := inputs.DefaultRunConfig()
	for _, f := range []struct {
		name     string
		val, def any
	}{{"budget", t.Budget, d.Budget}, {"folds", t.Folds, d.Folds}, {"constraint", t.Constraints, d.Constraints}, {"current", t.Current, d.Current}} {
		if f.val != f.def {
			return experiment.ParamErr(f.name, f.val, "tune --policy hpfsp scores a fixed grid of FAIR_LIMIT × threshold on the whole tuning window: --%s is LAS_MQ's (drop it)", f.name)
		}
	}
	return nil
}

// Options checks the request as Prepare checks run's tuning parameters and
// returns the tuner's options.
func (t TuneRequest) Options() (tuner.TuneOptions, error) {
	if p := strings.ToLower(t.Policy); p != "las_mq" && p != "hpfsp" {
		return tuner.TuneOptions{}, experiment.ParamErr("policy", t.Policy, "use las_mq (fluid core) or hpfsp (task level: FAIR_LIMIT and the progress threshold); COSHH's k is tuned by run's tune-coshh stage")
	}
	c := inputs.RunConfig{Objective: tuner.Objective(t.Objective), Constraints: t.Constraints, Current: t.Current, Budget: t.Budget, Folds: t.Folds}
	if err := t.checkHPFSP(); err != nil {
		return tuner.TuneOptions{}, err
	}
	if err := checkTuneParams(&c); err != nil {
		return tuner.TuneOptions{}, err
	}
	obj, _ := tuner.ParseObjective(t.Objective)
	cons, _ := tuner.ParseConstraints(t.Constraints)
	return tuner.TuneOptions{Budget: t.Budget, Objective: obj, Constraints: cons, Current: t.Current, Folds: t.Folds, Seed: t.Seed}, nil
}

// HPFSP reports whether the request tunes H-PFSP (at task level).
func (t TuneRequest) HPFSP() bool { return strings.ToLower(t.Policy) == "hpfsp" }

// TracedTuneReport is a tuning report with the trace it was tuned on, as
// `schedplan tune --json` prints it.
type TracedTuneReport struct {
	Trace string `json:"trace"`
	*tuner.TuneReport
}

// TuneCost estimates TuneLASMQWindows: every candidate (the budget and
// the 18 sensitivity points) on every chunk of the tuning window, each
// chunk at most SampleJobs jobs, a third of them (the remaining-work order)
// once more per σ > 0; the final check of the shortlist and the named
// baselines (13) on the whole window, each chunk at most CheckJobs jobs,
// when chunks are sampled; the SRPT bound and the bootstrap (3) on those
// chunks; and the comparisons (8) and
// robustness rows (6) on the validation window.
func TuneCost(budget int, split experiment.Split, opt tuner.TuneOptions) experiment.Cost {
	opt = tuner.WithTuneDefaults(opt, nil)
	folds := min(opt.Folds, max(1, split.TuneJobs-1))
	perChunk := math.Ceil(float64(split.TuneJobs) / float64(folds+1))
	scored := math.Min(float64(split.TuneJobs), float64(folds+1)*math.Min(perChunk, float64(opt.SampleJobs)))
	cands := float64(budget+18) * (1 + float64(len(opt.Sigmas)-1)/3)
	tune := cands * scored
	check := math.Min(float64(split.TuneJobs), float64(folds+1)*math.Min(perChunk, float64(opt.CheckJobs)))
	if scored < float64(split.TuneJobs) {
		tune += float64(opt.Shortlist+8) * float64(len(opt.Sigmas)) * check
	}
	tune += 3 * check
	val := 8.0 + 6
	return experiment.Cost{Simulations: cands*float64(folds+1) + val + 3, JobSteps: tune + val*float64(split.ValidJobs),
		Bytes: cands * float64(folds+1) * float64(len(opt.Sigmas)) * experiment.SummaryBytes}
}

// cost estimates the run's simulations: tuning, the refinement's (two
// rows per multiplier on at most RefineMaxJobs jobs), then on the
// validation window the bounds and every validation experiment.
func inputsCost(in *inputs.Inputs) experiment.Cost {
	cfg := in.Config
	valN := float64(in.Split.ValidJobs)
	configs := float64(4 + len(cfg.Baselines))
	sized := 0.0
	for _, s := range append([]string{cfg.Current}, cfg.Baselines...) {
		if info, err := experiment.Fluid.Policy(s); err == nil && info.Uses.Estimates {
			sized++
		}
	}
	sigmas := 0.0
	for _, s := range cfg.Sigmas {
		if s > 0 {
			sigmas++
		}
	}
	errRuns := sized * sigmas * float64(cfg.Runs)
	valSims := 3 + configs*float64(1+len(cfg.LoadFactors)) + errRuns
	deploy, deployJobs := tunedeploy.DeployCost()
	return TuneCost(cfg.Budget, in.Split, tuner.TuneOptions{Folds: cfg.Folds}).Add(experiment.Cost{
		Simulations: valSims + deploy,
		JobSteps:    valSims*valN + deployJobs,
		Bytes:       valN*experiment.ValidateJobBytes() + errRuns*experiment.SummaryBytes,
	})
}
