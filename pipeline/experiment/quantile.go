package experiment

import (
	"math"
)

// QuantileSorted is the q-quantile of an ascending sample, interpolated
// linearly (sim.QuantilesOf's rule).
func QuantileSorted(s []float64, q float64) float64 {
	if len(s) == 0 {
		return math.NaN()
	}
	h := q * float64(len(s)-1)
	lo := int(math.Floor(h))
	if lo+1 >= len(s) {
		return s[len(s)-1]
	}
	return s[lo] + (h-float64(lo))*(s[lo+1]-s[lo])
}
