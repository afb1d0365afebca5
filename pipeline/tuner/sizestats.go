package tuner

import (
	"math"
	"slices"
)

// sizeStats are what the search space (sizeRangeOf) and the first guess
// (firstGuessOf) are placed by: the number of positive finite sizes,
// their stat.LinInterp quantiles at 0.01, 0.5, 0.99 and 0.999, and their
// maximum — the bits stat.Quantile gives on the sorted positive sizes.
type sizeStats struct {
	n                   int
	q01, q50, q99, q999 float64
	max                 float64
}

// sizeStatsOf computes the statistics of the positive finite values of
// x without sorting them or copying them: the order statistics the
// quantiles interpolate between are found by a radix select (orderStats),
// a few passes over x with no more than a few histograms held (a sorted
// copy was 60 MB for the 7 M sizes of a 10 M-job log's tuning window,
// live at the start of tune beside the stages computed with it).
func sizeStatsOf(x []float64) sizeStats {
	var top [1 << radixBits]int // the positive finite values by their top bits
	n := 0
	for _, v := range x {
		if positiveFinite(v) {
			top[math.Float64bits(v)>>(64-radixBits)]++
			n++
		}
	}
	if n == 0 {
		return sizeStats{}
	}
	ps := []float64{0.01, 0.5, 0.99, 0.999}
	at := make([]int, len(ps)) // the index linInterp ends at, per quantile
	ranks := []int{n - 1}
	for k, p := range ps {
		at[k] = linInterpIndex(p, n)
		ranks = append(ranks, max(at[k]-1, 0), at[k])
	}
	v := orderStats(x, &top, ranks)
	q := make([]float64, len(ps))
	for k, p := range ps {
		i := at[k]
		if i == 0 {
			q[k] = v[2+2*k]
			continue
		}
		// gonum's linInterpQuantile: cumsum (i+1) − fidx, to the bit.
		t := float64(i+1) - p*float64(n)
		q[k] = t*v[1+2*k] + (1-t)*v[2+2*k]
	}
	return sizeStats{n: n, q01: q[0], q50: q[1], q99: q[2], q999: q[3], max: v[0]}
}

// positiveFinite reports whether v is a size the statistics count.
func positiveFinite(v float64) bool { return v > 0 && !math.IsInf(v, 0) }

// linInterpIndex is the index of the sorted values at which
// stat.Quantile(p, stat.LinInterp, x, nil) of n values stops: the first
// i with i+1 ≥ p·n.
func linInterpIndex(p float64, n int) int {
	return max(int(math.Ceil(p*float64(n)))-1, 0)
}

// radixBits are the bits of a value orderStats reads at each pass.
const radixBits = 16

// orderStats returns the values of the given ranks (0-based, in ascending
// order) among the positive finite values of x, top being their histogram
// by the top radixBits bits of their float64 bits, which order as the
// values do: each further pass counts the next radixBits bits of the
// values that share a rank's bits found so far, until every bit of it is
// known.
func orderStats(x []float64, top *[1 << radixBits]int, ranks []int) []float64 {
	prefix := make([]uint64, len(ranks)) // each rank's bits found so far
	rank := slices.Clone(ranks)          // its rank among the values with those bits
	pick := func(k int, hist []int) {
		for d, c := range hist {
			if rank[k] < c {
				prefix[k] = prefix[k]<<radixBits | uint64(d)
				return
			}
			rank[k] -= c
		}
	}
	for k := range ranks {
		pick(k, top[:])
	}
	for shift := 64 - 2*radixBits; shift >= 0; shift -= radixBits {
		var groups []uint64 // the distinct prefixes, one histogram each
		for _, p := range prefix {
			if !slices.Contains(groups, p) {
				groups = append(groups, p)
			}
		}
		hists := make([][]int, len(groups))
		for g := range hists {
			hists[g] = make([]int, 1<<radixBits)
		}
		for _, v := range x {
			if !positiveFinite(v) {
				continue
			}
			b := math.Float64bits(v)
			if g := slices.Index(groups, b>>(shift+radixBits)); g >= 0 {
				hists[g][b>>shift&(1<<radixBits-1)]++
			}
		}
		for k := range ranks {
			pick(k, hists[slices.Index(groups, prefix[k])])
		}
	}
	out := make([]float64, len(ranks))
	for k, p := range prefix {
		out[k] = math.Float64frombits(p)
	}
	return out
}
