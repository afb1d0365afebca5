package pipeline

import (
	"fmt"

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
	// window, the baselines being the paper's default and Fair; negative when
	// the tuned configuration is worse.
	Improvement float64 `json:"validation_improvement"`
}

// LoadFactors are the offered-load changes every tuned configuration is
// re-run at (±20%).
var LoadFactors = []float64{0.8, 1, 1.2}

// TuneLASMQWindows tunes LAS_MQ on the tuning window of jobs and validates
// it on the rest: the best parameters, the paper's default, the first guess
// and Fair on both windows, and the robustness rows at ±20% load.
func TuneLASMQWindows(jobs []sim.Job, capacity float64, split Split, opt TuneOptions) (*TuneReport, error) {
	tuneJobs, valJobs := split.Windows(jobs)
	if opt.Blocks == 0 {
		opt.Blocks = 4
	}
	// The tuning window is scored as the search scores it (in blocks).
	tuneEv, valEv := NewEvaluator(tuneJobs, capacity), NewEvaluator(valJobs, capacity)
	tuneEv.Blocks = opt.Blocks
	if opt.Sizes == nil {
		opt.Sizes = make([]float64, len(tuneJobs))
		for i, j := range tuneJobs {
			opt.Sizes[i] = j.Size
		}
	}
	res, err := TuneLASMQ(opt, tuneEv.LASMQ)
	if err != nil {
		return nil, err
	}
	rep := &TuneReport{Split: split, Capacity: capacity, Result: res, Best: res.Best.Params}
	configs := []struct{ name, spec string }{
		{"tuned las_mq", res.Best.Params.Spec()},
		{"paper default las_mq", PaperDefault.Spec()},
		{"first guess las_mq", res.FirstGuess.Spec()},
		{"fair", FairSpec},
	}
	for _, c := range configs {
		cmp := Comparison{Name: c.name, Policy: c.spec}
		for _, w := range []struct {
			ev  *Evaluator
			dst *Score
		}{{tuneEv, &cmp.Tune}, {valEv, &cmp.Validate}} {
			s, err := w.ev.RunSpec(c.spec)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", c.name, err)
			}
			*w.dst = ScoreOf(s)
		}
		rep.Compare = append(rep.Compare, cmp)
	}
	base := rep.Compare[1].Validate.Mean
	if f := rep.Compare[3].Validate.Mean; f < base {
		base = f
	}
	if base > 0 {
		rep.Improvement = 1 - rep.Compare[0].Validate.Mean/base
	}
	for _, f := range LoadFactors {
		if f == 1 {
			continue
		}
		ev := valEv.Scaled(f)
		for _, c := range []Comparison{rep.Compare[0], rep.Compare[1], rep.Compare[3]} {
			s, err := ev.RunSpec(c.Policy)
			if err != nil {
				return nil, err
			}
			rep.Robustness = append(rep.Robustness, RobustRow{Name: c.Name, LoadFactor: f, Score: ScoreOf(s)})
		}
	}
	return rep, nil
}
