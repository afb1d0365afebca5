package tuner

import (
	"fmt"
	"math"

	"github.com/schedplan/schedplan/cluster/sim"

	"gonum.org/v1/gonum/floats"
)

// LASMQParams are the tunable parameters of LAS_MQ (seed 000 §3.6): K
// queues, first threshold Alpha0, step P (α_{i+1} = P·α_i), queue weights
// w_i = Decay^i (Decay = 1: equal weights; Decay = 0: strict priority, all
// capacity to the highest non-empty queue) and the order inside a queue
// (seed 000 §3.3; "" is FIFO).
type LASMQParams struct {
	K      int            `json:"k"`
	Alpha0 float64        `json:"alpha0"`
	P      float64        `json:"p"`
	Decay  float64        `json:"decay"`
	Order  sim.LevelOrder `json:"order,omitempty"`
}

// Thresholds returns the K−1 demotion thresholds α_0, p·α_0, ….
func (c LASMQParams) Thresholds() []float64 { return c.Policy().Thresholds() }

// Weights returns the K queue weights, highest-priority queue first. With
// Decay = 0 they are 1, 0, 0, ... and the policy runs in strict mode.
func (c LASMQParams) Weights() []float64 { return sim.DecayWeights(c.K, c.Decay) }

// Policy returns the simulation core's LAS_MQ with these parameters.
func (c LASMQParams) Policy() *sim.LASMQ {
	return &sim.LASMQ{K: c.K, Alpha0: c.Alpha0, P: c.P, Weights: c.Weights(), Strict: c.Strict(), Order: c.Order}
}

// Spec returns the policy specification that sim.ParsePolicy (and the
// CLI's --policy) reads.
func (c LASMQParams) Spec() string { return c.Policy().Spec() }

// Strict reports whether the configuration is strict priority.
func (c LASMQParams) Strict() bool { return c.Decay == 0 }

// Config returns the bundle form of the parameters.
func (c LASMQParams) Config() *LASMQConfig { return ConfigOf(c.Policy()) }

func (c LASMQParams) String() string {
	s := fmt.Sprintf("k=%d alpha0=%.4g p=%.4g decay=%.4g", c.K, c.Alpha0, c.P, c.Decay)
	if c.Order != "" && c.Order != sim.OrderFIFO {
		s += " order=" + string(c.Order)
	}
	return s
}

// ScoreOf reduces a summary to what tuning compares.
func ScoreOf(s sim.Summary) Score {
	return Score{Mean: s.Response.Mean, P99: s.Response.P99, P99Slowdown: s.Slowdown.P99, MeanSlowdown: s.Slowdown.Mean, Missed: s.MissedShare}
}

// Score is what a simulation says of one configuration on one window:
// responses in seconds, slowdowns (response / (size / capacity)) without
// unit, and the share of jobs that finish after their PS completion time
// (their protective deadline; 0.01 = 1% of the jobs).
type Score struct {
	Mean         float64 `json:"mean_response"`
	P99          float64 `json:"p99_response"`
	P99Slowdown  float64 `json:"p99_slowdown"`
	MeanSlowdown float64 `json:"mean_slowdown"`
	Missed       float64 `json:"missed_share"`
}

// Objective says what tuning minimises; a candidate's score on a fold is
// its improvement over the current scheduler in the objective (see
// Objective.Improvement).
type Objective string

// Objectives.
const (
	MinMean         Objective = "mean"         // mean response
	MinP99          Objective = "p99"          // p99 response
	MinMix          Objective = "mix"          // (mean/mean₀ + p99/p99₀)/2 against the current scheduler's
	MinSlowdown     Objective = "slowdown"     // mean slowdown
	MinP99Slowdown  Objective = "p99-slowdown" // p99 slowdown
	MinMissed       Objective = "missed"       // share of missed PS deadlines
	objectiveChoice           = "mean, p99, mix, slowdown, p99-slowdown or missed"
)

// ParseObjective checks an objective name.
func ParseObjective(s string) (Objective, error) {
	switch o := Objective(s); o {
	case MinMean, MinP99, MinMix, MinSlowdown, MinP99Slowdown, MinMissed:
		return o, nil
	}
	return "", fmt.Errorf("unknown objective %q: use %s", s, objectiveChoice)
}

// Evaluation is one simulated candidate.
type Evaluation struct {
	Params LASMQParams `json:"params"`
	Score  Score       `json:"score"`
}

// TuneOptions control the LAS_MQ search (see TuneCV).
type TuneOptions struct {
	// Budget is the number of candidate configurations to score (≥ 1),
	// the named baselines included; the sensitivity curves and the final
	// check of the shortlist come on top.
	Budget    int
	Objective Objective
	// Constraints bound the other metrics (see ParseConstraints); nil:
	// DefaultConstraints. An empty, non-nil slice: no constraint.
	Constraints []Constraint
	// Current is the scheduler the cluster runs today (a policy
	// specification; default FairSpec): fold scores are improvements over
	// it, and the default constraints are relative to it.
	Current string
	// Folds is the number of rolling-origin folds (default 5): the tuning
	// window is cut into Folds+1 chunks of about equal job count; fold i
	// tunes on chunks 0..i−1 and is scored on chunk i.
	Folds int
	// Sigmas are the log-normal size-estimation errors the candidates that
	// use estimates are scored under (default 0, 0.5, 1); such a candidate
	// counts with its worst metrics over them.
	Sigmas []float64
	// SampleJobs bounds the jobs a candidate is simulated on per fold
	// (default 20,000): a larger chunk is scored on a sample of its busy
	// periods (see sampleUnits), and the shortlist is checked on the whole
	// chunks at the end. On the 1 M-job synthetic log (issue 17,
	// BenchmarkTuneQuality) the choice's validation-window mean response
	// was 0.67%, 0.65% and 0.65% above the unsampled search's with 20,000
	// (seeds 1, 2, 3), against 2.9% and 0.38% with 10,000 (seeds 1, 2) and
	// 0.65% with 40,000 (seed 1); 20,000 costs about 1.7× the sampled
	// search of 10,000, a cost that does not grow with the log.
	SampleJobs int
	// Shortlist is how many of the best feasible candidates by the sampled
	// score are re-scored on the whole folds (default 5).
	Shortlist int
	// CheckJobs bounds the "whole" folds of the final check, the bootstrap
	// and the SRPT bound (default 10 × SampleJobs): a chunk of more jobs
	// is re-scored on a sample of CheckJobs jobs of its busy periods (as
	// sampled folds are, with pieces of at most CheckJobs/4 jobs and a
	// draw of its own), so that the tune stage's cost stops growing with
	// the log there. Chunks of at most CheckJobs jobs (every chunk of a
	// log of up to about 1.4 M jobs, at the default split and folds) are
	// whole.
	CheckJobs int
	// Seed seeds the estimate draws, the sampling and the bootstrap.
	Seed uint64
	// Workers scores candidates in parallel (default: GOMAXPROCS). The
	// result does not depend on it.
	Workers int
	// Sizes are the job sizes of the tuning window; they place the search
	// space and the first guess (default: the window's sizes).
	Sizes []float64
	// Blocks is no longer used: the tuning window is scored in rolling-
	// origin folds, each in its busy periods (kept so that old callers
	// compile).
	Blocks int
	// Progress, when set, is told how many candidates have been scored.
	Progress func(done, total int)
	// Shard, when set, shards the scoring (see TuneShard).
	Shard *TuneShard
	// NoRace scores every point of the space-filling sequence on every
	// chunk, as the tuner did before tune version 4, instead of racing
	// them (see RaceInfo): for comparisons.
	NoRace bool
}

// TuneResult is the outcome of a search.
type TuneResult struct {
	FirstGuess LASMQParams  `json:"first_guess"`
	Best       Evaluation   `json:"best"`
	Evaluated  []Evaluation `json:"evaluated"` // the LAS_MQ candidates, in scoring order
	VsAlpha0   []Evaluation `json:"sensitivity_alpha0"`
	VsK        []Evaluation `json:"sensitivity_k"`
	// CurvesSampled says the sensitivity curves are fold means on the
	// sampled folds (a search on folds larger than TuneOptions.SampleJobs).
	CurvesSampled bool      `json:"sensitivity_on_sampled_folds,omitempty"`
	Objective     Objective `json:"objective"`
	Reference     Score     `json:"reference"` // the current scheduler's fold-mean score
}

// FirstGuess places LAS_MQ's thresholds from the size distribution alone,
// with no simulation (in the spirit of PIAS-style threshold analyses): the
// first threshold at the median positive size, so that half the jobs finish
// in the top queue, and a step that spreads k−1 thresholds up to the 99.9th
// percentile, so that only the largest jobs reach the last queue.
func FirstGuess(sizes []float64, k int) LASMQParams {
	return firstGuessOf(sizeStatsOf(sizes), k)
}

// firstGuessOf is FirstGuess of sizes whose statistics are s: a caller
// that also places the search space computes them once.
func firstGuessOf(s sizeStats, k int) LASMQParams {
	if s.n == 0 || k < 2 {
		return LASMQParams{K: max(k, 1), Alpha0: 1, P: 10, Decay: 1}
	}
	a0, top := s.q50, s.q999
	p := 10.0
	if k > 2 && top > a0 {
		p = math.Pow(top/a0, 1/float64(k-2))
	}
	return LASMQParams{K: k, Alpha0: a0, P: math.Max(p, 1.5), Decay: 0.5}
}

func logspace(lo, hi float64, n int) []float64 {
	if n == 1 {
		return []float64{math.Sqrt(lo * hi)}
	}
	out := make([]float64, n)
	floats.LogSpan(out, lo, hi)
	return out
}
