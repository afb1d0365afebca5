package classify

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestDistancesMatchSqDist checks the unrolled kernels of distances (three
// and eight features) and the general loop against sqDist, to the bit, on
// random rows of 1 to 12 features with values of very different scales.
func TestDistancesMatchSqDist(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for trial := 0; trial < 3000; trial++ {
		d, k := 1+trial%12, 1+rng.IntN(14)
		x := make([]float64, d)
		centers := make([]float64, k*d)
		for i := range x {
			x[i] = rng.NormFloat64() * math.Exp(6*rng.NormFloat64())
		}
		for i := range centers {
			centers[i] = rng.NormFloat64() * math.Exp(6*rng.NormFloat64())
		}
		out := make([]float64, k)
		distances(x, centers, out)
		for c := range out {
			if want := sqDist(x, centers[c*d:c*d+d]); math.Float64bits(out[c]) != math.Float64bits(want) {
				t.Fatalf("d=%d, centre %d: distances gives %v, sqDist %v", d, c, out[c], want)
			}
		}
	}
}
