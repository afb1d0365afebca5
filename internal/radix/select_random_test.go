package radix

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSelectFloat64sRandomizedAgainstSort compares SelectFloat64s with a
// sorted copy bit for bit over random shapes, lengths around the sample
// (4·sampleSize), and many ranks at once (several bands, several passes).
func TestSelectFloat64sRandomizedAgainstSort(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	negNaN := math.Float64frombits(1<<63 | math.Float64bits(math.NaN()))
	specials := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), negNaN, 1, -1}
	shapes := []func(i, n int) float64{
		func(i, n int) float64 { return float64(i) },
		func(i, n int) float64 { return float64(n - i) },
		func(i, n int) float64 { return 7 },
		func(i, n int) float64 { return float64(r.IntN(2)) },
		func(i, n int) float64 { return specials[r.IntN(len(specials))] },
		func(i, n int) float64 {
			if i < n/2 {
				return 1
			}
			return math.Exp(r.NormFloat64())
		},
		func(i, n int) float64 { return math.Float64frombits(r.Uint64()) },
	}
	lengths := []int{1, 2, 3, 5, 8, 13, 20, 33, 4*sampleSize - 1, 4 * sampleSize, 4*sampleSize + 1, 40_000, 70_001}
	for _, n := range lengths {
		for si, shape := range shapes {
			x := make([]float64, n)
			for i := range x {
				x[i] = shape(i, n)
			}
			sorted := slices.Clone(x)
			Float64s(sorted)
			var ranks []int
			if n <= 20 {
				for k := range n {
					ranks = append(ranks, k, n-1-k)
				}
			} else {
				ranks = []int{0, n - 1, n - 1, 0, n / 2, n/2 + 1}
				for range 40 {
					ranks = append(ranks, r.IntN(n))
				}
			}
			got := SelectFloat64s(x, ranks)
			again := SelectFloat64s(x, ranks)
			for j, k := range ranks {
				if math.Float64bits(got[j]) != math.Float64bits(sorted[k]) || math.Float64bits(again[j]) != math.Float64bits(got[j]) {
					t.Fatalf("n %d shape %d: rank %d is %#x, want %#x", n, si, k, math.Float64bits(got[j]), math.Float64bits(sorted[k]))
				}
			}
		}
	}
}
