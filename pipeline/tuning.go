package pipeline

import (
	"context"
	"fmt"
	"math"
	"slices"

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
	Split    Split       `json:"split"`
	Capacity float64     `json:"capacity"`
	Result   *TuneResult `json:"result"`
	// Best is the LAS_MQ configuration the bundle deploys: the choice of
	// the cross-validated search when it is a LAS_MQ configuration, else
	// the best LAS_MQ one (see CVResult.Deployed).
	Best       LASMQParams  `json:"best"`
	Compare    []Comparison `json:"compare"`
	Robustness []RobustRow  `json:"robustness"`
	// Improvement is 1 − tuned/best-baseline mean response on the validation
	// window, the baselines being the paper's default and Fair; negative when
	// the tuned configuration is worse.
	Improvement float64 `json:"validation_improvement"`
	// CV is the cross-validated search: folds, every candidate's fold
	// scores, the Pareto front, the choice and why.
	CV *CVResult `json:"cv"`
}

// LoadFactors are the offered-load changes every tuned configuration is
// re-run at (±20%).
var LoadFactors = []float64{0.8, 1, 1.2}

// Names of the comparison rows.
const (
	TunedName      = "tuned las_mq"
	PaperName      = "paper default las_mq"
	FirstGuessName = "first guess las_mq"
	FairName       = "fair"
)

// TuneLASMQWindows tunes LAS_MQ on the tuning window of jobs by rolling-
// origin cross-validation (TuneCV) and validates it on the rest: the
// deployed configuration, the paper's default, the first guess and Fair —
// then the choice (when it is not the deployed one), the current
// scheduler, plain LAS and PS — on both windows, and the robustness rows at
// ±20% load.
func TuneLASMQWindows(jobs []sim.Job, capacity float64, split Split, opt TuneOptions) (*TuneReport, error) {
	tuneJobs, valJobs := split.Windows(jobs)
	if opt.Sizes == nil {
		opt.Sizes = make([]float64, len(tuneJobs))
		for i, j := range tuneJobs {
			opt.Sizes[i] = j.Size
		}
	}
	cv, err := TuneCV(context.Background(), tuneJobs, capacity, opt, SimulateWindows(capacity))
	if err != nil {
		return nil, err
	}
	res := cv.TuneResult(opt.Sizes)
	rep := &TuneReport{Split: split, Capacity: capacity, Result: res, Best: res.Best.Params, CV: cv}
	type config struct {
		name, spec string
		cand       int // index in cv.Candidates, −1: none
	}
	configs := []config{
		{TunedName, res.Best.Params.Spec(), cv.Deployed},
		{PaperName, PaperDefault.Spec(), -1},
		{FirstGuessName, res.FirstGuess.Spec(), cv.FGIdx},
		{FairName, FairSpec, -1},
	}
	if cv.Chosen != cv.Deployed {
		configs = append(configs, config{"chosen: " + cv.Candidates[cv.Chosen].Label(), cv.Candidates[cv.Chosen].Policy, cv.Chosen})
	}
	for _, b := range []int{cv.CurrentIdx, cv.LASIdx, cv.PSIdx} {
		if b >= 0 && cv.Candidates[b].Policy != FairSpec {
			configs = append(configs, config{cv.Candidates[b].Label(), cv.Candidates[b].Policy, b})
		}
	}
	deadlines, err := sim.PSCompletions(valJobs, capacity)
	if err != nil {
		return nil, err
	}
	valEv := NewEvaluator(valJobs, capacity)
	valEv.Deadlines = deadlines
	for _, c := range configs {
		cmp := Comparison{Name: c.name, Policy: c.spec}
		if c.cand < 0 {
			for i := range cv.Candidates {
				if cv.Candidates[i].Policy == c.spec || canonicalLASMQ(cv.Candidates[i].Policy) == canonicalLASMQ(c.spec) {
					c.cand = i
					break
				}
			}
		}
		if c.cand >= 0 {
			cmp.Tune = cv.Candidates[c.cand].FoldMean
		}
		s, err := valEv.RunSpec(c.spec)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.name, err)
		}
		cmp.Validate = ScoreOf(s)
		rep.Compare = append(rep.Compare, cmp)
	}
	base := math.Min(rep.Compare[1].Validate.Mean, rep.Compare[3].Validate.Mean)
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

// canonicalLASMQ returns the specification of a las_mq policy with its
// inactive parameters fixed (see LASMQParams.canonical), "" for others.
func canonicalLASMQ(spec string) string {
	p, err := sim.ParsePolicy(spec)
	if err != nil {
		return ""
	}
	m, ok := p.(*sim.LASMQ)
	if !ok || len(m.Weights) != m.K {
		return ""
	}
	d := 1.0
	if m.K > 1 {
		d = m.Weights[1]
	}
	if !slices.Equal(m.Weights, sim.DecayWeights(m.K, d)) || m.Strict != (d == 0 && m.K > 1) {
		return ""
	}
	return LASMQParams{K: m.K, Alpha0: m.Alpha0, P: m.P, Decay: d, Order: m.Order}.canonical().Spec()
}

// TuneResult summarises the search in the form of the single-window
// tuner's result: the first guess, the deployed configuration and its
// fold-mean score, every LAS_MQ candidate, the sensitivity curves and the
// current scheduler's fold-mean score as the reference.
func (r *CVResult) TuneResult(sizes []float64) *TuneResult {
	res := &TuneResult{Objective: r.Objective, FirstGuess: FirstGuess(sizes, 6)}
	if r.FGIdx >= 0 && r.Candidates[r.FGIdx].LASMQ != nil {
		res.FirstGuess = *r.Candidates[r.FGIdx].LASMQ
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
		if r.Candidates[i].LASMQ != nil && r.Candidates[i].Origin != originSensitivity {
			res.Evaluated = append(res.Evaluated, ev(i))
		}
	}
	for _, i := range r.VsAlpha0 {
		res.VsAlpha0 = append(res.VsAlpha0, ev(i))
	}
	for _, i := range r.VsK {
		res.VsK = append(res.VsK, ev(i))
	}
	res.Reference = r.Candidates[r.CurrentIdx].FoldMean
	return res
}
