package pipeline

import (
	"context"
	"math"

	"github.com/schedplan/schedplan/cluster/sim"
)

// FairSpec is the fluid stand-in for the Hadoop Fair Scheduler: weighted
// processor sharing (GPS) with each job's weight (its user's weight × its
// priority). With one user and no priorities it is PS.
const FairSpec = "gps"

// Comparison is one configuration's score on both windows.
type Comparison struct {
	Name   string `json:"name"`
	Policy string `json:"policy"` // specification for sim.ParsePolicy
	// Tune is the score on the tuning window as the search computes it (in
	// TuneOptions.Blocks blocks); Validate is on the validation window,
	// simulated whole.
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
	Split      Split        `json:"split"`
	Capacity   float64      `json:"capacity"`
	Result     *TuneResult  `json:"result"`
	Best       LASMQParams  `json:"best"`
	Compare    []Comparison `json:"compare"`
	Robustness []RobustRow  `json:"robustness"`
	// Improvement is 1 − tuned/best-baseline mean response on the validation
	// window, the baselines being Hu et al.'s default and Fair; negative when
	// the tuned configuration is worse.
	Improvement float64 `json:"validation_improvement"`
}

// LoadFactors are the offered-load changes every tuned configuration is
// re-run at (±20%).
var LoadFactors = []float64{0.8, 1, 1.2}

// DefaultLASMQName names the baseline LAS_MQ in tables: Hu et al.'s
// trace-simulation setting (sim.DefaultLASMQ).
const DefaultLASMQName = "las_mq default (Hu et al.)"

// TuneLASMQWindows tunes LAS_MQ on the tuning window of jobs and validates
// it on the rest: the best parameters, Hu et al.'s default, the first guess
// and Fair on both windows, and the robustness rows at ±20% load. Every
// simulation runs through the experiment runner.
func TuneLASMQWindows(ctx context.Context, jobs []sim.Job, capacity float64, split Split, opt TuneOptions) (*TuneReport, error) {
	tuneJobs, valJobs := split.Windows(jobs)
	if opt.Blocks == 0 {
		opt.Blocks = 4
	}
	if opt.Sizes == nil {
		opt.Sizes = make([]float64, len(tuneJobs))
		for i, j := range tuneJobs {
			opt.Sizes[i] = j.Size
		}
	}
	run := RunOptions{Workers: opt.Workers}
	// The tuning window is scored as the search scores it (in blocks).
	res, err := TuneLASMQ(ctx, opt, ScoreLASMQ(tuneJobs, capacity, opt.Blocks, run))
	if err != nil {
		return nil, err
	}
	rep := &TuneReport{Split: split, Capacity: capacity, Result: res, Best: res.Best.Params}
	names := []string{"tuned las_mq", DefaultLASMQName, "first guess las_mq", "fair"}
	specs := []string{res.Best.Params.Spec(), sim.DefaultLASMQ().Spec(), res.FirstGuess.Spec(), FairSpec}
	// Robustness: the tuned configuration, the default and Fair at ±20% load.
	robust := []int{0, 1, 3}
	xs := []*Experiment{
		{Jobs: tuneJobs, Capacity: capacity, Blocks: opt.Blocks, Policies: specs, Runs: 1},
		{Jobs: valJobs, Capacity: capacity, Policies: specs, Runs: 1},
	}
	var factors []float64
	for _, f := range LoadFactors {
		if f == 1 {
			continue
		}
		x := &Experiment{Jobs: ScaleSizes(valJobs, f), Capacity: capacity, Runs: 1}
		for _, c := range robust {
			x.Policies = append(x.Policies, specs[c])
		}
		xs = append(xs, x)
		factors = append(factors, f)
	}
	out, err := RunExperiments(ctx, run, xs...)
	if err != nil {
		return nil, err
	}
	for c := range specs {
		rep.Compare = append(rep.Compare, Comparison{Name: names[c], Policy: specs[c],
			Tune: ScoreOf(out[0].Policies[c].Summaries[0]), Validate: ScoreOf(out[1].Policies[c].Summaries[0])})
	}
	base := math.Min(rep.Compare[1].Validate.Mean, rep.Compare[3].Validate.Mean)
	if base > 0 {
		rep.Improvement = 1 - rep.Compare[0].Validate.Mean/base
	}
	for k, f := range factors {
		for i, c := range robust {
			rep.Robustness = append(rep.Robustness, RobustRow{Name: names[c], LoadFactor: f, Score: ScoreOf(out[2+k].Policies[i].Summaries[0])})
		}
	}
	return rep, nil
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
