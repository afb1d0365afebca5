package sim

import (
	"math"
	"math/bits"
	"slices"
	"sort"
)

// Quantiles are computed by selection, not by sorting: a summary needs six
// order statistics, and selection finds them in O(n) expected time where a
// sort takes O(n log n) (at a million jobs the sorts were 40% of the tuner's
// CPU time). The values are those of gonum's stat.Quantile with
// stat.LinInterp on the sorted sample: an order statistic does not depend on
// how it was found. Only the mean's rounding depends on the summation order.

// linInterp returns i and t such that gonum's stat.Quantile(p, LinInterp, s,
// nil) on an ascending sample s of n > 0 values is t·s[i−1] + (1−t)·s[i]
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

// selectK reorders x so that x[k] is the value a sort would put there, with
// x[:k] ≤ x[k] ≤ x[k+1:]. It is quickselect with a three-way partition
// (many equal values cost nothing), switching to a sort of the remaining
// range after 2·log₂ n unlucky rounds, so it is O(n) expected and
// O(n log n) at worst. A range of more than bandMin values is split around
// two pivots from a sample, whose ranks bracket k's (bandOf): one pass
// leaves k in the small band between them, where a median-of-three pivot
// would leave it in half the range (about 1.1 n comparisons for a median
// instead of 2.75 n). x must hold no NaN.
func selectK(x []float64, k int) {
	lo, hi := 0, len(x) // the k-th value lies in x[lo:hi]
	for budget := 2 * bits.Len(uint(len(x))); hi-lo > 16; budget-- {
		if budget == 0 {
			slices.Sort(x[lo:hi])
			return
		}
		var lt, gt int
		a, b := 0.0, 0.0
		if hi-lo > bandMin {
			a, b = bandOf(x, lo, hi, k)
			lt, gt, _, _ = partitionBand(x, nil, lo, hi, a, b)
		} else {
			lt, gt, _, _ = partition3(x, nil, lo, hi)
			a, b = x[lt], x[lt]
		}
		switch {
		case k < lt:
			hi = lt
		case k >= gt:
			lo = gt
		case a == b: // x[lt:gt] all equal the pivot
			return
		default:
			lo, hi = lt, gt
		}
	}
	slices.Sort(x[lo:hi])
}

// bandMin is the smallest range selectK splits around a sampled band.
const bandMin = 1 << 14

// bandOf returns two values of x[lo:hi] whose ranks bracket k (0-based in
// x[lo:hi], lo ≤ k < hi) with high probability: order statistics of an
// evenly spaced sample of about ½ n^⅔ values (Floyd and Rivest's size), at
// k's rank in the sample ± 3 standard deviations of a sample quantile.
// Sampling does not move x.
func bandOf(x []float64, lo, hi, k int) (float64, float64) {
	var buf [4096]float64
	n := hi - lo
	m := min(len(buf), int(0.5*math.Pow(float64(n), 2.0/3)))
	s := buf[:m]
	for i := range s {
		s[i] = x[lo+int(int64(i)*int64(n)/int64(m))]
	}
	p := float64(k-lo) / float64(n)
	c := float64(k-lo) * float64(m) / float64(n)
	d := 3*math.Sqrt(float64(m)*p*(1-p)) + 1
	i, j := max(0, int(c-d)), min(m-1, int(c+d))
	selectK(s, i)
	selectK(s[i+1:], j-i-1)
	return s[i], s[j]
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

// quantilesInPlace summarises x, reordering it. The zero value is returned
// for an empty sample; a sample with a NaN has NaN quantiles and mean.
func quantilesInPlace(x []float64) Quantiles {
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
	q := Quantiles{Mean: sum / float64(n), Min: lo, Max: hi}
	// Lowest quantile first, each next one selected among the values above
	// the last (prev): x[:prev] ≤ x[prev] ≤ x[prev+1:], so the median's
	// selection over n values is followed by the 90th percentile's over the
	// n/2 above it and the 99th's over the n/10 above that (about 5 n
	// comparisons in all, against 7.7 n for the highest first).
	prev := -1
	for _, pq := range []struct {
		p   float64
		out *float64
	}{{0.5, &q.P50}, {0.9, &q.P90}, {0.99, &q.P99}} {
		i, t := linInterp(pq.p, n)
		if i > prev {
			selectK(x[prev+1:], i-prev-1)
		}
		v := x[i]
		if t != 0 {
			// x[:i] holds the i smallest; the (i−1)-th is their largest,
			// which lies in x[prev:i] when prev < i (x[:prev] ≤ x[prev]).
			from := 0
			if prev >= 0 && prev < i {
				from = prev
			}
			v = t*slices.Max(x[from:i]) + (1-t)*v
		}
		*pq.out = v
		prev = i
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
