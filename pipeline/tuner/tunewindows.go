package tuner

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/report"
)

// FairSpec is the fluid stand-in for the Hadoop Fair Scheduler: weighted
// processor sharing (GPS) with each job's weight (its user's weight × its
// priority). With one user and no priorities it is PS.
const FairSpec = "gps"

// Comparison is one configuration's score on both windows.
type Comparison struct {
	Name   string `json:"name"`
	Policy string `json:"policy"` // specification for sim.ParsePolicy
	// Tune is the mean over the rolling-origin folds of the tuning window
	// (see TuneCV); Validate is on the validation window, simulated whole.
	Tune     Score `json:"tune"`
	Validate Score `json:"validate"`
}

// RobustRow is a configuration re-run on the validation window with the
// offered load scaled by LoadFactor.
type RobustRow struct {
	Name       string  `json:"name"`
	LoadFactor float64 `json:"load_factor"`
	Score      Score   `json:"score"`
}

// TuneReport is what `schedplan tune` and the pipeline's tune stage produce.
type TuneReport struct {
	Split    experiment.Split `json:"split"`
	Capacity float64          `json:"capacity"`
	// HeldPerUnit is the held container-seconds in one unit of the
	// thresholds (HeldPerUnit: the cluster's containers / Capacity), what
	// YARN, `schedplan yarn-controller` and the task level count; 0: not
	// known (TuneWindow sets it).
	HeldPerUnit float64     `json:"held_container_seconds_per_unit,omitempty"`
	Result      *TuneResult `json:"result"`
	// Best is the LAS_MQ configuration the bundle deploys: the choice of
	// the cross-validated search when it is a LAS_MQ configuration, else
	// the best LAS_MQ one (see CVResult.Deployed).
	Best       LASMQParams  `json:"best"`
	Compare    []Comparison `json:"compare"`
	Robustness []RobustRow  `json:"robustness"`
	// Improvement is 1 − tuned/best-baseline mean response on the validation
	// window, the baselines being Hu et al.'s default and Fair; negative when
	// the tuned configuration is worse.
	Improvement float64 `json:"validation_improvement"`
	// CV is the cross-validated search: folds, every candidate's fold
	// scores, the Pareto front, the choice and why.
	CV *CVResult `json:"cv"`
	// TuneLoad and ValidationLoad are the windows' offered loads at
	// Capacity (FluidLoadDef; nil when undefined): the robustness rows
	// run at ValidationLoad × their factor.
	TuneLoad       *float64 `json:"tune_offered_load,omitempty"`
	ValidationLoad *float64 `json:"validation_offered_load,omitempty"`
}

// LoadFactors are the offered-load changes every tuned configuration is
// re-run at (±20%).
var LoadFactors = []float64{0.8, 1, 1.2}

// DefaultLASMQName names the baseline LAS_MQ in tables: Hu et al.'s
// trace-simulation setting (sim.DefaultLASMQ).
const DefaultLASMQName = "las_mq default (Hu et al.)"

// TuneLASMQWindows tunes LAS_MQ on the tuning window of jobs by rolling-
// origin cross-validation (TuneCV) and validates it on the rest: the
// deployed configuration, Hu et al.'s default, the first guess and Fair —
// then the choice (when it is not the deployed one), the current
// scheduler, plain LAS and PS — on both windows (the tuning window's score
// being the fold mean), and the robustness rows at ±20% load. Every
// simulation runs on the fluid resolution.
func TuneLASMQWindows(ctx context.Context, jobs []sim.Job, capacity float64, split experiment.Split, opt TuneOptions) (*TuneReport, error) {
	tuneJobs, valJobs := split.Windows(jobs)
	val := &experiment.Source{N: len(valJobs), Build: func() ([]sim.Job, error) { return slices.Clone(valJobs), nil }}
	return TuneLASMQSource(ctx, SliceSource(tuneJobs), val, capacity, split, opt)
}

// TuneLASMQSource is TuneLASMQWindows of a tuning window read through a
// JobSource (TuneCVSource) and of a validation window built by val when
// the comparisons start, after the search: neither the whole log's jobs
// nor the validation window's (48 B a job: 0.14 GB for the 10 M log's 3 M
// validation jobs) are held through the search. val's first build gives
// the PS deadlines and the window's load, then the exact-size comparisons;
// each load factor scales a build of its own in place (see
// experiment.Source), so that one window is live at a time where the
// pool can wait.
func TuneLASMQSource(ctx context.Context, tune *JobSource, val *experiment.Source, capacity float64, split experiment.Split, opt TuneOptions) (*TuneReport, error) {
	if opt.Sizes == nil {
		opt.Sizes = tune.Size
	}
	cv, err := TuneCVSource(ctx, tune, capacity, opt, SimulateWindows(nil, capacity))
	if err != nil {
		return nil, err
	}
	res := cv.TuneResult(opt.Sizes)
	valJobs, err := val.Build()
	if err != nil {
		return nil, err
	}
	if len(valJobs) != val.N {
		return nil, fmt.Errorf("the validation window's source built %d jobs, want %d", len(valJobs), val.N)
	}
	rep := &TuneReport{Split: split, Capacity: capacity, Result: res, Best: res.Best.Params, CV: cv,
		TuneLoad: report.FinitePtr(experiment.OfferedLoadColumns(tune.Arrival, tune.Size, capacity)), ValidationLoad: report.FinitePtr(experiment.OfferedLoad(valJobs, capacity))}
	names := []string{"tuned las_mq", DefaultLASMQName, "first guess las_mq", "fair"}
	specs := []string{res.Best.Params.Spec(), sim.DefaultLASMQ().Spec(), res.FirstGuess.Spec(), FairSpec}
	cands := []int{cv.Deployed, -1, cv.FGIdx, -1}
	if cv.Chosen != cv.Deployed {
		c := &cv.Candidates[cv.Chosen]
		names, specs, cands = append(names, "chosen: "+c.Label()), append(specs, c.Policy), append(cands, cv.Chosen)
	}
	for _, b := range []int{cv.CurrentIdx, cv.LASIdx, cv.PSIdx} {
		if b < 0 || cv.Candidates[b].Policy == FairSpec {
			continue
		}
		c := &cv.Candidates[b]
		names, specs, cands = append(names, c.Label()), append(specs, c.Policy), append(cands, b)
	}
	deadlines, err := experiment.PSDeadlines(valJobs, capacity)
	if err != nil {
		return nil, err
	}
	// The exact window and the tuned configuration, the default and Fair
	// at ±20% load, in one pool reading val: the first build is handed to
	// it (handOver), and each factor's copy is built when its simulations
	// start and dropped after them.
	src := handOver(val, valJobs)
	robust := []int{0, 1, 3}
	xs := []*experiment.Experiment{{Source: src, Capacity: capacity, Deadlines: deadlines, Policies: specs, Runs: 1}}
	var factors []float64
	for _, f := range LoadFactors {
		if f == 1 {
			continue
		}
		x := &experiment.Experiment{Source: src, Scale: f, Capacity: capacity, Runs: 1}
		for _, c := range robust {
			x.Policies = append(x.Policies, specs[c])
		}
		xs, factors = append(xs, x), append(factors, f)
	}
	out, err := experiment.RunExperiments(ctx, experiment.RunOptions{Workers: opt.Workers}, xs...)
	if err != nil {
		return nil, err
	}
	for c := range specs {
		cmp := Comparison{Name: names[c], Policy: specs[c], Validate: ScoreOf(out[0].Policies[c].Summaries[0])}
		if i := cv.candidateOf(specs[c], cands[c]); i >= 0 {
			cmp.Tune = cv.Candidates[i].FoldMean
		}
		rep.Compare = append(rep.Compare, cmp)
	}
	base := math.Min(rep.Compare[1].Validate.Mean, rep.Compare[3].Validate.Mean)
	if base > 0 {
		rep.Improvement = 1 - rep.Compare[0].Validate.Mean/base
	}
	for k, f := range factors {
		for i, c := range robust {
			rep.Robustness = append(rep.Robustness, RobustRow{Name: names[c], LoadFactor: f, Score: ScoreOf(out[1+k].Policies[i].Summaries[0])})
		}
	}
	return rep, nil
}

// handOver is src, but for its first build, which is jobs (built by src
// already): the pool's first copy is the build the caller made.
func handOver(src *experiment.Source, jobs []sim.Job) *experiment.Source {
	return &experiment.Source{N: src.N, Build: func() ([]sim.Job, error) {
		if j := jobs; j != nil { // Build is called under the pool's lock
			jobs = nil
			return j, nil
		}
		return src.Build()
	}}
}

// candidateOf returns idx when it is a candidate, else the candidate with
// the specification (or its canonical LAS_MQ form), else −1.
func (r *CVResult) candidateOf(spec string, idx int) int {
	if idx >= 0 {
		return idx
	}
	for i := range r.Candidates {
		if r.Candidates[i].Policy == spec || CanonicalLASMQ(r.Candidates[i].Policy) == CanonicalLASMQ(spec) && CanonicalLASMQ(spec) != "" {
			return i
		}
	}
	return -1
}

// CanonicalLASMQ returns the specification of a las_mq policy with its
// inactive parameters fixed (see LASMQParams.canonical), "" for others.
func CanonicalLASMQ(spec string) string {
	p, err := sim.ParsePolicy(spec)
	if err != nil {
		return ""
	}
	m, ok := p.(*sim.LASMQ)
	if !ok {
		return ""
	}
	w := m.Weights
	if w == nil {
		w = sim.DecayWeights(m.K, 1)
	}
	d := 1.0
	if m.K > 1 {
		d = w[1]
	}
	if !slices.Equal(w, sim.DecayWeights(m.K, d)) || m.Strict != (d == 0 && m.K > 1) {
		return ""
	}
	return LASMQParams{K: m.K, Alpha0: m.Alpha0, P: m.P, Decay: d, Order: m.Order}.canonical().Spec()
}

// TuneResult summarises the search in the form of the single-window
// tuner's result: the first guess, the deployed configuration and its
// fold-mean score, every LAS_MQ candidate, the sensitivity curves and the
// current scheduler's fold-mean score as the reference.
func (r *CVResult) TuneResult(sizes []float64) *TuneResult {
	res := &TuneResult{Objective: r.Objective}
	if r.FGIdx >= 0 && r.Candidates[r.FGIdx].LASMQ != nil {
		res.FirstGuess = *r.Candidates[r.FGIdx].LASMQ
	} else {
		res.FirstGuess = FirstGuess(sizes, 6) // reads the sizes again: only when needed
	}
	ev := func(i int) Evaluation {
		return Evaluation{Params: *r.Candidates[i].LASMQ, Score: r.Candidates[i].FoldMean}
	}
	if r.Candidates[r.Deployed].LASMQ != nil {
		res.Best = ev(r.Deployed)
	} else {
		res.Best = Evaluation{Params: res.FirstGuess}
	}
	for i := range r.Candidates {
		if r.Candidates[i].LASMQ != nil && r.Candidates[i].Origin != OriginSensitivity {
			res.Evaluated = append(res.Evaluated, ev(i))
		}
	}
	// The curves are at one fidelity: on a sampled search, every point's
	// sampled fold mean (a point that was re-scored whole keeps it).
	curve := func(i int) Evaluation {
		e := ev(i)
		if c := &r.Candidates[i]; r.Sampled && c.Whole && c.Sampled != nil {
			e.Score = *c.Sampled
		}
		return e
	}
	res.CurvesSampled = r.Sampled
	for _, i := range r.VsAlpha0 {
		res.VsAlpha0 = append(res.VsAlpha0, curve(i))
	}
	for _, i := range r.VsK {
		res.VsK = append(res.VsK, curve(i))
	}
	res.Reference = r.Candidates[r.CurrentIdx].FoldMean
	return res
}

// ScaleSizes returns a copy of jobs with every size and estimate multiplied
// by f: the offered load times f.
func ScaleSizes(jobs []sim.Job, f float64) []sim.Job {
	out := make([]sim.Job, len(jobs))
	for i, j := range jobs {
		j.Size *= f
		j.Estimate *= f
		out[i] = j
	}
	return out
}
