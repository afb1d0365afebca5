package sim

import (
	"math"
	"math/bits"
	"slices"
	"sort"

	"github.com/schedplan/schedplan/internal/radix"
)

// Quantiles are computed by selection, not by sorting: a summary needs six
// order statistics, and radix.SelectFloat64s (one pass over the values,
// neither moving nor copying them) finds them in O(n) time where a sort
// takes O(n log n). The values are those of gonum's
// stat.Quantile with stat.LinInterp on the sorted sample: an order
// statistic does not depend on how it was found. Only the mean's rounding
// depends on the summation order.

// linInterp returns i and t such that gonum's stat.Quantile(p, LinInterp,
// s, nil) on an ascending sample s of n > 0 values is t·s[i−1] + (1−t)·s[i]
// (t = 0 and i = 0 when it is s[0]): i is the first index whose cumulative
// count i+1 reaches p·n.
func linInterp(p float64, n int) (int, float64) {
	fidx := p * float64(n)
	i := max(0, min(n-1, int(math.Ceil(fidx))-1))
	for i > 0 && float64(i) >= fidx {
		i--
	}
	for i < n-1 && float64(i+1) < fidx {
		i++
	}
	if i == 0 {
		return 0, 0
	}
	return i, float64(i+1) - fidx
}

// partition3 partitions x[lo:hi] (and w[lo:hi] with it, unless w is nil)
// around the median of its first, middle and last values, Dutch national
// flag style: x[lo:lt] < pivot, x[lt:gt] == pivot, x[gt:hi] > pivot. With
// w it also returns the weights of the first two parts.
func partition3(x, w []float64, lo, hi int) (lt, gt int, wLess, wEq float64) {
	a, b, c := x[lo], x[lo+(hi-lo)/2], x[hi-1]
	pivot := max(min(a, b), min(max(a, b), c))
	return partitionBand(x, w, lo, hi, pivot, pivot)
}

// partitionBand partitions x[lo:hi] (and w[lo:hi] with it, unless w is
// nil) around the band [a, b], Dutch national flag style: x[lo:lt] < a,
// a ≤ x[lt:gt] ≤ b, x[gt:hi] > b. With w it also returns the weights of
// the first two parts.
func partitionBand(x, w []float64, lo, hi int, a, b float64) (lt, gt int, wLess, wEq float64) {
	i := lo
	lt, gt = lo, hi
	for i < gt {
		switch v := x[i]; {
		case v < a:
			x[lt], x[i] = x[i], x[lt]
			if w != nil {
				w[lt], w[i] = w[i], w[lt]
				wLess += w[lt]
			}
			lt++
			i++
		case v > b:
			gt--
			x[gt], x[i] = x[i], x[gt]
			if w != nil {
				w[gt], w[i] = w[i], w[gt]
			}
		default:
			if w != nil {
				wEq += w[i]
			}
			i++
		}
	}
	return lt, gt, wLess, wEq
}

// walk returns the first position in [lo, hi−1] of sorted values whose
// cumulative weight (before, the weight left of lo, plus theirs) reaches
// target, the last one when none does, with the weight left of it.
func walk(w []float64, lo, hi int, before, target float64) (int, float64) {
	for lo < hi-1 && before+w[lo] < target {
		before += w[lo]
		lo++
	}
	return lo, before
}

// quantilesOf summarises x, which it neither reorders nor copies. The
// zero value is returned for an empty sample; a sample with a NaN has NaN
// quantiles and mean.
func quantilesOf(x []float64) Quantiles {
	n := len(x)
	if n == 0 {
		return Quantiles{}
	}
	sum, lo, hi := 0.0, math.Inf(1), math.Inf(-1)
	for _, v := range x {
		if math.IsNaN(v) {
			nan := math.NaN()
			return Quantiles{Mean: nan, Min: nan, P50: nan, P90: nan, P99: nan, Max: nan}
		}
		sum += v
		lo, hi = min(lo, v), max(hi, v)
	}
	q := LinInterpAmong(x, 0, n, []float64{0.5, 0.9, 0.99})
	return Quantiles{Mean: sum / float64(n), Min: lo, P50: q[0], P90: q[1], P99: q[2], Max: hi}
}

// LinInterpAmong returns, for each p of ps, gonum's stat.Quantile(p,
// stat.LinInterp, s, nil) of s, the n values of x that follow its low
// first in radix.Float64s' order (s = x sorted so, [low:low+n]; n > 0),
// without sorting, moving or copying x: the order statistics it
// interpolates between are found by radix.SelectFloat64s. In that order −0
// comes before +0 (a sort by value leaves a mix of zeros in any order; a
// sample of zeros of one sign gives that sign).
func LinInterpAmong(x []float64, low, n int, ps []float64) []float64 {
	at := make([]int, len(ps)) // the index of each quantile's upper order statistic in ranks
	t := make([]float64, len(ps))
	ranks := make([]int, 0, 2*len(ps))
	for k, p := range ps {
		var i int
		i, t[k] = linInterp(p, n)
		if t[k] != 0 {
			ranks = append(ranks, low+i-1)
		}
		at[k] = len(ranks)
		ranks = append(ranks, low+i)
	}
	v := radix.SelectFloat64s(x, ranks)
	q := make([]float64, len(ps))
	for k := range ps {
		q[k] = v[at[k]]
		if t[k] != 0 {
			q[k] = t[k]*v[at[k]-1] + (1-t[k])*v[at[k]]
		}
	}
	return q
}

// WeightedMeanQuantile returns the weighted mean of x and its p-quantile
// with weights w, as gonum's stat.Mean and stat.Quantile(p, LinInterp, …)
// on the sample sorted by value (ties in any order), in O(n) expected time.
// It reorders x and w together. Weights must be positive and x free of NaN.
// With all weights 1 it equals the unweighted quantile.
func WeightedMeanQuantile(p float64, x, w []float64) (mean, quantile float64) {
	n := len(x)
	if n == 0 {
		return 0, 0
	}
	var sum, total float64
	for i, v := range x {
		sum += v * w[i]
		total += w[i]
	}
	target := p * total
	// Find the first position (in sorted order) whose cumulative weight
	// reaches target, narrowing [lo, hi) with weighted three-way partitions;
	// before is the weight of everything left of lo.
	lo, hi, before := 0, n, 0.0
	for budget := 2 * bits.Len(uint(n)); hi-lo > 1; budget-- {
		if budget == 0 {
			// Unlucky pivots: sort what is left and walk it.
			SortWeighted(x[lo:hi], w[lo:hi])
			lo, before = walk(w, lo, hi, before, target)
			break
		}
		lt, gt, wLess, wEq := partition3(x, w, lo, hi)
		switch {
		case before+wLess >= target && lt > lo:
			hi = lt
		case before+wLess+wEq >= target || gt == hi:
			// The answer is among the values equal to the pivot: walk them.
			lo, before = walk(w, lt, gt, before+wLess, target)
			hi = lo + 1
		default:
			before += wLess + wEq
			lo = gt
		}
	}
	i := lo
	if i == 0 {
		return sum / total, x[0]
	}
	// Rounding in the cumulative weights can put t just outside [0, 1]:
	// clamp it, so the quantile never extrapolates past x[i] (nor forms
	// 0·±Inf when t is 0).
	t := min(1, (before+w[i]-target)/w[i])
	if !(t > 0) {
		return sum / total, x[i]
	}
	return sum / total, t*slices.Max(x[:i]) + (1-t)*x[i]
}

// SortWeighted sorts x ascending, moving each weight of w with its value;
// equal values keep their order.
func SortWeighted(x, w []float64) { sort.Stable(pairs{x, w}) }

// pairs sorts values with their weights.
type pairs struct{ x, w []float64 }

func (s pairs) Len() int           { return len(s.x) }
func (s pairs) Less(i, j int) bool { return s.x[i] < s.x[j] }
func (s pairs) Swap(i, j int) {
	s.x[i], s.x[j] = s.x[j], s.x[i]
	s.w[i], s.w[j] = s.w[j], s.w[i]
}
