package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/lp"
)

// RunConfig is everything `schedplan run` needs. Its zero fields take the
// defaults of DefaultRunConfig.
type RunConfig struct {
	Trace   string               `json:"trace"` // data.Open spec
	Read    data.ReadOptions     `json:"-"`
	Sizes   estimate.SizeOptions `json:"sizes"`
	Cluster string               `json:"cluster"` // cluster spec path, or "default"
	// Capacity is the fluid server's capacity (sizes from bytes are in
	// seconds of a capacity-1 server).
	Capacity  float64   `json:"capacity"`
	Split     float64   `json:"split"`
	K         int       `json:"k"` // classify.KAuto, KUsers or fixed
	Solver    lp.Solver `json:"solver"`
	WhatIfs   []string  `json:"what_ifs"`
	Budget    int       `json:"budget"`
	Objective Objective `json:"objective"`
	// Constraints bound the tuned configuration's other metrics
	// (ParseConstraints; default DefaultConstraints).
	Constraints string `json:"constraints"`
	// Folds is the number of rolling-origin folds of the tuning window.
	Folds int `json:"folds"`
	// Blocks is no longer used (see TuneOptions.Blocks).
	Blocks int `json:"blocks"`
	// Current is the scheduler the cluster runs today (a policy spec);
	// RequireImprovement compares the tuned configuration with it.
	Current string `json:"current"`
	// Baselines are validated besides the tuned configuration, Current and
	// the bounds.
	Baselines []string `json:"baselines"`
	// Sigmas, Runs: the size-estimation errors (log-normal σ) the size-based
	// policies are re-run with, Runs times each.
	Sigmas []float64 `json:"sigmas"`
	Runs   int       `json:"runs"`
	// LoadFactors scale the validation window's load for the load curve.
	LoadFactors []float64 `json:"load_factors"`
	Seed        uint64    `json:"seed"`
	ContainerMB int       `json:"container_mb"`
}

// DefaultRunConfig returns the defaults.
func DefaultRunConfig() RunConfig {
	return RunConfig{
		Trace: "embedded", Sizes: estimate.DefaultSizeOptions(), Cluster: "default",
		Capacity: 1, Split: 0.7, K: classify.KAuto, Solver: lp.Auto,
		Budget: 500, Objective: MinMean, Constraints: DefaultConstraints, Folds: 5, Blocks: 4,
		Current:   FairSpec,
		Baselines: []string{"fifo", FairSpec, "las", PaperDefault.Spec(), "srpt", "fsp+ps", "pfsp"},
		Sigmas:    []float64{0, 0.25, 0.5, 1}, Runs: 10,
		LoadFactors: []float64{0.5, 0.7, 0.8, 0.9, 1, 1.1, 1.2},
		Seed:        1, ContainerMB: 1024,
	}
}

// Inputs are what Prepare read and checked: everything the stages need,
// before any output exists.
type Inputs struct {
	Config   RunConfig
	Spec     *cluster.Spec
	Jobs     *data.Jobs
	Sizes    []float64 // fluid sizes (capacity-1 seconds for SWIM)
	Source   estimate.Source
	SimJobs  []sim.Job
	Split    Split
	Workload Workload
	TraceKey []byte // canonical content of the log, for stage keys
}

// Prepare loads and checks every input of a run — the cluster spec, the
// trace and its sizes, the policies named, the split — so that a run with a
// bad input stops before it writes anything.
func Prepare(cfg RunConfig) (*Inputs, error) {
	in := &Inputs{Config: cfg}
	for _, s := range append([]string{cfg.Current}, cfg.Baselines...) {
		if _, err := sim.ParsePolicy(s); err != nil {
			return nil, fmt.Errorf("policy: %w", err)
		}
	}
	if cfg.Runs < 1 {
		return nil, fmt.Errorf("runs must be at least 1")
	}
	if _, err := ParseConstraints(cfg.Constraints); err != nil {
		return nil, fmt.Errorf("constraints: %w", err)
	}
	if cfg.Folds < 1 {
		return nil, fmt.Errorf("folds %d: need at least 1", cfg.Folds)
	}
	if _, err := cfg.Solver.Resolve(); err != nil {
		return nil, fmt.Errorf("solver: %w", err)
	}
	var err error
	if in.Spec, err = cluster.LoadSpec(cfg.Cluster); err != nil {
		return nil, fmt.Errorf("cluster spec: %w", err)
	}
	if in.Jobs, err = data.Open(cfg.Trace, cfg.Read); err != nil {
		return nil, err
	}
	if in.Sizes, in.Source, err = estimate.Sizes(in.Jobs, cfg.Sizes); err != nil {
		return nil, err
	}
	if in.SimJobs, err = JobsOf(in.Jobs, in.Sizes, in.Spec); err != nil {
		return nil, err
	}
	if in.Split, err = SplitByTime(in.SimJobs, cfg.Split); err != nil {
		return nil, fmt.Errorf("%s: %w", in.Jobs.Source, err)
	}
	in.Workload = Describe(in.Jobs, in.Sizes, in.Source)
	var buf bytes.Buffer
	if err := data.Write(&buf, in.Jobs, data.FormatArrow); err != nil {
		return nil, err
	}
	in.TraceKey = buf.Bytes()
	return in, nil
}

// classState is the classify stage's state.
type classState struct {
	Primary   classOut `json:"primary"`
	Secondary classOut `json:"secondary"`
}

type classOut struct {
	Result *classify.Result `json:"result"`
	Rows   []int            `json:"rows,omitempty"`
	Assign []int32          `json:"assign"`
}

// capacityState is the capacity stage's state.
type capacityState struct {
	Primary        *CapacityPlan `json:"primary,omitempty"`
	PrimaryNotes   []string      `json:"primary_notes,omitempty"`
	Secondary      *CapacityPlan `json:"secondary,omitempty"`
	SecondaryNotes []string      `json:"secondary_notes,omitempty"`
}

// boundsState is the bounds stage's state (validation window).
type boundsState struct {
	Bounds    *Bounds   `json:"bounds"`
	Deadlines []float64 `json:"deadlines"`
}

// RunResult is what a run produced (also summary.json).
type RunResult struct {
	Version    int             `json:"version"`
	Trace      string          `json:"trace"`
	Workload   Workload        `json:"workload"`
	Split      Split           `json:"split"`
	Lambda     float64         `json:"lambda"`
	Tuned      LASMQParams     `json:"tuned_las_mq"`
	TunedSpec  string          `json:"tuned_policy"`
	Bounds     *Bounds         `json:"bounds"`
	Validation []ValidationRow `json:"validation"`
	Current    string          `json:"current"`
	// Improvement is 1 − tuned/current mean response on the validation
	// window (negative: the tuned configuration is worse).
	Improvement float64  `json:"improvement_over_current"`
	Improved    bool     `json:"improved"`
	Skipped     []string `json:"-"`
	Ran         []string `json:"-"`
	Files       []string `json:"files"`

	// TunedRow and CurrentRow are the validation rows (exact sizes) the
	// verdict compares: response beside slowdown and missed deadlines.
	TunedRow   ValidationRow `json:"tuned_validation"`
	CurrentRow ValidationRow `json:"current_validation"`
}

// Run runs every stage into r.Dir. in comes from Prepare.
func Run(in *Inputs, r *Runner) (*RunResult, error) {
	cfg := in.Config
	if err := r.Open(); err != nil {
		return nil, err
	}
	// ingest: the trace's content and the size rule.
	ingestKey, err := r.KeyOf("ingest", struct {
		Sizes estimate.SizeOptions
		Split float64
		Cap   float64
	}{cfg.Sizes, cfg.Split, cfg.Capacity}, nil, in.TraceKey)
	if err != nil {
		return nil, err
	}
	var wl Workload
	if err := r.Stage("ingest", ingestKey, &wl, func() (map[string][]byte, error) {
		wl = in.Workload
		return nil, nil
	}); err != nil {
		return nil, err
	}

	// classify: COSHH's primary and secondary classifications.
	clusterSizes := estimate.ContainerSeconds(in.Sizes, in.Source, cfg.Sizes, in.Spec.Capacity())
	specKey, err := json.Marshal(in.Spec)
	if err != nil {
		return nil, err
	}
	classKey, err := r.KeyOf("classify", struct {
		K    int
		Seed uint64
	}{cfg.K, cfg.Seed}, []string{"ingest"}, specKey)
	if err != nil {
		return nil, err
	}
	var cs classState
	if err := r.Stage("classify", classKey, &cs, func() (map[string][]byte, error) {
		p, s, err := classify.COSHH(in.Jobs, clusterSizes, in.Spec, classify.Options{K: cfg.K, Seed: cfg.Seed})
		if err != nil {
			return nil, err
		}
		cs = classState{Primary: classOut{p, p.Rows, p.Assign}, Secondary: classOut{s, s.Rows, s.Assign}}
		var buf bytes.Buffer
		if err := data.WriteTable(&buf, classify.Table(p, s), data.FormatParquet); err != nil {
			return nil, err
		}
		return map[string][]byte{"classes.parquet": buf.Bytes()}, nil
	}); err != nil {
		return nil, err
	}

	// capacity: the COSHH LP of both classifications.
	capKey, err := r.KeyOf("capacity", struct {
		Solver  lp.Solver
		WhatIfs []string
	}{cfg.Solver, cfg.WhatIfs}, []string{"classify"})
	if err != nil {
		return nil, err
	}
	var capSt capacityState
	if err := r.Stage("capacity", capKey, &capSt, func() (map[string][]byte, error) {
		opt := lp.COSHHOptions{Solver: cfg.Solver}
		var err error
		if capSt.Primary, capSt.PrimaryNotes, err = PlanCapacity(cs.Primary.Result, in.Spec, opt, nil); err != nil {
			return nil, fmt.Errorf("primary classification: %w", err)
		}
		if capSt.Secondary, capSt.SecondaryNotes, err = PlanCapacity(cs.Secondary.Result, in.Spec, opt, cfg.WhatIfs); err != nil {
			return nil, fmt.Errorf("secondary classification: %w", err)
		}
		return nil, nil
	}); err != nil {
		return nil, err
	}

	// tune: LAS_MQ on the tuning window, validated on the rest.
	tuneKey, err := r.KeyOf("tune", struct {
		Budget      int
		Objective   Objective
		Constraints string
		Folds       int
		Current     string
		Seed        uint64
	}{cfg.Budget, cfg.Objective, cfg.Constraints, cfg.Folds, cfg.Current, cfg.Seed}, []string{"ingest"})
	if err != nil {
		return nil, err
	}
	var tr TuneReport
	if err := r.Stage("tune", tuneKey, &tr, func() (map[string][]byte, error) {
		cons, err := ParseConstraints(cfg.Constraints)
		if err != nil {
			return nil, err
		}
		rep, err := TuneLASMQWindows(in.SimJobs, cfg.Capacity, in.Split, TuneOptions{
			Budget: cfg.Budget, Objective: cfg.Objective, Constraints: cons, Folds: cfg.Folds,
			Current: cfg.Current, Seed: cfg.Seed, Progress: r.progress("tune"),
		})
		if err != nil {
			return nil, err
		}
		tr = *rep
		return nil, nil
	}); err != nil {
		return nil, err
	}

	// bounds: on the validation window.
	_, valJobs := in.Split.Windows(in.SimJobs)
	boundsKey, err := r.KeyOf("bounds", nil, []string{"ingest"})
	if err != nil {
		return nil, err
	}
	var bs boundsState
	if err := r.Stage("bounds", boundsKey, &bs, func() (map[string][]byte, error) {
		b, err := ComputeBounds(valJobs, cfg.Capacity)
		if err != nil {
			return nil, err
		}
		bs = boundsState{Bounds: b, Deadlines: b.Deadlines}
		return nil, nil
	}); err != nil {
		return nil, err
	}
	bs.Bounds.Deadlines = bs.Deadlines

	// emit: the configuration bundle and the YARN files.
	bundle := buildBundle(in, &cs, &capSt, &tr, bs.Bounds)
	emitKey, err := r.KeyOf("emit", cfg.ContainerMB, []string{"classify", "capacity", "tune", "bounds"})
	if err != nil {
		return nil, err
	}
	var emitted struct{}
	if err := r.Stage("emit", emitKey, &emitted, func() (map[string][]byte, error) {
		y, err := MarshalBundle(bundle)
		if err != nil {
			return nil, err
		}
		files, err := RenderYARN(bundle, FairSchedulerOptions{ContainerMB: cfg.ContainerMB})
		if err != nil {
			return nil, err
		}
		files["schedplan.yaml"] = y
		return files, nil
	}); err != nil {
		return nil, err
	}

	// validate: every configuration on the validation window.
	valKey, err := r.KeyOf("validate", struct {
		Current   string
		Baselines []string
		Sigmas    []float64
		Runs      int
		Loads     []float64
		Seed      uint64
	}{cfg.Current, cfg.Baselines, cfg.Sigmas, cfg.Runs, cfg.LoadFactors, cfg.Seed}, []string{"tune", "bounds", "classify"})
	if err != nil {
		return nil, err
	}
	var vs ValidationState
	if err := r.Stage("validate", valKey, &vs, func() (map[string][]byte, error) {
		v, files, err := validate(in, &cs, &tr, bs.Bounds, r.progress("validate"))
		if err != nil {
			return nil, err
		}
		vs = *v
		return files, nil
	}); err != nil {
		return nil, err
	}

	res := &RunResult{
		Version: BundleVersion, Trace: in.Jobs.Source, Workload: wl, Split: in.Split,
		Tuned: tr.Best, TunedSpec: tr.Best.Spec(), Bounds: bs.Bounds, Validation: vs.Rows,
		Current: cfg.Current,
	}
	if capSt.Secondary != nil {
		res.Lambda = capSt.Secondary.Lambda
	}
	for _, row := range vs.Rows {
		if row.Policy == cfg.Current && row.Sigma == 0 {
			res.CurrentRow = row
		}
		if row.Name == "tuned las_mq" && row.Sigma == 0 {
			res.TunedRow = row
		}
	}
	if cur, tuned := res.CurrentRow.Mean, res.TunedRow.Mean; cur > 0 {
		res.Improvement = 1 - tuned/cur
		res.Improved = tuned < cur
	}

	// report: summary.json and report.html.
	repKey, err := r.KeyOf("report", nil, []string{"validate", "emit", "capacity"})
	if err != nil {
		return nil, err
	}
	var reported struct{}
	if err := r.Stage("report", repKey, &reported, func() (map[string][]byte, error) {
		sum, err := json.MarshalIndent(res, "", "  ")
		if err != nil {
			return nil, err
		}
		html, err := buildReport(in, bundle, &cs, &capSt, &tr, bs.Bounds, &vs, res)
		if err != nil {
			return nil, err
		}
		return map[string][]byte{"summary.json": append(sum, '\n'), "report.html": html}, nil
	}); err != nil {
		return nil, err
	}
	res.Skipped, res.Ran = r.Skipped, r.Ran
	res.Files = []string{"schedplan.yaml", "capacity-scheduler.xml", "fair-scheduler.xml", "results.parquet", "classes.parquet", "summary.json", "report.html"}
	return res, nil
}

// progress returns the runner's progress callback for a stage.
func (r *Runner) progress(stage string) func(done, total int) {
	if r.Progress == nil {
		return nil
	}
	return func(done, total int) { r.Progress(stage, done, total) }
}

// buildBundle assembles schedplan.yaml from the stages' states.
func buildBundle(in *Inputs, cs *classState, capSt *capacityState, tr *TuneReport, b *Bounds) *Bundle {
	cfg := in.Config
	bd := &Bundle{Version: BundleVersion, Generator: "schedplan", Seed: cfg.Seed}
	bd.Trace = TraceInfo{
		Source: in.Jobs.Source, SHA256: sha256Hex(in.TraceKey), Jobs: in.Jobs.Len(), SizeSource: string(in.Source),
		DN: cfg.Sizes.DN, Load: cfg.Sizes.Load, TuneJobs: in.Split.TuneJobs, ValidateJobs: in.Split.ValidJobs, SplitTime: in.Split.Time,
	}
	bd.Cluster = ClusterInfo{Name: in.Spec.Name, Capacity: in.Spec.Capacity()}
	for _, r := range in.Spec.Resources {
		bd.Cluster.Resources = append(bd.Cluster.Resources, ResourceInfo{Name: r.Name, Count: r.Count, Slots: r.Slots, ExecRate: r.ExecRate})
	}
	names, idx := in.Jobs.Users()
	counts := make([]int, len(names))
	for _, u := range idx {
		counts[u]++
	}
	seen := map[string]bool{}
	for k, n := range names {
		u := in.Spec.User(n)
		bd.Users = append(bd.Users, UserConfig{Name: n, Jobs: counts[k], MinShare: u.MinShare, Weight: u.EffectiveWeight()})
		seen[n] = true
	}
	for _, u := range in.Spec.Users {
		if !seen[u.Name] {
			bd.Users = append(bd.Users, UserConfig{Name: u.Name, MinShare: u.MinShare, Weight: u.EffectiveWeight()})
		}
	}
	res := cs.Secondary.Result
	for _, c := range res.Classes {
		bd.Classes = append(bd.Classes, ClassConfig{
			Name: ClassName(c.ID), Label: c.Label, Count: c.Count, Share: c.Share, Centroid: c.Centroid,
			MeanSize: c.MeanSize, Alpha: c.Alpha, Mu: c.Mu,
		})
	}
	for f, name := range res.Features {
		m := classify.Method("")
		if f < len(res.Scaling.Methods) {
			m = res.Scaling.Methods[f]
		}
		fs := FeatureScale{Feature: name, Log: m == classify.Log}
		if f < len(res.Scaling.Mean) {
			fs.Mean, fs.SD = res.Scaling.Mean[f], res.Scaling.Std[f]
		}
		bd.Scaling = append(bd.Scaling, fs)
	}
	bd.Capacity = capSt.Secondary
	bd.LASMQ = tr.Best.Config()
	bd.Bounds = &BoundsInfo{SRPTMean: b.SRPTMean, FSPMean: b.FSPMean, PSMean: b.PSMean}
	return bd
}

func sha256Hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
