package tuner

import (
	"math"

	"github.com/schedplan/schedplan/cluster/sim"
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
// x without sorting them or copying them: sim.LinInterpAmong selects the
// order statistics the quantiles interpolate between in one pass over x,
// holding a few percent of it (a sorted copy was 60 MB for the 7 M sizes
// of a 10 M-job log's tuning window, live at the start of tune beside
// the stages computed with it). In its order the
// positive finite values come after every negative value, −0 and +0, and
// before +Inf and the NaNs: the k-th of them is the (low+k)-th value.
func sizeStatsOf(x []float64) sizeStats {
	n, low := 0, 0
	for _, v := range x {
		if b := math.Float64bits(v); positiveFinite(v) {
			n++
		} else if b>>63 != 0 || b == 0 {
			low++
		}
	}
	if n == 0 {
		return sizeStats{}
	}
	q := sim.LinInterpAmong(x, low, n, []float64{0.01, 0.5, 0.99, 0.999, 1})
	return sizeStats{n: n, q01: q[0], q50: q[1], q99: q[2], q999: q[3], max: q[4]}
}

// positiveFinite reports whether v is a size the statistics count.
func positiveFinite(v float64) bool { return v > 0 && !math.IsInf(v, 0) }
