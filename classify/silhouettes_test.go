package classify

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestSilhouettesMatchSilhouette forms several clusterings' silhouettes
// together and checks each against Silhouette, to the bit: sampled and
// whole, three features and others, singleton and empty clusters, one
// cluster (NaN).
func TestSilhouettesMatchSilhouette(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	for trial := 0; trial < 30; trial++ {
		n, d := 2+rng.IntN(900), []int{3, 3, 1, 2, 4, 8}[trial%6]
		x := mat.NewDense(n, d, nil)
		for i := range x.RawMatrix().Data {
			x.RawMatrix().Data[i] = rng.NormFloat64() * math.Exp(2*rng.NormFloat64())
		}
		var assigns [][]int32
		var ks []int
		for q := 0; q < 4; q++ {
			k := 1 + rng.IntN(9)
			a := make([]int32, n)
			for i := range a {
				a[i] = int32(rng.IntN(k))
				if q == 3 {
					a[i] = int32(min(rng.IntN(k), 1)) // few clusters, maybe one
				}
			}
			assigns, ks = append(assigns, a), append(ks, k)
		}
		sample := []int{0, 200, 5000}[trial%3]
		got := silhouettes(x, assigns, ks, sample, uint64(trial), 1+trial%2)
		for q := range assigns {
			want := Silhouette(x, assigns[q], ks[q], sample, uint64(trial), 1)
			if math.Float64bits(got[q]) != math.Float64bits(want) && !(math.IsNaN(got[q]) && math.IsNaN(want)) {
				t.Fatalf("trial %d (n=%d d=%d sample %d), clustering %d (k=%d): silhouettes %v, Silhouette %v", trial, n, d, sample, q, ks[q], got[q], want)
			}
		}
	}
}
