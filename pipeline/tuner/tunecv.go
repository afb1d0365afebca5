package tuner

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/pipeline/experiment"

	"gonum.org/v1/gonum/stat"
)

// CandidateScore is one candidate's scores over the rolling-origin folds.
type CandidateScore struct {
	Name          string       `json:"name,omitempty"` // named baselines
	Policy        string       `json:"policy"`
	LASMQ         *LASMQParams `json:"las_mq,omitempty"` // nil: not a LAS_MQ configuration
	Origin        string       `json:"origin"`
	UsesEstimates bool         `json:"uses_estimates,omitempty"`
	// Chunks are the scores on every chunk (FoldInfo.Index); for a
	// candidate that uses size estimates, each metric is its worst over
	// the σ of TuneOptions.Sigmas.
	Chunks []Score `json:"chunks"`
	// BySigma[s][chunk] are the scores under each σ (estimate users only).
	BySigma [][]Score `json:"by_sigma,omitempty"`
	// FoldMean is each metric averaged over the scored folds.
	FoldMean Score `json:"fold_mean"`
	// Folds are the improvements over the current scheduler in the
	// objective, one per scored fold, and Improvement their mean: the
	// mean fold score the choice maximises.
	Folds       []float64 `json:"fold_improvement"`
	Improvement float64   `json:"mean_fold_improvement"`
	// SE is the standard error of the mean fold score (the folds' sample
	// standard deviation over √folds; 0 with one fold).
	SE         float64  `json:"fold_improvement_se"`
	Feasible   bool     `json:"feasible"`
	Violations []string `json:"violations,omitempty"`
	Pareto     bool     `json:"pareto_front"`
	// Whole is true when the scores are on the whole folds: always when no
	// fold was sampled; otherwise for the shortlist, whose Sampled and
	// SampledImprovement keep the fold-mean score and improvement on the
	// sampled folds. (The sensitivity curves of a sampled search are on the
	// sampled folds, like the search.)
	Whole              bool     `json:"whole_folds"`
	Sampled            *Score   `json:"sampled_fold_mean,omitempty"`
	SampledImprovement *float64 `json:"sampled_mean_fold_improvement,omitempty"`
}

// Label names the candidate for tables.
func (c *CandidateScore) Label() string {
	switch {
	case c.Name != "":
		return c.Name
	case c.LASMQ != nil:
		return "las_mq " + c.LASMQ.String()
	}
	return c.Policy
}

// FoldPick is the rolling-origin evaluation of the selection rule on one
// fold: the candidate the rule picks from the chunks before the fold ("tune
// on [0, t_i)") and how it does on the fold ("score on [t_i, t_i + h)").
type FoldPick struct {
	Fold        int     `json:"fold"`
	Pick        int     `json:"pick"` // index in CVResult.Candidates
	Improvement float64 `json:"improvement"`
	// Best is the best improvement any feasible candidate reached on the
	// fold, in hindsight.
	Best float64 `json:"best_in_hindsight"`
}

// Interval is a confidence interval; Available is false when it could not
// be computed (a scorer that keeps no per-job results).
type Interval struct {
	Available bool    `json:"available"`
	Lo        float64 `json:"lo"`
	Hi        float64 `json:"hi"`
	Level     float64 `json:"level"` // 0.9: a 90% interval
	// Metric is what the interval is of ("mean response", …) and
	// Replicates how many bootstrap replicates it took.
	Metric     string `json:"metric"`
	Replicates int    `json:"replicates"`
}

// ShortlistInfo records the final check of a sampled search.
type ShortlistInfo struct {
	Rule       string `json:"rule"`
	Candidates []int  `json:"candidates"`
	// Gap is the winner's relative difference between its sampled and its
	// whole-fold mean response, and ImprovementGap the difference between
	// its sampled and whole-fold mean fold improvement (points).
	Gap            float64 `json:"winner_mean_response_gap"`
	ImprovementGap float64 `json:"winner_improvement_gap"`
	// CheckJobs is TuneOptions.CheckJobs when a chunk was larger, and
	// CheckScored the jobs each such chunk was re-scored on (a sample of
	// its busy periods); both empty when every chunk was re-scored whole.
	CheckJobs   int   `json:"check_jobs,omitempty"`
	CheckScored []int `json:"check_scored_jobs,omitempty"`
}

// CVResult is what the cross-validated tuner did, found and why.
type CVResult struct {
	Objective   Objective `json:"objective"`
	Constraints string    `json:"constraints"`
	Current     string    `json:"current_policy"`
	// Folds describes chunk 0 (tuning only) and the folds.
	Folds  []FoldInfo `json:"folds"`
	Scored []int      `json:"scored_folds"` // indices of the scored chunks
	Sigmas []float64  `json:"sigmas"`
	// SampleJobs is the per-fold job budget; Sampled says whether any fold
	// was larger and scored on a sample.
	SampleJobs int              `json:"sample_jobs"`
	Sampled    bool             `json:"sampled"`
	Candidates []CandidateScore `json:"candidates"`
	// Indices in Candidates: the choice, the runner-up (−1: none), the
	// deployed LAS_MQ (the choice when it is one, else the best LAS_MQ),
	// and the named baselines (−1: not scored, when the budget is tiny).
	Chosen     int `json:"chosen"`
	RunnerUp   int `json:"runner_up"`
	Deployed   int `json:"deployed"`
	CurrentIdx int `json:"current"`
	LASIdx     int `json:"las"`
	PSIdx      int `json:"ps"`
	FGIdx      int `json:"first_guess"`
	// NoFeasible is set when no candidate met the constraints; the choice
	// is then the current scheduler.
	NoFeasible bool `json:"no_feasible_candidate"`
	// Procedure is the rolling-origin evaluation of the rule.
	Procedure []FoldPick `json:"rolling_origin"`
	// CI is the block-bootstrap interval of the chosen configuration's
	// mean fold improvement over the current scheduler.
	CI        Interval       `json:"improvement_ci"`
	Shortlist *ShortlistInfo `json:"shortlist,omitempty"`
	// Race says how the space-filling sequence was raced (nil: it was
	// not; see TuneOptions.NoRace).
	Race *RaceInfo `json:"race,omitempty"`
	// SRPT is the SRPT mean response (exact sizes) on every chunk, the
	// lower bound on any policy's; SRPTMean its mean over the folds.
	SRPT     []float64 `json:"srpt_mean_response"`
	SRPTMean float64   `json:"srpt_fold_mean_response"`
	// SigmaRanks is the chosen configuration's rank (1 = best feasible)
	// under each σ alone.
	SigmaRanks []int `json:"chosen_rank_by_sigma"`
	// VsAlpha0 and VsK index the sensitivity candidates (on the sampled
	// folds when Sampled: see TuneResult).
	VsAlpha0 []int `json:"sensitivity_alpha0"`
	VsK      []int `json:"sensitivity_k"`
	// Explanation says why the choice was made, in sentences.
	Explanation []string `json:"explanation"`
}

// tuneCV is the state of one cross-validated search.
type tuneCV struct {
	ctx    context.Context
	opt    TuneOptions
	score  WindowScorer
	wins   [][]*ScoreWindow // [chunk][σ]
	scored []int            // scored chunks
	cands  []candidate
	res    []CandidateScore
	bySpec map[string]int
	orders []sim.LevelOrder // the in-level orders tried (levelOrders)
	cur    int              // the current scheduler's index
	done   int              // candidates scored, for progress
	// curSampled is the current scheduler's scores on the sampled folds,
	// the reference of the candidates that were not re-scored whole, and
	// sampledWins the sampled windows (nil until the final check swaps
	// t.wins for the whole folds).
	curSampled  []Score
	sampledWins [][]*ScoreWindow
	// cache holds every score simulated so far, by scoreKey.
	cache map[scoreKey]Score
	// dropped counts the raced points that did not go on (race.go), race
	// records the race, and weight, when set, is what the batch being
	// scored counts for in the progress (batchProgress), in candidates.
	dropped int
	race    *RaceInfo
	weight  int
	shown   int // the progress told so far
}

// TuneCV tunes LAS_MQ on jobs (the tuning window, sorted by arrival) on a
// server of capacity c by rolling-origin cross-validation:
//
//  1. The window is cut into Folds+1 chunks of about equal job count, the
//     cuts moved to busy-period starts where one is near (so that a chunk
//     simulated from empty is exact). Fold i (1..Folds) tunes on chunks
//     0..i−1 and is scored on chunk i.
//  2. Every candidate is scored on every chunk: mean and p99 response,
//     mean and p99 slowdown, missed PS deadlines. A chunk with more than
//     SampleJobs jobs is scored on a sample of its busy periods (see
//     sampleUnits). Candidates that use size estimates are scored under
//     each σ of Sigmas and count with their worst metrics.
//  3. A candidate's fold score is its improvement over the current
//     scheduler in the objective on that fold; the choice is the feasible
//     candidate (one that meets the Constraints on every fold) with the
//     best mean fold score, up to its noise (the one-standard-error rule:
//     see pick).
//  4. The candidates: the named baselines (current, plain LAS, PS, the
//     first guess, the paper default), one level in each in-level order,
//     fine levels towards LAS, then a space-filling sequence with about 60%
//     of the budget, raced (its points scored on two folds first, the best
//     third on every chunk: see addRaced), then a multi-start coordinate
//     search around the best feasible points until Budget candidates are
//     scored (the raced points that were dropped count).
//  5. When folds were sampled, the Shortlist best feasible candidates and
//     the named baselines are re-scored on the whole folds and the choice
//     is made again among them.
//
// The report adds the Pareto front over the five metrics, the rule's
// rolling-origin evaluation (what it picks from the past of each fold and
// how that does on the fold), a block-bootstrap interval of the chosen
// configuration's improvement, its rank under each σ and the sensitivity
// curves. Scoring runs in parallel; the result does not depend on Workers.
func TuneCV(ctx context.Context, jobs []sim.Job, c float64, opt TuneOptions, score WindowScorer) (*CVResult, error) {
	return TuneCVSource(ctx, SliceSource(jobs), c, opt, score)
}

// TuneCVSource is TuneCV of a tuning window read through a JobSource: it
// holds the jobs of its blocks alone, never the whole window's.
func TuneCVSource(ctx context.Context, src *JobSource, c float64, opt TuneOptions, score WindowScorer) (*CVResult, error) {
	if err := src.check(); err != nil {
		return nil, err
	}
	if src.Len() == 0 {
		return nil, errors.New("tuning window has no job")
	}
	if opt.Budget < 1 {
		return nil, errors.New("tuning budget must be at least 1")
	}
	opt = withTuneDefaults(opt, src.Size)
	if opt.Folds < 1 {
		return nil, fmt.Errorf("folds %d: need at least 1", opt.Folds)
	}
	for _, s := range opt.Sigmas {
		if !(s >= 0) || math.IsInf(s, 0) {
			return nil, fmt.Errorf("sigma %v: need a finite non-negative error", s)
		}
	}
	// Chunks: with fewer jobs than chunks, fewer folds; one job is its own
	// (only) fold, with nothing before it to evaluate the rule on.
	folds := min(opt.Folds, src.Len()-1)
	starts := busyStarts(src, c)
	var bounds, scored []int
	if folds < 1 {
		bounds, scored = []int{0, src.Len()}, []int{0}
	} else {
		bounds = planChunks(src.Len(), starts, folds)
		for i := 1; i <= folds; i++ {
			scored = append(scored, i)
		}
	}
	lap := phaseLogger("tune")
	wins, infos, err := cvWindowsOf(src, starts, c, bounds, opt.Sigmas, opt.SampleJobs, opt.Seed, 0)
	if err != nil {
		return nil, err
	}
	lap("windows")
	t := &tuneCV{ctx: ctx, opt: opt, score: score, wins: wins, scored: scored, bySpec: map[string]int{}, cache: map[scoreKey]Score{}, orders: levelOrders(src.Containers)}
	out := &CVResult{Objective: opt.Objective, Constraints: ConstraintsString(opt.Constraints), Current: opt.Current,
		Folds: infos, Scored: scored, Sigmas: opt.Sigmas, SampleJobs: opt.SampleJobs, RunnerUp: -1}
	for _, f := range infos {
		out.Sampled = out.Sampled || f.Sampled
	}
	st := sizeStatsOf(opt.Sizes) // once: 7 M sizes at 10 M jobs
	r := sizeRangeOf(st)
	fg := firstGuessOf(st, 6)
	// The named baselines always (whatever the budget), then the
	// structural candidates up to the budget.
	base := baselineCandidates(opt.Current, fg)
	fixed := append(base, structuralCandidates(r, t.orders)...)
	// The baselines, the structural candidates and the space-filling
	// sequence (about 60% of the budget) depend on no score: one batch, the
	// one tune shards split (see TuneShard).
	first := slices.Clone(fixed[:max(len(base), min(len(fixed), opt.Budget))])
	nf := len(first)
	if n := int(0.6*float64(opt.Budget)) - distinctSpecs(first); n > 0 {
		first = append(first, spaceCandidates(n, r)...)
	}
	if err := t.addRaced(first[:nf], first[nf:], !out.Sampled); err != nil {
		return nil, err
	}
	t.cur = t.bySpec[opt.Current]
	out.Race = t.race
	lap("first batch")
	if err := t.search(!out.Sampled); err != nil {
		return nil, err
	}
	lap("search")
	t.evaluate()
	chosen, ok := t.choose(allIndices(len(t.res)))
	if out.Sampled {
		full, fullInfos, err := cvWindowsOf(src, starts, c, bounds, opt.Sigmas, opt.SampleJobs, opt.Seed, opt.CheckJobs)
		if err != nil {
			return nil, err
		}
		lap("whole windows")
		if out.Shortlist, chosen, ok, err = t.finalCheck(full); err != nil {
			return nil, err
		}
		for _, f := range fullInfos {
			if f.Sampled {
				out.Shortlist.CheckJobs = opt.CheckJobs
				out.Shortlist.CheckScored = append(out.Shortlist.CheckScored, f.Scored)
			}
		}
		lap("final check")
	}
	out.NoFeasible = !ok
	out.Chosen, out.Deployed, out.RunnerUp = chosen, t.deployed(chosen), t.runnerUp(chosen)
	out.CurrentIdx, out.LASIdx, out.PSIdx, out.FGIdx = t.cur, t.index("las"), t.index("ps"), t.index(fg.canonical().Spec())
	if err := t.finish(out, c, r, lap); err != nil {
		return nil, err
	}
	return out, nil
}

// finalCheck re-scores the shortlist on the whole folds and makes the
// choice again among it: the Shortlist best feasible candidates by the
// sampled scores, the best feasible one of every other kind (see kind), and
// the named baselines. The search crowds candidates at the edge of the
// feasible set, where sampling noise decides which side they fall on; when
// no challenger that beat the current scheduler on the sampled folds stays
// feasible on the whole ones, the Shortlist best that meet the constraints
// with 10% to spare on the sampled folds are added, then 20%, then 30%.
func (t *tuneCV) finalCheck(full [][]*ScoreWindow) (*ShortlistInfo, int, bool, error) {
	n := t.opt.Shortlist
	ranked := t.ranked()
	list := t.initialShortlist(ranked, n)
	// Slack on the sampled folds, per constraint, before re-scoring.
	slack := make([][]float64, len(t.res))
	for _, i := range ranked {
		slack[i] = t.slack(i)
	}
	sl := &ShortlistInfo{Rule: fmt.Sprintf(
		"the %d best feasible candidates by mean fold score on the sampled folds (one of any that score alike on every sampled fold), the best feasible one of every other kind (in-level order; strict or weighted queues; one level) and the named baselines, re-scored on the whole folds, the choice made again among them; when no challenger that beat the current scheduler on the sampled folds stays feasible on the whole ones, the %d best that meet the constraints with 10%% to spare on the sampled folds are added, then 20%%, then 30%%", n, n)}
	t.curSampled = slices.Clone(t.res[t.cur].Chunks)
	t.sampledWins, t.wins = t.wins, full
	var chosen int
	var ok bool
	for round := 1; ; round++ {
		var todo []int
		for _, i := range list {
			if !t.res[i].Whole || t.res[i].Sampled == nil {
				todo = append(todo, i)
			}
		}
		if err := t.rescore(full, todo); err != nil {
			return nil, 0, false, err
		}
		t.evaluate()
		chosen, ok = t.choose(list)
		challenger := slices.ContainsFunc(list, func(i int) bool {
			c := &t.res[i]
			return c.Origin != originBaseline && c.Feasible && beatCurrent(c)
		})
		if challenger || round > 3 {
			break
		}
		more := t.spareCandidates(list, ranked, slack, 0.1*float64(round), n)
		if len(more) == 0 {
			break
		}
		list = append(list, more...)
	}
	sl.Candidates = list
	w := &t.res[chosen]
	if w.FoldMean.Mean > 0 && w.Sampled != nil {
		sl.Gap = w.Sampled.Mean/w.FoldMean.Mean - 1
	}
	if w.SampledImprovement != nil {
		sl.ImprovementGap = *w.SampledImprovement - w.Improvement
	}
	return sl, chosen, ok, nil
}

// initialShortlist is the n best of ranked (twins aside: see twin), the
// best of every other kind and the named baselines.
func (t *tuneCV) initialShortlist(ranked []int, n int) []int {
	var list []int
	for _, i := range ranked {
		if len(list) < n && !t.twin(i, list) {
			list = append(list, i)
		}
	}
	kinds := map[string]bool{}
	for _, i := range list {
		kinds[Kind(&t.res[i])] = true
	}
	for _, i := range ranked {
		if k := Kind(&t.res[i]); !kinds[k] {
			kinds[k] = true
			list = append(list, i)
		}
	}
	for i := range t.res {
		if t.res[i].Origin == originBaseline && !slices.Contains(list, i) {
			list = append(list, i)
		}
	}
	return list
}

// spareCandidates returns the n best of ranked not in list whose sampled
// slack is at least margin on every constraint the challengers in list
// broke on the whole folds.
func (t *tuneCV) spareCandidates(list, ranked []int, slack [][]float64, margin float64, n int) []int {
	broke := make([]bool, len(t.opt.Constraints))
	for _, i := range list {
		if c := &t.res[i]; c.Origin != originBaseline && beatCurrent(c) {
			for k, con := range t.opt.Constraints {
				if ok, _ := t.feasibleUnder([]Constraint{con}, i); !ok {
					broke[k] = true
				}
			}
		}
	}
	var out []int
	for _, i := range ranked {
		spare := len(out) < n && !slices.Contains(list, i) && !t.twin(i, list) && !t.twin(i, out)
		for k := range broke {
			spare = spare && (!broke[k] || slack[i][k] >= margin)
		}
		if spare {
			out = append(out, i)
		}
	}
	return out
}

// twin reports whether candidate i scored exactly as one of list on every
// sampled chunk (and σ): the sample cannot tell them apart — e.g. the same
// thresholds with more levels than any sampled job reaches —, so the
// shortlist re-scores one of them (the best by the rule's order) and keeps
// its places for candidates that behave differently.
func (t *tuneCV) twin(i int, list []int) bool {
	same := func(a, b *CandidateScore) bool {
		if !slices.Equal(a.Chunks, b.Chunks) || len(a.BySigma) != len(b.BySigma) {
			return false
		}
		for s := range a.BySigma {
			if !slices.Equal(a.BySigma[s], b.BySigma[s]) {
				return false
			}
		}
		return true
	}
	return slices.ContainsFunc(list, func(j int) bool { return j != i && same(&t.res[i], &t.res[j]) })
}

// beatCurrent says whether a re-scored candidate beat the current scheduler
// on the sampled folds (by more than rounding: a twin of the current
// scheduler scores 0 up to it).
func beatCurrent(c *CandidateScore) bool {
	return c.SampledImprovement != nil && *c.SampledImprovement > 1e-9
}

// slack is how far candidate i is inside each constraint on its folds:
// the least, over the folds, of (bound − value) / bound (1 where every
// bound is 0).
func (t *tuneCV) slack(i int) []float64 {
	ref := t.refChunks(i)
	out := make([]float64, len(t.opt.Constraints))
	for k, c := range t.opt.Constraints {
		out[k] = 1
		for _, ch := range t.scored {
			if b := c.Bound(ref[ch]); b > 0 {
				out[k] = math.Min(out[k], (b-MetricOf(c.Metric, t.res[i].Chunks[ch]))/b)
			}
		}
	}
	return out
}

// feasibleUnder checks candidate i against some of the constraints on
// every fold.
func (t *tuneCV) feasibleUnder(cs []Constraint, i int) (bool, []string) {
	saved := t.opt.Constraints
	t.opt.Constraints = cs
	defer func() { t.opt.Constraints = saved }()
	return t.feasible(t.res[i].Chunks, t.refChunks(i), t.scored)
}

// ranked lists the feasible candidates (sensitivity ones aside) best first
// by the rule's order.
func (t *tuneCV) ranked() []int {
	var feas []int
	for i := range t.res {
		if t.res[i].Feasible && t.res[i].Origin != OriginSensitivity {
			feas = append(feas, i)
		}
	}
	v := t.view()
	slices.SortStableFunc(feas, func(a, b int) int {
		switch {
		case t.prefer(a, b, v):
			return -1
		case t.prefer(b, a, v):
			return 1
		}
		return 0
	})
	return feas
}

// deployed is the LAS_MQ configuration the bundle carries: the choice when
// it is one; else the best feasible LAS_MQ scored like it; else, with none
// feasible, one level with PS inside (GPS: fair sharing).
func (t *tuneCV) deployed(chosen int) int {
	if t.res[chosen].LASMQ != nil {
		return chosen
	}
	var lm []int
	for i := range t.res {
		if t.res[i].LASMQ != nil && t.res[i].Whole == t.res[chosen].Whole {
			lm = append(lm, i)
		}
	}
	if d, ok := t.choose(lm); ok {
		return d
	}
	if i := t.index(LASMQParams{K: 1, Order: sim.OrderPS}.canonical().Spec()); i >= 0 {
		return i
	}
	return t.bySpec[t.cands[slices.IndexFunc(t.cands, func(c candidate) bool { return c.params != nil })].spec]
}

// finish adds what the report shows: the sensitivity curves around the
// deployed LAS_MQ (scored on the folds the search scored on — sampled ones
// when it sampled —, but not candidates for it), the Pareto front, the SRPT bound, the rule's
// rolling-origin check, the choice's rank under each σ, its interval and
// the explanation.
func (t *tuneCV) finish(out *CVResult, c float64, r sizeRange, lap func(string)) error {
	var err error
	if d := t.res[out.Deployed].LASMQ; d != nil {
		va, vk := sensitivityCandidates(*d, r)
		if out.VsAlpha0, err = t.extra(va); err != nil {
			return err
		}
		if out.VsK, err = t.extra(vk); err != nil {
			return err
		}
		t.evaluate()
	}
	lap("sensitivity")
	t.front()
	if out.SRPT, err = t.srpt(); err != nil {
		return err
	}
	lap("srpt")
	out.SRPTMean = t.foldMeanOf(out.SRPT)
	out.Candidates = t.res
	out.Procedure = t.procedure()
	out.SigmaRanks = t.sigmaRanks(out.Chosen)
	if out.CI, err = t.bootstrap(c, out.Chosen); err != nil {
		return err
	}
	lap("bootstrap")
	out.Explanation = explain(out)
	return nil
}

// WithTuneDefaults fills the zero fields of opt with the tuner's defaults
// for jobs.
func WithTuneDefaults(opt TuneOptions, jobs []sim.Job) TuneOptions {
	if opt.Sizes == nil {
		opt.Sizes = SliceSource(jobs).Size
	}
	return withTuneDefaults(opt, opt.Sizes)
}

// withTuneDefaults is WithTuneDefaults of a window of these sizes (opt's
// Sizes when it has none; the tuner does not change them).
func withTuneDefaults(opt TuneOptions, sizes []float64) TuneOptions {
	if opt.Objective == "" {
		opt.Objective = MinMean
	}
	if opt.Constraints == nil {
		opt.Constraints, _ = ParseConstraints(DefaultConstraints)
	}
	if opt.Current == "" {
		opt.Current = FairSpec
	}
	if opt.Folds == 0 {
		opt.Folds = 5
	}
	if opt.Sigmas == nil {
		opt.Sigmas = []float64{0, 0.5, 1}
	}
	if !slices.Contains(opt.Sigmas, 0) {
		opt.Sigmas = append([]float64{0}, opt.Sigmas...)
	}
	if i := slices.Index(opt.Sigmas, 0); i > 0 {
		opt.Sigmas = append([]float64{0}, slices.Delete(slices.Clone(opt.Sigmas), i, i+1)...)
	}
	if opt.SampleJobs <= 0 {
		opt.SampleJobs = 20000
	}
	if opt.Shortlist <= 0 {
		opt.Shortlist = 5
	}
	if opt.CheckJobs <= 0 {
		opt.CheckJobs = 10 * opt.SampleJobs
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if opt.Sizes == nil {
		opt.Sizes = sizes
	}
	return opt
}

func allIndices(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// index returns the candidate with the specification, or −1.
func (t *tuneCV) index(spec string) int {
	if i, ok := t.bySpec[spec]; ok {
		return i
	}
	return -1
}

// add scores the candidates not scored yet (by specification) and appends
// them; whole says whether t.wins are the whole folds.
func (t *tuneCV) add(cands []candidate, whole bool) error {
	todo, err := t.fresh(cands, nil)
	if err != nil {
		return err
	}
	scores, err := t.scoreAll(todo, t.wins)
	if err != nil {
		return err
	}
	t.appendScored(todo, scores, whole)
	return nil
}

// fresh returns the candidates of cands not scored yet and not in also,
// each once (by specification), after checking that each parses.
func (t *tuneCV) fresh(cands, also []candidate) ([]candidate, error) {
	seen := map[string]bool{}
	for _, c := range also {
		seen[c.spec] = true
	}
	var todo []candidate
	for _, c := range cands {
		if _, ok := t.bySpec[c.spec]; ok || seen[c.spec] {
			continue
		}
		if _, err := sim.ParsePolicy(c.spec); err != nil {
			return nil, fmt.Errorf("candidate %s: %w", c.spec, err)
		}
		seen[c.spec] = true
		todo = append(todo, c)
	}
	return todo, nil
}

// appendScored appends scored candidates (scores as scoreAll returns
// them) to the search's candidates; whole says whether t.wins are the
// whole folds.
func (t *tuneCV) appendScored(todo []candidate, scores [][][]Score, whole bool) {
	for i, c := range todo {
		c.chunks = nil
		t.bySpec[c.spec] = len(t.cands)
		t.cands = append(t.cands, c)
		cs := CandidateScore{Name: c.name, Policy: c.spec, LASMQ: c.params, Origin: c.origin, UsesEstimates: c.est, Whole: whole}
		cs.setScores(scores[i])
		t.res = append(t.res, cs)
		if c.origin != OriginSensitivity {
			t.done++
			if t.opt.Progress != nil {
				t.progress(t.done)
			}
		}
	}
}

// extra scores candidates outside the budget (the sensitivity curves) and
// returns their indices: on the sampled folds when the search was sampled
// (a curve is a diagnostic around the choice; on the whole folds its 18
// points would cost more than the final check itself and grow with the
// log), else on the whole ones.
func (t *tuneCV) extra(cands []candidate) ([]int, error) {
	wins, whole := t.wins, true
	if t.sampledWins != nil {
		t.wins, whole = t.sampledWins, false
	}
	err := t.add(cands, whole)
	t.wins = wins
	if err != nil {
		return nil, err
	}
	out := make([]int, len(cands))
	for i, c := range cands {
		out[i] = t.bySpec[c.spec]
	}
	return out, nil
}

// setScores sets the per-chunk scores from bySigma[σ][chunk] (one σ row
// for a candidate that uses no estimates).
func (cs *CandidateScore) setScores(bySigma [][]Score) {
	cs.Chunks = slices.Clone(bySigma[0])
	cs.BySigma = nil
	if len(bySigma) > 1 {
		cs.BySigma = bySigma
		for _, row := range bySigma[1:] {
			for ch, s := range row {
				cs.Chunks[ch] = worstOf(cs.Chunks[ch], s)
			}
		}
	}
}

// worstOf is the metric-wise worst of two scores.
func worstOf(a, b Score) Score {
	return Score{Mean: math.Max(a.Mean, b.Mean), P99: math.Max(a.P99, b.P99), P99Slowdown: math.Max(a.P99Slowdown, b.P99Slowdown),
		MeanSlowdown: math.Max(a.MeanSlowdown, b.MeanSlowdown), Missed: math.Max(a.Missed, b.Missed)}
}

// scoreAll scores candidates on windows ([chunk][σ]): every chunk (or the
// candidate's chunks), under every σ for those that use estimates. It
// returns [candidate][σ][chunk] (zero scores on the chunks left out).
func (t *tuneCV) scoreAll(cands []candidate, wins [][]*ScoreWindow) ([][][]Score, error) {
	type task struct{ c, s, ch int }
	var tasks []task
	out := make([][][]Score, len(cands))
	for i, c := range cands {
		ns := 1
		if c.est {
			ns = len(t.opt.Sigmas)
		}
		out[i] = make([][]Score, ns)
		chunks := c.chunks
		if chunks == nil {
			chunks = allIndices(len(wins))
		}
		for s := 0; s < ns; s++ {
			out[i][s] = make([]Score, len(wins))
			for _, ch := range chunks {
				tasks = append(tasks, task{i, s, ch})
			}
		}
	}
	keys := make([]TuneTask, len(tasks))
	for k, tk := range tasks {
		keys[k] = TuneTask{Spec: cands[tk.c].spec, Chunk: tk.ch, Sigma: tk.s, Whole: wins[tk.ch][tk.s].whole}
	}
	todo, err := t.opt.Shard.plan(keys, func(k int) *Score { return &out[tasks[k].c][tasks[k].s][tasks[k].ch] })
	if err != nil {
		return nil, err
	}
	w := len(cands)
	if t.weight > 0 {
		w = t.weight
	}
	progress := t.batchProgress(w, len(todo))
	// Tasks that are the same schedule (scoreKey) are simulated once: the
	// first of each, unless an earlier batch scored it.
	keyOf := make([]scoreKey, len(todo))
	var run []int // indices in todo
	first := map[scoreKey]int{}
	for q, k := range todo {
		tk := tasks[k]
		keyOf[q] = t.scoreKey(cands[tk.c].spec, wins[tk.ch][tk.s])
		if _, ok := t.cache[keyOf[q]]; ok {
			continue
		}
		if _, ok := first[keyOf[q]]; !ok {
			first[keyOf[q]] = q
			run = append(run, q)
		}
	}
	err = experiment.ParallelFor(t.ctx, len(run), t.opt.Workers, func(_, r int) error {
		tk := tasks[todo[run[r]]]
		s, _, err := t.score(t.ctx, cands[tk.c].spec, wins[tk.ch][tk.s], false)
		if err != nil {
			return fmt.Errorf("candidate %s, fold %d, σ %v: %w", cands[tk.c].spec, tk.ch, t.opt.Sigmas[tk.s], err)
		}
		out[tk.c][tk.s][tk.ch] = s
		progress()
		return nil
	})
	if err != nil {
		return nil, err
	}
	ran := make([]bool, len(todo))
	for _, q := range run {
		tk := tasks[todo[q]]
		t.cache[keyOf[q]], ran[q] = out[tk.c][tk.s][tk.ch], true
	}
	for q, k := range todo {
		if tk := tasks[k]; !ran[q] {
			out[tk.c][tk.s][tk.ch] = t.cache[keyOf[q]]
			progress()
		}
	}
	return out, t.opt.Shard.finish(keys, todo, func(k int) Score { return out[tasks[k].c][tasks[k].s][tasks[k].ch] })
}

// scoreKey names the schedule a candidate makes on a window: its
// specification, for LAS_MQ cut to the queues the window's largest job
// can reach (sim.LASMQ.Reach), so that candidates that differ only in
// queues no job enters — k, or thresholds beyond every job, which the
// coordinate search and the space-filling sequence produce in numbers —
// are simulated once per window. Windows with rate caps keep the whole
// specification.
type scoreKey struct {
	spec string
	w    *ScoreWindow
}

func (t *tuneCV) scoreKey(spec string, w *ScoreWindow) scoreKey {
	if p, err := sim.ParsePolicy(spec); err == nil && !w.capped {
		if m, ok := p.(*sim.LASMQ); ok {
			spec = m.Reach(w.maxSize).Spec()
		}
	}
	return scoreKey{spec, w}
}

// batchProgress returns the function each scored task of a batch of
// cands candidates (tasks tasks) calls: it tells TuneOptions.Progress the
// candidates done so far, counting the batch's in proportion to its tasks
// done, so that a large batch (the first is about 60% of the budget) moves
// the progress and its ETA as it goes, not at its end.
func (t *tuneCV) batchProgress(cands, tasks int) func() {
	if t.opt.Progress == nil || tasks == 0 {
		return func() {}
	}
	var mu sync.Mutex
	finished := 0
	return func() {
		mu.Lock()
		defer mu.Unlock()
		finished++
		if d := t.done + finished*cands/tasks; d < t.opt.Budget && finished < tasks {
			t.progress(d)
		}
	}
}

// progress tells TuneOptions.Progress that d candidates are done, never
// fewer than it was told before (a race's first round counts ahead for
// the points it drops, and ties at its cut drop fewer).
func (t *tuneCV) progress(d int) {
	t.shown = max(t.shown, min(d, t.opt.Budget))
	t.opt.Progress(t.shown, t.opt.Budget)
}

// distinctSpecs counts the distinct specifications of cands.
func distinctSpecs(cands []candidate) int {
	seen := map[string]bool{}
	for _, c := range cands {
		seen[c.spec] = true
	}
	return len(seen)
}

// rescore replaces the scores of the listed candidates by their scores on
// wins (the whole folds), keeping their sampled fold means.
func (t *tuneCV) rescore(wins [][]*ScoreWindow, list []int) error {
	cands := make([]candidate, len(list))
	for k, i := range list {
		cands[k] = t.cands[i]
	}
	scores, err := t.scoreAll(cands, wins)
	if err != nil {
		return err
	}
	for k, i := range list {
		cs := &t.res[i]
		m, imp := cs.FoldMean, cs.Improvement
		cs.Sampled, cs.SampledImprovement, cs.Whole = &m, &imp, true
		cs.setScores(scores[k])
	}
	return nil
}

// foldMeanOf averages v over the scored chunks.
func (t *tuneCV) foldMeanOf(v []float64) float64 {
	s := 0.0
	for _, ch := range t.scored {
		s += v[ch] / float64(len(t.scored))
	}
	return s
}

// refChunks returns the current scheduler's chunk scores at the fidelity
// of candidate i (whole or sampled folds).
func (t *tuneCV) refChunks(i int) []Score {
	if t.curSampled != nil && !t.res[i].Whole {
		return t.curSampled
	}
	return t.res[t.cur].Chunks
}

// evaluate computes every candidate's fold means, fold scores and
// feasibility, against the current scheduler's scores of the same fidelity.
func (t *tuneCV) evaluate() {
	for i := range t.res {
		cs := &t.res[i]
		ref := t.refChunks(i)
		cs.FoldMean = meanOver(cs.Chunks, t.scored)
		cs.Folds = cs.Folds[:0]
		sum := 0.0
		for _, ch := range t.scored {
			v := t.opt.Objective.Improvement(cs.Chunks[ch], ref[ch])
			cs.Folds = append(cs.Folds, v)
			sum += v
		}
		cs.Improvement = sum / float64(len(t.scored))
		cs.SE = standardError(cs.Folds)
		cs.Feasible, cs.Violations = t.feasible(cs.Chunks, ref, t.scored)
	}
}

// feasible checks the constraints on every chunk in idx against the
// current scheduler's score on the same chunk. Requiring them fold by fold,
// not on the fold mean, keeps the choice away from the edge of the
// feasible set, so that it holds on the next window too: an optimiser
// pushed against a bound on the mean sits on it, and the future window
// falls on either side.
func (t *tuneCV) feasible(chunks, ref []Score, idx []int) (bool, []string) {
	ok := true
	var why []string
	for _, c := range t.opt.Constraints {
		for _, ch := range idx {
			if good, w := c.Check(chunks[ch], ref[ch]); !good {
				ok = false
				why = append(why, fmt.Sprintf("fold %d: %s", ch, w))
				break
			}
		}
	}
	return ok, why
}

// front marks the Pareto front over the five fold-mean metrics (sensitivity
// candidates excluded).
func (t *tuneCV) front() {
	var pool []int
	var means []Score
	for i := range t.res {
		t.res[i].Pareto = false
		if t.res[i].Origin != OriginSensitivity {
			pool = append(pool, i)
			means = append(means, t.res[i].FoldMean)
		}
	}
	for _, k := range ParetoFront(means) {
		t.res[pool[k]].Pareto = true
	}
}

// standardError is the standard error of the mean of v: the sample
// standard deviation over √n (0 for fewer than two values).
func standardError(v []float64) float64 {
	if len(v) < 2 {
		return 0
	}
	_, sd := stat.MeanStdDev(v, nil)
	return sd / math.Sqrt(float64(len(v)))
}

// ruleView is what the selection rule reads of each candidate.
type ruleView struct {
	imp  func(i int) float64 // mean fold score
	se   func(i int) float64 // its standard error
	feas func(i int) bool
	p99  func(i int) float64 // p99 slowdown, the first tie-breaker
}

// view is the rule's view of the candidates' fold means.
func (t *tuneCV) view() ruleView {
	return ruleView{
		imp:  func(i int) float64 { return t.res[i].Improvement },
		se:   func(i int) float64 { return t.res[i].SE },
		feas: func(i int) bool { return t.res[i].Feasible },
		p99:  func(i int) float64 { return t.res[i].FoldMean.P99Slowdown },
	}
}

// pick applies the selection rule to pool: among the feasible candidates,
// those whose mean fold score is within one standard error of the best
// one's, and of those the one with the highest lower bound, mean − one
// standard error (the one-standard-error rule: Hastie, Tibshirani and
// Friedman, The Elements of Statistical Learning, 2nd ed., §7.10). Many
// candidates differ by less than the noise of a few folds; the plain
// maximum then picks whichever was luckiest on these folds, and another
// partition into folds picks another. Preferring, within the noise, the
// candidate whose gain is steadiest over the folds makes the choice hold on
// the next window and under another partition. Ties: a deployable LAS_MQ
// configuration, then the lower p99 slowdown, then fewer levels, then the
// earlier candidate. Sensitivity candidates never count. It returns −1 when
// none is feasible.
func (t *tuneCV) pick(pool []int, v ruleView) int {
	best := -1
	for _, i := range pool {
		if t.res[i].Origin != OriginSensitivity && v.feas(i) && (best < 0 || t.prefer(i, best, v)) {
			best = i
		}
	}
	if best < 0 {
		return -1
	}
	floor := v.imp(best) - v.se(best) - 1e-12
	lcb := ruleView{imp: func(i int) float64 { return v.imp(i) - v.se(i) }, p99: v.p99}
	choice := best
	for _, i := range pool {
		if t.res[i].Origin != OriginSensitivity && v.feas(i) && v.imp(i) >= floor && t.prefer(i, choice, lcb) {
			choice = i
		}
	}
	return choice
}

func (t *tuneCV) prefer(a, b int, v ruleView) bool {
	if d := v.imp(a) - v.imp(b); math.Abs(d) > 1e-12 {
		return d > 0
	}
	x, y := &t.res[a], &t.res[b]
	if (x.LASMQ != nil) != (y.LASMQ != nil) {
		return x.LASMQ != nil
	}
	if pa, pb := v.p99(a), v.p99(b); pa != pb {
		return pa < pb
	}
	if kx, ky := levels(x), levels(y); kx != ky {
		return kx < ky
	}
	return a < b
}

func levels(c *CandidateScore) int {
	if c.LASMQ == nil {
		return 0
	}
	return c.LASMQ.K
}

// choose applies the rule to pool; when no candidate is feasible it
// returns the current scheduler and false.
func (t *tuneCV) choose(pool []int) (int, bool) {
	if b := t.pick(pool, t.view()); b >= 0 {
		return b, true
	}
	return t.cur, false
}

// runnerUp is the best feasible candidate of another kind than the
// choice — another policy, another in-level order, or weights instead of
// strict priority (or the reverse) — among those scored at the choice's
// fidelity; −1 if none. Near twins of the choice (a threshold a few
// percent off) say nothing about why it was chosen.
func (t *tuneCV) runnerUp(chosen int) int {
	var pool []int
	for i := range t.res {
		if i != chosen && t.res[i].Whole == t.res[chosen].Whole && Kind(&t.res[i]) != Kind(&t.res[chosen]) {
			pool = append(pool, i)
		}
	}
	return t.pick(pool, t.view())
}

// Kind names a candidate's family: its policy, and for LAS_MQ its in-level
// order, strict or weighted queues, one level or several.
func Kind(c *CandidateScore) string {
	if c.LASMQ == nil {
		return c.Policy
	}
	p := c.LASMQ.canonical()
	switch {
	case p.K == 1:
		return "las_mq 1 " + string(p.Order)
	case p.Strict():
		return "las_mq strict " + string(p.Order)
	}
	return "las_mq weighted " + string(p.Order)
}

// searchValue is the coordinate search's value of a candidate, lower
// better: −mean fold score when feasible; infeasible candidates come after
// every feasible one, ordered by their relative excess over the bounds.
func (t *tuneCV) searchValue(i int) float64 {
	return t.valueOn(t.res[i].Chunks, t.refChunks(i), t.scored)
}

// valueOn is searchValue of a candidate's chunk scores against the current
// scheduler's (ref) on the chunks idx.
func (t *tuneCV) valueOn(chunks, ref []Score, idx []int) float64 {
	if ok, _ := t.feasible(chunks, ref, idx); ok {
		sum := 0.0
		for _, ch := range idx {
			sum += t.opt.Objective.Improvement(chunks[ch], ref[ch])
		}
		return -(sum / float64(len(idx)))
	}
	v := 1e6
	for _, c := range t.opt.Constraints {
		for _, ch := range idx {
			b := c.Bound(ref[ch])
			if x := MetricOf(c.Metric, chunks[ch]); x > b {
				v += math.Min((x-b)/math.Max(b, 1e-9), 1e6)
			}
		}
	}
	return v
}

// search spends the rest of the budget on a multi-start coordinate search:
// from the best LAS_MQ candidate not yet used as a start, it tries every
// move (see moves) with step 2, moves to the best improving one, and takes
// the square root of the step when none improves, until the step is below
// 1%; then it starts again from the next best point.
func (t *tuneCV) search(whole bool) error {
	started := map[int]bool{}
	for t.spent() < t.opt.Budget {
		t.evaluate()
		from := -1
		for i := range t.res {
			if t.res[i].LASMQ == nil || started[i] {
				continue
			}
			if from < 0 || t.searchValue(i) < t.searchValue(from) {
				from = i
			}
		}
		if from < 0 {
			return nil
		}
		started[from] = true
		best, step := from, 2.0
		for t.spent() < t.opt.Budget && step > 1.01 {
			var cands []candidate
			left := t.opt.Budget - t.spent()
			for _, m := range moves(*t.res[best].LASMQ, step, t.orders) {
				c := lasmqCandidate(m, originSearch)
				_, seen := t.bySpec[c.spec]
				if seen || left > 0 {
					if !seen {
						left--
					}
					cands = append(cands, c)
				}
			}
			if err := t.add(cands, whole); err != nil {
				return err
			}
			t.evaluate()
			moved := false
			for _, c := range cands {
				if i := t.bySpec[c.spec]; t.searchValue(i) < t.searchValue(best) {
					best, moved = i, true
				}
			}
			if !moved {
				step = math.Sqrt(step)
			}
		}
	}
	return nil
}

// srpt returns the SRPT mean response with exact sizes on every chunk.
func (t *tuneCV) srpt() ([]float64, error) {
	out := make([]float64, len(t.wins))
	err := experiment.ParallelFor(t.ctx, len(t.wins), t.opt.Workers, func(_, ch int) error {
		s, _, err := t.score(t.ctx, "srpt", t.wins[ch][0], false)
		out[ch] = s.Mean
		return err
	})
	return out, err
}

// procedure evaluates the rule by rolling origin: for each fold i, the
// candidate the rule picks from chunks 0..i−1 (their mean improvements and
// metrics, the constraints on those) and its score on fold i; Best is the
// best any feasible candidate did on fold i. Only candidates scored at the
// current scheduler's fidelity take part.
func (t *tuneCV) procedure() []FoldPick {
	if t.scored[0] == 0 {
		return nil // one fold, nothing before it
	}
	cur := t.res[t.cur].Chunks
	var pool []int
	for i := range t.res {
		if t.res[i].Whole == t.res[t.cur].Whole {
			pool = append(pool, i)
		}
	}
	var out []FoldPick
	for k, fold := range t.scored {
		past := allIndices(fold)
		imp := make([]float64, len(t.res))
		se := make([]float64, len(t.res))
		feas := make([]bool, len(t.res))
		p99 := make([]float64, len(t.res))
		best := math.Inf(-1)
		scores := make([]float64, len(past))
		for _, i := range pool {
			cs := &t.res[i]
			m := meanOver(cs.Chunks, past)
			for k, ch := range past {
				scores[k] = t.opt.Objective.Improvement(cs.Chunks[ch], cur[ch])
				imp[i] += scores[k] / float64(len(past))
			}
			se[i] = standardError(scores)
			feas[i], _ = t.feasible(cs.Chunks, cur, past)
			p99[i] = m.P99Slowdown
			if cs.Feasible && cs.Origin != OriginSensitivity {
				best = math.Max(best, cs.Folds[k])
			}
		}
		v := ruleView{imp: func(i int) float64 { return imp[i] }, se: func(i int) float64 { return se[i] },
			feas: func(i int) bool { return feas[i] }, p99: func(i int) float64 { return p99[i] }}
		pick := t.pick(pool, v)
		if pick < 0 {
			pick = t.cur
		}
		out = append(out, FoldPick{Fold: fold, Pick: pick, Improvement: t.res[pick].Folds[k], Best: best})
	}
	return out
}

// meanOver averages scores over the given chunks, metric by metric.
func meanOver(chunks []Score, idx []int) Score {
	var m Score
	k := 1 / float64(len(idx))
	for _, ch := range idx {
		s := chunks[ch]
		m.Mean += k * s.Mean
		m.P99 += k * s.P99
		m.P99Slowdown += k * s.P99Slowdown
		m.MeanSlowdown += k * s.MeanSlowdown
		m.Missed += k * s.Missed
	}
	return m
}

// sigmaRanks ranks the chosen candidate among the feasible ones of its
// fidelity by mean fold score under each σ alone (a candidate that uses no
// estimates scores the same under every σ).
func (t *tuneCV) sigmaRanks(chosen int) []int {
	ranks := make([]int, len(t.opt.Sigmas))
	at := func(i, s int) float64 {
		chunks, cur := t.res[i].Chunks, t.refChunks(i)
		if t.res[i].BySigma != nil {
			chunks = t.res[i].BySigma[s]
		}
		if b := t.res[t.cur].BySigma; b != nil && t.res[i].Whole == t.res[t.cur].Whole {
			cur = b[s]
		}
		v := 0.0
		for _, ch := range t.scored {
			v += t.opt.Objective.Improvement(chunks[ch], cur[ch]) / float64(len(t.scored))
		}
		return v
	}
	for s := range t.opt.Sigmas {
		mine := at(chosen, s)
		ranks[s] = 1
		for i := range t.res {
			if i != chosen && t.res[i].Feasible && t.res[i].Origin != OriginSensitivity &&
				t.res[i].Whole == t.res[chosen].Whole && at(i, s) > mine+1e-12 {
				ranks[s]++
			}
		}
	}
	return ranks
}
