package pipeline

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/schedplan/schedplan/cluster/sim"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat"
)

// LASMQParams are the tunable parameters of LAS_MQ (seed 000 §3.6): K
// queues, first threshold Alpha0, step P (α_{i+1} = P·α_i), and queue
// weights w_i = Decay^i (Decay = 1: equal weights; Decay = 0: strict
// priority, all capacity to the highest non-empty queue).
type LASMQParams struct {
	K      int     `json:"k"`
	Alpha0 float64 `json:"alpha0"`
	P      float64 `json:"p"`
	Decay  float64 `json:"decay"`
}

// Thresholds returns the K−1 demotion thresholds α_0, p·α_0, ….
func (c LASMQParams) Thresholds() []float64 { return c.Policy().Thresholds() }

// Weights returns the K queue weights, highest-priority queue first. With
// Decay = 0 they are 1, 0, 0, ... and the policy runs in strict mode.
func (c LASMQParams) Weights() []float64 { return sim.DecayWeights(c.K, c.Decay) }

// Policy returns the simulation core's LAS_MQ with these parameters.
func (c LASMQParams) Policy() *sim.LASMQ {
	return &sim.LASMQ{K: c.K, Alpha0: c.Alpha0, P: c.P, Weights: c.Weights(), Strict: c.Strict()}
}

// Spec returns the policy specification that sim.ParsePolicy (and the
// CLI's --policy) reads.
func (c LASMQParams) Spec() string { return c.Policy().Spec() }

// Strict reports whether the configuration is strict priority.
func (c LASMQParams) Strict() bool { return c.Decay == 0 }

// Config returns the bundle form of the parameters.
func (c LASMQParams) Config() *LASMQConfig { return ConfigOf(c.Policy()) }

func (c LASMQParams) String() string {
	return fmt.Sprintf("k=%d alpha0=%.4g p=%.4g decay=%.4g", c.K, c.Alpha0, c.P, c.Decay)
}

// ScoreOf reduces a summary to what tuning compares.
func ScoreOf(s sim.Summary) Score {
	return Score{Mean: s.Response.Mean, P99: s.Response.P99, P99Slowdown: s.Slowdown.P99}
}

// Score is what a simulation says of one configuration on one window.
type Score struct {
	Mean        float64 `json:"mean_response"`
	P99         float64 `json:"p99_response"`
	P99Slowdown float64 `json:"p99_slowdown"`
}

// Objective says what tuning minimises.
type Objective string

// Objectives.
const (
	MinMean Objective = "mean" // mean response; ties by p99 slowdown
	MinP99  Objective = "p99"  // p99 response; ties by mean
	MinMix  Objective = "mix"  // mean/mean₀ + p99/p99₀ against a reference score
)

// ParseObjective checks an objective name.
func ParseObjective(s string) (Objective, error) {
	switch o := Objective(s); o {
	case MinMean, MinP99, MinMix:
		return o, nil
	}
	return "", fmt.Errorf("unknown objective %q: use mean, p99 or mix", s)
}

// key orders scores under the objective: lexicographic (primary, tie-breaker).
func (o Objective) key(s, ref Score) [2]float64 {
	switch o {
	case MinP99:
		return [2]float64{s.P99, s.Mean}
	case MinMix:
		return [2]float64{s.Mean/nonzero(ref.Mean) + s.P99/nonzero(ref.P99), s.P99Slowdown}
	}
	return [2]float64{s.Mean, s.P99Slowdown}
}

func nonzero(v float64) float64 {
	if v > 0 {
		return v
	}
	return 1
}

func less(a, b [2]float64) bool {
	if a[0] != b[0] {
		return a[0] < b[0]
	}
	return a[1] < b[1]
}

// Evaluation is one simulated candidate.
type Evaluation struct {
	Params LASMQParams `json:"params"`
	Score  Score       `json:"score"`
}

// TuneOptions control the LAS_MQ search.
type TuneOptions struct {
	// Budget is the number of candidate configurations to simulate (≥ 1).
	Budget    int
	Objective Objective
	// Workers simulates candidates in parallel (default: GOMAXPROCS). The
	// result does not depend on it.
	Workers int
	// Sizes are the job sizes of the tuning window; they place the grid and
	// the first guess.
	Sizes []float64
	// Blocks is the number of contiguous blocks the tuning window is cut
	// into, each simulated from an empty system (default 4; 1 simulates the
	// window whole). On real logs one huge job can keep the cluster busy for
	// hours; simulated whole, the window's score is then mostly that one
	// backlog, and the parameters that handle it best generalise poorly.
	// Blocks make the score an average over several independent periods.
	Blocks int
	// Progress, when set, is told how many candidates have been evaluated.
	Progress func(done, total int)
}

// TuneResult is the outcome of a search.
type TuneResult struct {
	FirstGuess LASMQParams  `json:"first_guess"`
	Best       Evaluation   `json:"best"`
	Evaluated  []Evaluation `json:"evaluated"` // in evaluation order
	VsAlpha0   []Evaluation `json:"sensitivity_alpha0"`
	VsK        []Evaluation `json:"sensitivity_k"`
	Objective  Objective    `json:"objective"`
	Reference  Score        `json:"reference"` // the first guess's score; scales the mix objective
}

// FirstGuess places LAS_MQ's thresholds from the size distribution alone,
// with no simulation (in the spirit of PIAS-style threshold analyses): the
// first threshold at the median positive size, so that half the jobs finish
// in the top queue, and a step that spreads k−1 thresholds up to the 99.9th
// percentile, so that only the largest jobs reach the last queue.
func FirstGuess(sizes []float64, k int) LASMQParams {
	pos := positiveSorted(sizes)
	if len(pos) == 0 || k < 2 {
		return LASMQParams{K: max(k, 1), Alpha0: 1, P: 10, Decay: 1}
	}
	a0 := stat.Quantile(0.5, stat.LinInterp, pos, nil)
	top := stat.Quantile(0.999, stat.LinInterp, pos, nil)
	p := 10.0
	if k > 2 && top > a0 {
		p = math.Pow(top/a0, 1/float64(k-2))
	}
	return LASMQParams{K: k, Alpha0: a0, P: math.Max(p, 1.5), Decay: 0.5}
}

func positiveSorted(x []float64) []float64 {
	var pos []float64
	for _, v := range x {
		if v > 0 && !math.IsInf(v, 0) {
			pos = append(pos, v)
		}
	}
	sort.Float64s(pos)
	return pos
}

// Scorer scores a batch of LAS_MQ candidates (in order). ScoreLASMQ is the
// one that simulates; tests use synthetic ones.
type Scorer func(ctx context.Context, cands []LASMQParams) ([]Score, error)

// ScoreLASMQ returns the Scorer that simulates each batch of candidates on
// jobs as one Experiment (exact sizes, in the given number of blocks).
func ScoreLASMQ(jobs []sim.Job, capacity float64, blocks int, opt RunOptions) Scorer {
	return func(ctx context.Context, cands []LASMQParams) ([]Score, error) {
		x := &Experiment{Jobs: jobs, Capacity: capacity, Blocks: blocks, Runs: 1}
		for _, c := range cands {
			x.Policies = append(x.Policies, c.Spec())
		}
		res, err := x.Run(ctx, opt)
		if err != nil {
			return nil, err
		}
		out := make([]Score, len(cands))
		for i, p := range res.Policies {
			out[i] = ScoreOf(p.Summaries[0])
		}
		return out, nil
	}
}

// TuneLASMQ searches LAS_MQ's parameters: a log-spaced grid over α_0 (from
// the 1st to the 99th percentile of the positive sizes), k, p and the weight
// decay, using about 60% of the budget; then a coordinate search on the log
// scale around the best point (step halved when no move improves) until the
// budget is spent; then the sensitivity curves (objective vs α_0 and vs k
// with the rest at the best point), which are extra to the budget.
//
// score gets the candidates in batches (the grid, then each round of moves)
// and may evaluate a batch in parallel; ties are broken by evaluation order,
// so the result does not depend on how score parallelises.
func TuneLASMQ(ctx context.Context, opt TuneOptions, score Scorer) (*TuneResult, error) {
	if opt.Budget < 1 {
		return nil, errors.New("tuning budget must be at least 1")
	}
	if opt.Objective == "" {
		opt.Objective = MinMean
	}
	t := &tuner{ctx: ctx, opt: opt, score: score, cache: map[LASMQParams]int{}}
	res := &TuneResult{Objective: opt.Objective, FirstGuess: FirstGuess(opt.Sizes, 6)}
	first, err := t.run([]LASMQParams{res.FirstGuess})
	if err != nil {
		return nil, err
	}
	t.ref = first[0].Score
	res.Reference = t.ref

	pos := positiveSorted(opt.Sizes)
	lo, hi := 1e-3, 1e3
	if len(pos) > 0 {
		lo = stat.Quantile(0.01, stat.LinInterp, pos, nil)
		hi = stat.Quantile(0.99, stat.LinInterp, pos, nil)
		if !(hi > lo) {
			hi = lo * 10
		}
	}
	grid := gridFor(int(0.6*float64(opt.Budget)), lo, hi)
	if _, err := t.run(grid); err != nil {
		return nil, err
	}
	// Coordinate search on the log scale from the best point; when it
	// converges with budget left, it starts again from the best point not yet
	// used as a start (a multi-start local search), so the whole budget works.
	started := map[LASMQParams]bool{}
	for t.spent() < opt.Budget {
		from, ok := t.bestExcept(started)
		if !ok {
			break
		}
		started[from.Params] = true
		t.descend(from)
		if t.err != nil {
			return nil, t.err
		}
	}
	res.Best = t.best()
	res.Evaluated = t.evals

	// Sensitivity curves around the best point.
	b := res.Best.Params
	var va, vk []LASMQParams
	for _, a := range logspace(lo, hi, 9) {
		va = append(va, LASMQParams{b.K, a, b.P, b.Decay})
	}
	for _, k := range []int{2, 3, 4, 5, 6, 8, 10, 12} {
		vk = append(vk, LASMQParams{k, b.Alpha0, b.P, b.Decay})
	}
	if res.VsAlpha0, err = t.run(va); err != nil {
		return nil, err
	}
	if res.VsK, err = t.run(vk); err != nil {
		return nil, err
	}
	return res, nil
}

// descend runs a coordinate search on the log scale from one point: it
// tries moves of every parameter up and down by step, moves to the best
// improving one, and takes the square root of the step when none improves,
// until the step is below 1% or the budget is spent.
func (t *tuner) descend(from Evaluation) {
	best := from
	step := 2.0
	for t.spent() < t.opt.Budget && step > 1.01 {
		c := best.Params
		moves := []LASMQParams{
			{c.K, c.Alpha0 * step, c.P, c.Decay}, {c.K, c.Alpha0 / step, c.P, c.Decay},
			{c.K, c.Alpha0, math.Max(1.1, c.P*step), c.Decay}, {c.K, c.Alpha0, math.Max(1.1, c.P/step), c.Decay},
			{c.K + 1, c.Alpha0, c.P, c.Decay}, {max(2, c.K-1), c.Alpha0, c.P, c.Decay},
			{c.K, c.Alpha0, c.P, math.Min(1, c.Decay*step)}, {c.K, c.Alpha0, c.P, c.Decay / step},
		}
		var cands []LASMQParams
		left := t.opt.Budget - t.spent()
		for _, m := range moves {
			if _, seen := t.cache[m]; seen {
				cands = append(cands, m)
			} else if left > 0 {
				cands = append(cands, m)
				left--
			}
		}
		evs, err := t.run(cands)
		if err != nil {
			t.err = err
			return
		}
		moved := false
		for _, e := range evs {
			if less(t.opt.Objective.key(e.Score, t.ref), t.opt.Objective.key(best.Score, t.ref)) {
				best, moved = e, true
			}
		}
		if !moved {
			step = math.Sqrt(step)
		}
	}
}

// bestExcept returns the best evaluation whose parameters are not in skip.
func (t *tuner) bestExcept(skip map[LASMQParams]bool) (Evaluation, bool) {
	bi := -1
	for i, e := range t.evals {
		if skip[e.Params] {
			continue
		}
		if bi < 0 || less(t.opt.Objective.key(e.Score, t.ref), t.opt.Objective.key(t.evals[bi].Score, t.ref)) {
			bi = i
		}
	}
	if bi < 0 {
		return Evaluation{}, false
	}
	return t.evals[bi], true
}

// gridFor builds a grid of at most n points (when n allows the smallest
// grid, 3×2×2×2) over α_0 ∈ [lo, hi] (log-spaced), k, p and decay. Each
// dimension lists its values by importance; dimensions lose their least
// important values in turn until the grid fits.
func gridFor(n int, lo, hi float64) []LASMQParams {
	ks := []int{4, 8, 2, 6, 10, 3}
	ps := []float64{10, 4, 30, 2}
	ds := []float64{0.5, 1, 0, 0.2, 0.05}
	na := 10
	for turn := 0; na*len(ks)*len(ps)*len(ds) > n; turn++ {
		switch {
		case turn%4 == 0 && na > 3:
			na--
		case turn%4 == 1 && len(ds) > 2:
			ds = ds[:len(ds)-1]
		case turn%4 == 2 && len(ks) > 2:
			ks = ks[:len(ks)-1]
		case turn%4 == 3 && len(ps) > 2:
			ps = ps[:len(ps)-1]
		}
		if na == 3 && len(ds) == 2 && len(ks) == 2 && len(ps) == 2 {
			break
		}
	}
	sort.Ints(ks)
	// α_0 values at the log-midpoints of na equal cells of [lo, hi], so the
	// grid stays strictly inside the range of sizes.
	cells := logspace(lo, hi, na+1)
	var g []LASMQParams
	for i := 0; i < na; i++ {
		a := math.Sqrt(cells[i] * cells[i+1])
		for _, k := range ks {
			for _, p := range ps {
				for _, d := range ds {
					g = append(g, LASMQParams{K: k, Alpha0: a, P: p, Decay: d})
				}
			}
		}
	}
	return g
}

func logspace(lo, hi float64, n int) []float64 {
	if n == 1 {
		return []float64{math.Sqrt(lo * hi)}
	}
	out := make([]float64, n)
	floats.LogSpan(out, lo, hi)
	return out
}

type tuner struct {
	ctx   context.Context
	opt   TuneOptions
	score Scorer
	cache map[LASMQParams]int // params → index in evals
	evals []Evaluation
	ref   Score
	err   error // the first evaluation error of a descent
}

func (t *tuner) spent() int { return len(t.evals) }

// best returns the best evaluation so far (earliest among equals).
func (t *tuner) best() Evaluation {
	bi := 0
	for i := range t.evals {
		if less(t.opt.Objective.key(t.evals[i].Score, t.ref), t.opt.Objective.key(t.evals[bi].Score, t.ref)) {
			bi = i
		}
	}
	return t.evals[bi]
}

// run evaluates candidates in parallel (reusing cached ones) and returns
// their evaluations in the order given.
func (t *tuner) run(cands []LASMQParams) ([]Evaluation, error) {
	var todo []LASMQParams
	for _, c := range cands {
		if _, ok := t.cache[c]; !ok {
			t.cache[c] = -1 // reserved; filled below
			todo = append(todo, c)
		}
	}
	var scores []Score
	if len(todo) > 0 {
		var err error
		if scores, err = t.score(t.ctx, todo); err != nil {
			return nil, fmt.Errorf("LAS_MQ candidates: %w", err)
		}
	}
	for i, c := range todo {
		t.cache[c] = len(t.evals)
		t.evals = append(t.evals, Evaluation{Params: c, Score: scores[i]})
		if t.opt.Progress != nil {
			t.opt.Progress(len(t.evals), t.opt.Budget)
		}
	}
	out := make([]Evaluation, len(cands))
	for i, c := range cands {
		out[i] = t.evals[t.cache[c]]
	}
	return out, nil
}
