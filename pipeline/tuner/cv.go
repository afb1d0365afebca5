package tuner

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sort"
	"sync"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/internal/par"
	"github.com/schedplan/schedplan/pipeline/experiment"
)

// This file holds what the cross-validated tuner scores candidates on: the
// rolling-origin folds of the tuning window, the blocks a fold's window is
// simulated in (busy periods, sampled when a window is larger than the
// budget allows) and the scoring callback.
//
// Busy periods. On a work-conserving server (every policy here, without
// rate caps) the unfinished work evolves the same whatever the policy, so
// the busy periods — maximal intervals with work in the system — are a
// property of the arrivals and sizes alone, and jobs of different busy
// periods never meet. Simulating each busy period from an empty system is
// therefore exact. A window cut at busy-period starts is scored exactly;
// a busy period longer than the block limit is cut into pieces, each
// simulated from empty (an approximation the report names).

// BusyStarts returns the indices of the jobs that start a busy period of
// jobs (sorted by arrival) on a server of capacity c: job 0, and every job
// that arrives when the work of the jobs before it has drained.
func BusyStarts(jobs []sim.Job, c float64) []int {
	return busyStarts(SliceSource(jobs), c)
}

// busyStarts is BusyStarts of a source's columns.
func busyStarts(src *JobSource, c float64) []int {
	var starts []int
	work, last := 0.0, 0.0
	for i, arrival := range src.Arrival {
		size := src.Size[i]
		if i > 0 {
			// Relative tolerance: a backlog that drains within rounding
			// of the arrival counts as drained.
			work -= (arrival - last) * c
		}
		if i == 0 || work <= 1e-12*math.Max(1, size) {
			starts = append(starts, i)
			work = 0
		}
		work += size
		last = arrival
	}
	return starts
}

// FoldInfo describes one window of the rolling-origin cross-validation.
type FoldInfo struct {
	// Index is 0 for the first chunk of the tuning window, which only ever
	// tunes, and i ≥ 1 for fold i: tune on chunks 0..i−1, score on chunk i.
	Index int        `json:"index"`
	Jobs  int        `json:"jobs"`
	First int        `json:"first_job"` // index in the tuning window
	Span  [2]float64 `json:"span_s"`    // first and last submit time
	// Exact is true when the chunk starts at a busy-period start, so that
	// simulating it from an empty system is exact.
	Exact bool `json:"starts_busy_period"`
	// Scored is how many of the chunk's jobs a candidate is simulated on
	// (all of them unless the chunk is larger than TuneOptions.SampleJobs)
	// and Units how many blocks that takes.
	Scored int `json:"scored_jobs"`
	Units  int `json:"blocks"`
	// Sampled is true when the chunk is scored on a sample of its busy
	// periods (see sampleUnits).
	Sampled bool `json:"sampled"`
}

// PlanChunks cuts n jobs into parts+1 chunks of about equal job count, each
// cut moved to the nearest busy-period start within a quarter of a chunk so
// that most chunks are exact. It returns the parts+2 boundaries.
func PlanChunks(jobs []sim.Job, c float64, parts int) []int {
	return planChunks(len(jobs), BusyStarts(jobs, c), parts)
}

// planChunks is PlanChunks of n jobs whose busy periods start at starts.
func planChunks(n int, starts []int, parts int) []int {
	b := make([]int, parts+2)
	b[parts+1] = n
	width := float64(n) / float64(parts+1)
	for i := 1; i <= parts; i++ {
		want := int(math.Round(float64(i) * width))
		best, bestD := want, math.Inf(1)
		k := sort.SearchInts(starts, want)
		for _, s := range []int{k - 1, k} {
			if s >= 0 && s < len(starts) {
				if d := math.Abs(float64(starts[s] - want)); d <= width/4 && d < bestD {
					best, bestD = starts[s], d
				}
			}
		}
		// Keep every chunk non-empty and the cuts increasing.
		b[i] = min(max(best, b[i-1]+1), n-(parts+1-i))
	}
	return b
}

// scoreBlock is a run of jobs simulated from an empty system.
type scoreBlock struct {
	first int       // index of the block's first job in the tuning window
	jobs  []sim.Job // the tuning window's, with its estimates
	// est, when not nil, are the window's size estimates (σ > 0): est[i]
	// is job i's in place of jobs[i].Estimate. A column of 8 B a job, not
	// a 48-byte copy of every job per σ (0.14 GB of the 10 M log's whole
	// folds at the final check).
	est []float64
	// deadlines are the jobs' PS completion times in the block, the
	// protective deadlines whose misses the score counts.
	deadlines []float64
	// weight is each job's weight in the window's metrics: 1 when the
	// block is scored with certainty, 1/π for a block sampled with
	// probability π (Horvitz–Thompson).
	weight float64
}

// ScoreWindow is what a candidate is scored on: blocks of jobs, each
// simulated from an empty system, whose metrics are pooled with weights.
type ScoreWindow struct {
	Fold   int     // FoldInfo.Index
	Sigma  float64 // log-normal size-estimation error of the jobs' estimates
	blocks []scoreBlock
	// whole is set for the whole folds of a sampled search's final check.
	whole bool
	// maxSize is the largest job's size; capped is set when a job has a
	// rate cap (see scoreKey).
	maxSize float64
	capped  bool
}

// Jobs returns how many jobs the window simulates.
func (w *ScoreWindow) Jobs() int {
	n := 0
	for _, b := range w.blocks {
		n += len(b.jobs)
	}
	return n
}

// JobSpan is a block candidate of a chunk: jobs [lo, hi) of the tuning window.
type JobSpan struct{ Lo, Hi int }

// chunkUnits cuts jobs [lo, hi) of the tuning window into its busy periods,
// each cut further into pieces of at most maxJobs jobs.
func chunkUnits(starts []int, lo, hi, maxJobs int) []JobSpan {
	var out []JobSpan
	k := sort.SearchInts(starts, lo+1)
	prev := lo
	for ; ; k++ {
		end := hi
		if k < len(starts) && starts[k] < hi {
			end = starts[k]
		}
		for a := prev; a < end; a += maxJobs {
			out = append(out, JobSpan{a, min(a+maxJobs, end)})
		}
		if end == hi {
			return out
		}
		prev = end
	}
}

// SampleUnits picks the blocks a chunk is scored on when it has more than
// budget jobs, by a fixed rule: the units (busy periods) are sorted by
// their work — a busy period's length, the load it carries — and sampled
// systematically with probability proportional to their job count (a random
// start, then every s-th job of the sorted sequence names the unit that
// holds it). Sorting by work before the systematic pass stratifies the
// sample by load: short idle-separated bursts and long backlogs are both
// represented in proportion. A unit with at least s jobs is taken with
// certainty (weight 1); a smaller unit with n jobs is taken with
// probability n/s and its jobs weigh s/n. s is set so that the expected
// number of sampled jobs is the budget. It returns the chosen units and
// their weights.
func SampleUnits(jobs []sim.Job, units []JobSpan, budget int, rng *rand.Rand) ([]JobSpan, []float64) {
	return sampleUnits(SliceSource(jobs).Size, units, budget, rng)
}

// sampleUnits is SampleUnits of the jobs' sizes.
func sampleUnits(sizes []float64, units []JobSpan, budget int, rng *rand.Rand) ([]JobSpan, []float64) {
	total := 0
	for _, u := range units {
		total += u.Hi - u.Lo
	}
	if total <= budget {
		w := make([]float64, len(units))
		for i := range w {
			w[i] = 1
		}
		return units, w
	}
	work := make([]float64, len(units))
	for i, u := range units {
		for _, size := range sizes[u.Lo:u.Hi] {
			work[i] += size
		}
	}
	order := make([]int, len(units))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return work[order[a]] < work[order[b]] })
	// Expected sample size for step s: Σ n·min(1, n/s), decreasing in s.
	expect := func(s float64) float64 {
		e := 0.0
		for _, u := range units {
			n := float64(u.Hi - u.Lo)
			e += n * math.Min(1, n/s)
		}
		return e
	}
	lo, hi := 1.0, float64(total)
	for it := 0; it < 60; it++ {
		mid := math.Sqrt(lo * hi)
		if expect(mid) > float64(budget) {
			lo = mid
		} else {
			hi = mid
		}
	}
	s := hi
	start := rng.Float64() * s
	var picked []JobSpan
	var weights []float64
	cum := 0.0
	for _, i := range order {
		u := units[i]
		n := float64(u.Hi - u.Lo)
		switch {
		case n >= s:
			picked, weights = append(picked, u), append(weights, 1)
		default:
			// Is a pick point start + k·s in [cum, cum + n)?
			k := math.Ceil((cum - start) / s)
			if p := start + k*s; p < cum+n {
				picked, weights = append(picked, u), append(weights, s/n)
			}
		}
		cum += n
	}
	// Blocks run in time order.
	idx := make([]int, len(picked))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return picked[idx[a]].Lo < picked[idx[b]].Lo })
	outU, outW := make([]JobSpan, len(idx)), make([]float64, len(idx))
	for k, i := range idx {
		outU[k], outW[k] = picked[i], weights[i]
	}
	return outU, outW
}

// CVWindows builds the tuner's windows: for each chunk, its blocks (all of
// them, or a sample when the chunk has more than sampleJobs jobs) with
// estimates drawn for each σ; and the folds' descriptions. Windows are
// indexed [chunk][σ]. checkJobs > 0 builds the final check's windows
// instead: every chunk whole, cut only at its busy periods, except that a
// chunk of more than checkJobs jobs is a sample of checkJobs jobs (pieces
// of at most checkJobs/4, a draw of its own).
func CVWindows(jobs []sim.Job, c float64, bounds []int, sigmas []float64, sampleJobs int, seed uint64, checkJobs int) ([][]*ScoreWindow, []FoldInfo, error) {
	src := SliceSource(jobs)
	return cvWindowsOf(src, busyStarts(src, c), c, bounds, sigmas, sampleJobs, seed, checkJobs)
}

// cvWindowsOf is CVWindows of a source whose busy periods start at
// starts: each block's jobs are built from it (JobSource.Range) and held
// by the window alone.
func cvWindowsOf(src *JobSource, starts []int, c float64, bounds []int, sigmas []float64, sampleJobs int, seed uint64, checkJobs int) ([][]*ScoreWindow, []FoldInfo, error) {
	cw := &cvWindows{src: src, c: c, bounds: bounds, sigmas: sigmas, sampleJobs: sampleJobs, seed: seed, checkJobs: checkJobs, starts: starts}
	chunks := len(bounds) - 1
	wins := make([][]*ScoreWindow, chunks)
	infos := make([]FoldInfo, chunks)
	// The chunks are independent (each draws from its own streams): they
	// are built side by side, and the first error in chunk order returned.
	errs := make([]error, chunks)
	par.For(chunks, runtime.GOMAXPROCS(0), func(ch int) {
		wins[ch], infos[ch], errs[ch] = cw.chunk(ch)
	})
	for _, err := range errs {
		if err != nil {
			return nil, nil, err
		}
	}
	return wins, infos, nil
}

// cvWindows holds CVWindows' arguments and what its chunks share: the
// busy-period starts.
type cvWindows struct {
	src        *JobSource
	c          float64
	bounds     []int
	sigmas     []float64
	sampleJobs int
	seed       uint64
	checkJobs  int
	starts     []int
}

// chunk builds chunk ch's windows (one per σ) and its fold's description.
func (cw *cvWindows) chunk(ch int) ([]*ScoreWindow, FoldInfo, error) {
	src, c, seed, full := cw.src, cw.c, cw.seed, cw.checkJobs > 0
	lo, hi := cw.bounds[ch], cw.bounds[ch+1]
	budget, maxBlock, stream := cw.sampleJobs, max(1, cw.sampleJobs/4), uint64(1000+ch)
	if full {
		budget, maxBlock, stream = cw.checkJobs, max(1, cw.checkJobs/4), uint64(2000+ch)
		if hi-lo <= cw.checkJobs {
			maxBlock = max(maxBlock, src.Len())
		}
	}
	units, weights := sampleUnits(src.Size, chunkUnits(cw.starts, lo, hi, maxBlock), budget, estimate.RunRand(seed, stream))
	_, exact := slices.BinarySearch(cw.starts, lo)
	info := FoldInfo{Index: ch, Jobs: hi - lo, First: lo, Span: [2]float64{src.Arrival[lo], src.Arrival[hi-1]}, Exact: exact, Units: len(units)}
	for i, u := range units {
		info.Scored += u.Hi - u.Lo
		info.Sampled = info.Sampled || weights[i] != 1
	}
	info.Sampled = info.Sampled || info.Scored < info.Jobs
	blocks := make([]scoreBlock, len(units))
	for i, u := range units {
		bj, err := src.Range(u.Lo, u.Hi)
		if err != nil {
			return nil, info, err
		}
		dl, err := experiment.PSDeadlines(bj, c)
		if err != nil {
			return nil, info, err
		}
		blocks[i] = scoreBlock{first: u.Lo, jobs: bj, deadlines: dl, weight: weights[i]}
	}
	maxSize, capped := 0.0, false
	for _, b := range blocks {
		for _, j := range b.jobs {
			maxSize = math.Max(maxSize, j.Size)
		}
		capped = capped || sim.HasCaps(b.jobs)
	}
	var wins []*ScoreWindow
	for k, s := range cw.sigmas {
		w := &ScoreWindow{Fold: ch, Sigma: s, blocks: blocks, whole: full, maxSize: maxSize, capped: capped}
		if s > 0 {
			w.blocks = make([]scoreBlock, len(blocks))
			est := estimate.ErrorModel{Kind: estimate.LogNormal, Sigma: s}.Apply(src.Size[lo:hi], estimate.RunRand(seed, uint64(ch*16+k)), nil)
			for i, b := range blocks {
				b.est = slices.Clone(est[b.first-lo : b.first-lo+len(b.jobs)])
				w.blocks[i] = b
			}
		}
		wins = append(wins, w)
	}
	return wins, info, nil
}

// WindowScorer scores one policy specification on one window: mean and p99
// response, mean and p99 slowdown and the share of missed PS deadlines;
// with keep set it also returns every job's response (s), block by block
// in the window's order (see ScoreWindow.Blocks), else nil. It must be safe
// for concurrent use. SimulateWindows is the one that simulates; tests pass
// synthetic ones.
type WindowScorer func(ctx context.Context, spec string, w *ScoreWindow, keep bool) (Score, []float64, error)

// WindowBlock is one block of a ScoreWindow: jobs simulated from an empty
// system, their PS completion times and the weight of each of its jobs in
// the window's metrics. Estimates, when not nil, are the window's size
// estimates: Estimates[i] is job i's in place of Jobs[i].Estimate.
type WindowBlock struct {
	Jobs      []sim.Job
	Estimates []float64
	Deadlines []float64
	Weight    float64
}

// Blocks returns the window's blocks, in time order.
func (w *ScoreWindow) Blocks() []WindowBlock {
	out := make([]WindowBlock, len(w.blocks))
	for i, b := range w.blocks {
		out[i] = WindowBlock{b.jobs, b.est, b.deadlines, b.weight}
	}
	return out
}

// simulate runs spec on the block with s: with its estimates column when
// it has one (s's SimulateEstimates, else a copy of its jobs with those
// estimates, made for this run alone).
func (b *scoreBlock) simulate(ctx context.Context, s experiment.Simulator, c float64, spec string) (*sim.Result, error) {
	if b.est == nil {
		return s.Simulate(ctx, b.jobs, b.first, c, spec)
	}
	if es, ok := s.(experiment.EstimatesSimulator); ok {
		return es.SimulateEstimates(ctx, b.jobs, b.est, b.first, c, spec)
	}
	jobs := slices.Clone(b.jobs)
	for i := range jobs {
		jobs[i].Estimate = b.est[i]
	}
	return s.Simulate(ctx, jobs, b.first, c, spec)
}

// windowBuffers are one goroutine's buffers for scoring windows.
type windowBuffers struct {
	sim     experiment.Simulator
	m       sim.Metrics
	resp    []float64
	slow    []float64
	rw, sw  []float64 // weights of resp and slow
	missedW float64
	totalW  float64
}

// SimulateWindows returns the WindowScorer that simulates each block of a
// window on the resolution (nil: Fluid) with capacity c and pools the
// per-job results with the blocks' weights. A block's jobs are passed as
// jobs first.. of the tuning window, the jobs TuneCV was given.
func SimulateWindows(res experiment.Resolution, c float64) WindowScorer {
	if res == nil {
		res = experiment.Fluid
	}
	pool := sync.Pool{New: func() any { return &windowBuffers{sim: res.NewSimulator()} }}
	return func(ctx context.Context, spec string, w *ScoreWindow, keep bool) (Score, []float64, error) {
		if err := ctx.Err(); err != nil {
			return Score{}, nil, err
		}
		b := pool.Get().(*windowBuffers)
		defer pool.Put(b)
		b.reset()
		var resp []float64
		for _, bl := range w.blocks {
			r, err := bl.simulate(ctx, b.sim, c, spec)
			if err != nil {
				return Score{}, nil, fmt.Errorf("%s: %w", spec, err)
			}
			b.m.PerJobRun(bl.jobs, r, c, bl.deadlines)
			if keep {
				resp = append(resp, b.m.Response...)
			}
			b.add(&b.m, bl.weight)
		}
		return b.score(), resp, nil
	}
}

func (b *windowBuffers) reset() {
	b.resp, b.slow, b.rw, b.sw = b.resp[:0], b.slow[:0], b.rw[:0], b.sw[:0]
	b.missedW, b.totalW = 0, 0
}

// add pools one block's per-job metrics with weight w.
func (b *windowBuffers) add(m *sim.Metrics, w float64) {
	for i, r := range m.Response {
		b.resp, b.rw = append(b.resp, r), append(b.rw, w)
		if s := m.Slowdown[i]; !math.IsNaN(s) {
			b.slow, b.sw = append(b.slow, s), append(b.sw, w)
		}
		if m.Missed != nil && m.Missed[i] {
			b.missedW += w
		}
		b.totalW += w
	}
}

// score summarises the pooled jobs: weighted means and weighted quantiles
// (linear interpolation, as sim.QuantilesOf; with unit weights the same
// numbers as an unweighted summary).
func (b *windowBuffers) score() Score {
	var s Score
	if b.totalW > 0 {
		s.Missed = b.missedW / b.totalW
	}
	s.Mean, s.P99 = weightedMeanP99(b.resp, b.rw)
	s.MeanSlowdown, s.P99Slowdown = weightedMeanP99(b.slow, b.sw)
	return s
}

// weightedMeanP99 returns the weighted mean and 99th percentile of x; it
// reorders x and w.
func weightedMeanP99(x, w []float64) (float64, float64) {
	return sim.WeightedMeanQuantile(0.99, x, w)
}
