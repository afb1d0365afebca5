package tuner

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/report"

	"gonum.org/v1/gonum/stat"
)

// Block bootstrap of the chosen configuration's improvement.
const (
	bootBlocks = 20  // contiguous blocks per fold
	bootLevel  = 0.9 // a 90% interval
)

// bootJobs are one policy's per-job outcomes on one fold, in submit order.
type bootJobs struct {
	resp, slow, w []float64
	missed        []bool
}

// bootstrap returns a block-bootstrap interval of the chosen candidate's
// mean fold improvement over the current scheduler: each scored fold's
// jobs, in submit order, are cut into bootBlocks contiguous blocks (blocks
// keep the dependence between neighbouring jobs, which share busy
// periods); a replicate resamples each fold's blocks with replacement and
// recomputes the mean fold improvement in the objective; the interval is
// the replicates' 5th to 95th percentile. Both policies are simulated on
// the folds as scored (under the σ that is the chosen candidate's worst
// when it uses estimates).
func (t *tuneCV) bootstrap(c float64, chosen int) (Interval, error) {
	iv := Interval{Level: bootLevel, Metric: ObjectiveLabel(t.opt.Objective)}
	if chosen == t.cur {
		iv.Available = true // the current scheduler against itself: 0
		return iv, nil
	}
	worstSigma := func(i int) int {
		cs := &t.res[i]
		w, best := 0, math.Inf(1)
		for s, row := range cs.BySigma {
			v := 0.0
			for _, ch := range t.scored {
				v += t.opt.Objective.Improvement(row[ch], t.res[t.cur].Chunks[ch])
			}
			if v < best {
				w, best = s, v
			}
		}
		return w
	}
	quant := t.opt.Objective != MinMean && t.opt.Objective != MinSlowdown && t.opt.Objective != MinMissed
	// Both policies on every scored fold: independent simulations, run
	// side by side (they were a serial phase of the stage); each keeps
	// only its blocks. kept[f][k] is false when the scorer returned no
	// per-job results.
	folds := make([][2][]bootBlock, len(t.scored))
	kept := make([][2]bool, len(t.scored))
	pols := [2]int{chosen, t.cur}
	err := experiment.ParallelFor(t.ctx, 2*len(t.scored), t.opt.Workers, func(_, x int) error {
		f, k := x/2, x%2
		i := pols[k]
		w := t.wins[t.scored[f]][worstSigma(i)]
		_, resp, err := t.score(t.ctx, t.res[i].Policy, w, true)
		if err != nil || resp == nil {
			return err
		}
		jobs, err := bootOutcomes(w, resp, c)
		if err != nil {
			return err
		}
		folds[f][k], kept[f][k] = jobs.blocks(min(bootBlocks, len(jobs.resp)), quant), true
		return nil
	})
	if err != nil {
		return iv, err
	}
	for _, k := range kept {
		if !k[0] || !k[1] {
			return iv, nil // the scorer keeps no per-job results
		}
	}
	reps := 1000
	if quant {
		reps = 300 // quantiles: each replicate bisects the blocks' values
	}
	rng := estimate.RunRand(t.opt.Seed, 1<<20)
	vals := make([]float64, reps)
	counts := make([]int, bootBlocks)
	for r := range vals {
		sum := 0.0
		for _, f := range folds {
			nb := len(f[0])
			clear(counts)
			for k := 0; k < nb; k++ {
				counts[rng.IntN(nb)]++
			}
			a := replicateScore(f[0], counts[:nb], t.opt.Objective)
			b := replicateScore(f[1], counts[:nb], t.opt.Objective)
			sum += t.opt.Objective.Improvement(a, b)
		}
		vals[r] = sum / float64(len(folds))
	}
	slices.Sort(vals)
	iv.Lo = stat.Quantile((1-bootLevel)/2, stat.LinInterp, vals, nil)
	iv.Hi = stat.Quantile(1-(1-bootLevel)/2, stat.LinInterp, vals, nil)
	iv.Replicates, iv.Available = reps, true
	return iv, nil
}

// bootOutcomes turns a window's per-job responses into slowdowns and
// deadline misses (with sim.Metrics, the one definition of both).
func bootOutcomes(w *ScoreWindow, resp []float64, c float64) (bootJobs, error) {
	var out bootJobs
	var m sim.Metrics
	k := 0
	for _, bl := range w.Blocks() {
		n := len(bl.Jobs)
		if k+n > len(resp) {
			return out, fmt.Errorf("scorer returned %d responses for a window of more jobs", len(resp))
		}
		r := &sim.Result{Completion: make([]float64, n), Response: resp[k : k+n]}
		for i, j := range bl.Jobs {
			r.Completion[i] = j.Arrival + resp[k+i]
		}
		m.PerJobRun(bl.Jobs, r, c, bl.Deadlines)
		for i := range bl.Jobs {
			out.resp = append(out.resp, resp[k+i])
			out.slow = append(out.slow, m.Slowdown[i])
			out.missed = append(out.missed, m.Missed != nil && m.Missed[i])
			out.w = append(out.w, bl.Weight)
		}
		k += n
	}
	return out, nil
}

// bootBlock is one bootstrap block of one policy's outcomes on a fold:
// the weighted sums a replicate's means are made of and, for objectives
// that are quantiles, the block's responses and slowdowns sorted with
// their cumulative weights. A replicate is then a multiset of blocks, and
// its score costs O(blocks) (means) or O(blocks · log jobs) per bisection
// step (quantiles), whatever the fold's size.
type bootBlock struct {
	sw, sr, ssd, swd, sm float64
	resp, slow           sortedWeighted
}

// sortedWeighted are values in increasing order and their cumulative
// weights: cw[i] is the weight of x[:i] (len(cw) = len(x)+1).
type sortedWeighted struct{ x, cw []float64 }

// blocks cuts the outcomes, in submit order, into nb contiguous blocks (jobs
// [k·n/nb, (k+1)·n/nb)) and summarises each; sorted keeps the sorted values
// that quantiles need.
func (b bootJobs) blocks(nb int, sorted bool) []bootBlock {
	n := len(b.resp)
	out := make([]bootBlock, nb)
	for k := range out {
		lo, hi := k*n/nb, (k+1)*n/nb
		bl := &out[k]
		for i := lo; i < hi; i++ {
			w := b.w[i]
			bl.sw += w
			bl.sr += w * b.resp[i]
			if !math.IsNaN(b.slow[i]) {
				bl.ssd += w * b.slow[i]
				bl.swd += w
			}
			if b.missed[i] {
				bl.sm += w
			}
		}
		if sorted {
			bl.resp = sortWeighted(b.resp[lo:hi], b.w[lo:hi])
			bl.slow = sortWeighted(b.slow[lo:hi], b.w[lo:hi])
		}
	}
	return out
}

// sortWeighted sorts the non-NaN values of x with their weights.
func sortWeighted(x, w []float64) sortedWeighted {
	var vx, vw []float64
	for i, v := range x {
		if !math.IsNaN(v) {
			vx, vw = append(vx, v), append(vw, w[i])
		}
	}
	sim.SortWeighted(vx, vw)
	cw := make([]float64, len(vx)+1)
	for i, v := range vw {
		cw[i+1] = cw[i] + v
	}
	return sortedWeighted{vx, cw}
}

// replicateScore computes the metrics the objective reads (the others stay
// 0) on the multiset of blocks that holds counts[k] copies of blocks[k]:
// the same numbers as pooling the copies' jobs and summarising them (see
// bootJobsScore in the tests).
func replicateScore(blocks []bootBlock, counts []int, o Objective) Score {
	var s Score
	sw, sr, ssd, swd, sm := 0.0, 0.0, 0.0, 0.0, 0.0
	for k, c := range counts {
		if c == 0 {
			continue
		}
		f, b := float64(c), &blocks[k]
		sw, sr, ssd, swd, sm = sw+f*b.sw, sr+f*b.sr, ssd+f*b.ssd, swd+f*b.swd, sm+f*b.sm
	}
	if sw > 0 {
		s.Mean, s.Missed = sr/sw, sm/sw
	}
	if swd > 0 {
		s.MeanSlowdown = ssd / swd
	}
	pick := func(get func(*bootBlock) sortedWeighted) []sortedWeighted {
		parts := make([]sortedWeighted, len(blocks))
		for k := range blocks {
			parts[k] = get(&blocks[k])
		}
		return parts
	}
	switch o {
	case MinP99, MinMix:
		s.P99 = multisetQuantile(0.99, pick(func(b *bootBlock) sortedWeighted { return b.resp }), counts)
	case MinP99Slowdown:
		s.P99Slowdown = multisetQuantile(0.99, pick(func(b *bootBlock) sortedWeighted { return b.slow }), counts)
	}
	return s
}

// multisetQuantile is the p-quantile of the values of counts[k] copies of
// parts[k], as sim.WeightedMeanQuantile (linear interpolation in the
// sorted pooled values, weighted) computes it on the pooled values — when
// equal values have equal weights, as copies of one job do —, without
// pooling them: it bisects on the values' order-preserving bit patterns for
// the least value v whose pooled weight at or below v reaches p of the
// total, then interpolates towards the largest value below v.
func multisetQuantile(p float64, parts []sortedWeighted, counts []int) float64 {
	total := 0.0
	lo, hi := uint64(math.MaxUint64), uint64(0)
	for k, c := range counts {
		if n := len(parts[k].x); c > 0 && n > 0 {
			total += float64(c) * parts[k].cw[n]
			lo, hi = min(lo, orderKey(parts[k].x[0])), max(hi, orderKey(parts[k].x[n-1]))
		}
	}
	if total == 0 {
		return 0
	}
	target := p * total
	// weightBelow is the pooled weight of the values < v (or ≤ v).
	weightBelow := func(v float64, orEqual bool) float64 {
		s := 0.0
		for k, c := range counts {
			if c == 0 {
				continue
			}
			x := parts[k].x
			i := sort.Search(len(x), func(i int) bool { return x[i] > v || !orEqual && x[i] == v })
			s += float64(c) * parts[k].cw[i]
		}
		return s
	}
	for lo < hi {
		mid := lo + (hi-lo)/2
		if weightBelow(fromOrderKey(mid), true) >= target {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	v := fromOrderKey(lo)
	less := weightBelow(v, false)
	pred, first, found := math.Inf(-1), 0.0, false
	for k, c := range counts {
		if c == 0 {
			continue
		}
		x := parts[k].x
		i := sort.SearchFloat64s(x, v)
		if i > 0 {
			pred = math.Max(pred, x[i-1])
		}
		if i < len(x) && x[i] == v && !found {
			first, found = parts[k].cw[i+1]-parts[k].cw[i], true
		}
	}
	if math.IsInf(pred, -1) || less+first < target {
		return v // the first pooled value, or not the first copy of v
	}
	t := (less + first - target) / first
	return t*pred + (1-t)*v
}

// orderKey maps a float64 to a uint64 of the same order (NaN aside), and
// fromOrderKey back.
func orderKey(v float64) uint64 {
	b := math.Float64bits(v)
	if b>>63 == 1 {
		return ^b
	}
	return b | 1<<63
}

func fromOrderKey(k uint64) float64 {
	if k>>63 == 1 {
		return math.Float64frombits(k &^ (1 << 63))
	}
	return math.Float64frombits(^k)
}

// ObjectiveLabel names an objective's metric for sentences.
func ObjectiveLabel(o Objective) string {
	if o == MinMix {
		return "mean and p99 response (mix)"
	}
	for _, m := range ScoreMetrics {
		if m.Name == string(o) {
			return strings.TrimSuffix(m.label, " (s)")
		}
	}
	return string(o)
}

// PctS renders a fraction as signed percent.
func PctS(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "–"
	}
	if math.Abs(v) < 5e-4 {
		v = 0 // no "-0.0%"
	}
	return fmt.Sprintf("%+.1f%%", 100*v)
}

// foldList renders fold scores: "+1.2%, −0.3%, …".
func foldList(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = PctS(x)
	}
	return strings.Join(parts, ", ")
}

// metricsLine renders a fold-mean score with units.
func metricsLine(s Score) string {
	return fmt.Sprintf("mean response %.4g s, p99 response %.4g s, mean slowdown %.4g, p99 slowdown %.4g, missed PS deadlines %.2f%%",
		s.Mean, s.P99, s.MeanSlowdown, s.P99Slowdown, 100*s.Missed)
}

// wins counts the folds on which a's fold score beats b's.
func wins(a, b *CandidateScore) int {
	n := 0
	for i := range a.Folds {
		if i < len(b.Folds) && a.Folds[i] > b.Folds[i] {
			n++
		}
	}
	return n
}

// explain says, in sentences, how the choice was made and why it beats the
// runner-up and the named baselines, with fold scores and its slowdown
// cost.
func explain(r *CVResult) []string {
	c := r.Candidates
	ch := &c[r.Chosen]
	cur := &c[r.CurrentIdx]
	nf := len(r.Scored)
	var out []string
	out = append(out, fmt.Sprintf("Rule: the feasible candidate with the best mean fold score — the improvement over the current scheduler (%s) in %s, averaged over %d rolling-origin folds (fold i is scored on the i-th chunk of the tuning window after the chunks before it) — up to one standard error, among those that meet %s on every fold. %d candidates were scored.",
		r.Current, ObjectiveLabel(r.Objective), nf, r.Constraints, CountScored(c)))
	if rc := r.Race; rc != nil {
		out = append(out, fmt.Sprintf("The %d points of the space-filling sequence were raced: scored on folds %v first, the best %d of them then on every chunk; the other %d count in the budget but are not candidates.",
			rc.Points, rc.Chunks, rc.Kept, rc.Points-rc.Kept))
	}
	if r.NoFeasible {
		out = append(out, "No candidate met the constraints: the current scheduler is kept.")
	}
	ci := ""
	if r.CI.Available {
		ci = fmt.Sprintf("; %.0f%% block-bootstrap interval %s to %s", 100*r.CI.Level, PctS(r.CI.Lo), PctS(r.CI.Hi))
	}
	out = append(out, fmt.Sprintf("Chosen: %s (%s). Mean fold score %s (folds: %s%s). Fold means: %s; the current scheduler: %s.",
		ch.Label(), report.ShownSpec(ch.Policy), PctS(ch.Improvement), foldList(ch.Folds), ci, metricsLine(ch.FoldMean), metricsLine(cur.FoldMean)))
	out = append(out, fmt.Sprintf("Slowdown cost: p99 slowdown %.4g against %.4g for the current scheduler, mean slowdown %.4g against %.4g, %.2f%% of jobs later than under PS against %.2f%%.",
		ch.FoldMean.P99Slowdown, cur.FoldMean.P99Slowdown, ch.FoldMean.MeanSlowdown, cur.FoldMean.MeanSlowdown, 100*ch.FoldMean.Missed, 100*cur.FoldMean.Missed))
	if r.RunnerUp >= 0 {
		ru := &c[r.RunnerUp]
		out = append(out, fmt.Sprintf("Over the runner-up, %s: %s against %s mean fold score (folds: %s); the choice is ahead on %d of %d folds.",
			ru.Label(), PctS(ch.Improvement), PctS(ru.Improvement), foldList(ru.Folds), wins(ch, ru), nf))
	}
	for _, b := range []int{r.LASIdx, r.PSIdx, r.FGIdx} {
		if b < 0 || b == r.Chosen {
			continue
		}
		x := &c[b]
		s := fmt.Sprintf("Over %s: %s mean fold score (folds: %s), p99 slowdown %.4g, missed %.2f%%", x.Label(), PctS(x.Improvement), foldList(x.Folds), x.FoldMean.P99Slowdown, 100*x.FoldMean.Missed)
		if !x.Feasible {
			s += "; infeasible: " + strings.Join(x.Violations, "; ")
		} else {
			s += fmt.Sprintf("; the choice is ahead on %d of %d folds", wins(ch, x), nf)
		}
		out = append(out, s+".")
	}
	if r.Deployed != r.Chosen {
		d := &c[r.Deployed]
		out = append(out, fmt.Sprintf("%s is not a LAS_MQ configuration; the bundle carries the best LAS_MQ, %s, with mean fold score %s (%s).",
			ch.Label(), d.Label(), PctS(d.Improvement), metricsLine(d.FoldMean)))
	}
	if ch.UsesEstimates {
		ranks := make([]string, len(r.SigmaRanks))
		for i, k := range r.SigmaRanks {
			ranks[i] = fmt.Sprintf("%d under σ = %g", k, r.Sigmas[i])
		}
		out = append(out, "The choice orders jobs by estimated size; it was scored with its worst metrics over σ, and ranks "+strings.Join(ranks, ", ")+" among the feasible candidates.")
	}
	if r.Shortlist != nil {
		out = append(out, fmt.Sprintf("Folds larger than %d jobs were scored on a sample of their busy periods; shortlist: %s. The winner's sampled mean response was %s from its whole-fold value, its mean fold score %.2f points.",
			r.SampleJobs, r.Shortlist.Rule, PctS(r.Shortlist.Gap), 100*r.Shortlist.ImprovementGap))
		if r.Shortlist.CheckJobs > 0 {
			out = append(out, fmt.Sprintf("Folds larger than %d jobs were not re-checked whole but on a sample of that many jobs of their busy periods (%v jobs), as were the bootstrap and the SRPT bound: their cost does not grow with the log.",
				r.Shortlist.CheckJobs, r.Shortlist.CheckScored))
		}
	} else {
		out = append(out, "Every fold was simulated whole (no fold exceeded the sampling budget).")
	}
	if len(r.Procedure) > 0 {
		var picks, best []float64
		for _, p := range r.Procedure {
			picks, best = append(picks, p.Improvement), append(best, p.Best)
		}
		out = append(out, fmt.Sprintf("Rolling-origin check of the rule: choosing from each fold's past only scores %s on the folds (best in hindsight %s).", foldList(picks), foldList(best)))
	}
	return out
}

// CountScored is the number of candidates of c the search scored (the
// sensitivity curves' points left out).
func CountScored(c []CandidateScore) int {
	n := 0
	for i := range c {
		if c[i].Origin != OriginSensitivity {
			n++
		}
	}
	return n
}
