package classify

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
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

// TestSumDistMatchesSqDist checks sumDist (its three-feature kernel
// included) against the sum it stands for, formed with sqDist in sumDist's
// order (two running sums, even and odd rows), to the bit.
func TestSumDistMatchesSqDist(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for trial := 0; trial < 2000; trial++ {
		d, n := 1+trial%6, rng.IntN(40)
		x := make([]float64, d)
		block := make([]float64, n*d)
		for i := range x {
			x[i] = rng.NormFloat64() * math.Exp(4*rng.NormFloat64())
		}
		for i := range block {
			block[i] = rng.NormFloat64() * math.Exp(4*rng.NormFloat64())
		}
		var s [2]float64
		for q := 0; q < n; q++ {
			s[q%2] += math.Sqrt(sqDist(x, block[q*d:q*d+d]))
		}
		if got, want := sumDist(x, block), s[0]+s[1]; math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("d=%d, %d rows: sumDist %v, the sum of sqDist's roots %v", d, n, got, want)
		}
	}
}

// TestSqDist3MatchesSqDist checks sqDist3 against sqDist to the bit.
func TestSqDist3MatchesSqDist(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for trial := 0; trial < 3000; trial++ {
		d := 3
		a, b := make([]float64, d), make([]float64, d)
		for i := range a {
			a[i] = rng.NormFloat64() * math.Exp(6*rng.NormFloat64())
			b[i] = rng.NormFloat64() * math.Exp(6*rng.NormFloat64())
		}
		if got, want := sqDist3(a, b), sqDist(a, b); math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("sqDist3 %v, sqDist %v", got, want)
		}
	}
}

// TestKMeansThreeFeaturesMatchGeneral runs k-means on random three-feature
// rows, where the seeding, the partial sums, the assignment and the final
// inertia take their three-feature kernels, and on the same rows with a
// fourth, zero column, which takes the general loops (whose distances and
// sums are then the same numbers): every assignment, centre and inertia
// must agree to the bit. (Tol 0: the tolerance is relative to the mean
// variance over the columns, which the zero column would change.)
func TestKMeansThreeFeaturesMatchGeneral(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 18))
	for trial := 0; trial < 40; trial++ {
		n, k := 50+rng.IntN(3*chunkRows), 1+rng.IntN(9)
		x3, x4 := mat.NewDense(n, 3, nil), mat.NewDense(n, 4, nil)
		for i := 0; i < n; i++ {
			c := float64(rng.IntN(k + 1))
			for j := 0; j < 3; j++ {
				v := c*3 + rng.NormFloat64()*math.Exp(rng.NormFloat64())
				x3.Set(i, j, v)
				x4.Set(i, j, v)
			}
		}
		opt := KMeansOptions{Restarts: 1 + trial%3, Seed: uint64(trial), Tol: -1, Init: []Init{KMeansPlusPlus, GreedyKMeansPlusPlus}[trial%2]}
		a, err := KMeans(x3, k, opt)
		if err != nil {
			t.Fatal(err)
		}
		b, err := KMeans(x4, k, opt)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a.Assign, b.Assign) || a.Iterations != b.Iterations ||
			math.Float64bits(a.Inertia) != math.Float64bits(b.Inertia) || math.Float64bits(a.StartInertia) != math.Float64bits(b.StartInertia) {
			t.Fatalf("trial %d (n %d, k %d): three features: %d iterations, inertia %v (start %v); general: %d, %v (%v)",
				trial, n, k, a.Iterations, a.Inertia, a.StartInertia, b.Iterations, b.Inertia, b.StartInertia)
		}
		for c := 0; c < k; c++ {
			for j := 0; j < 3; j++ {
				if math.Float64bits(a.Centroids.At(c, j)) != math.Float64bits(b.Centroids.At(c, j)) {
					t.Fatalf("trial %d: centre %d, feature %d: %v, general %v", trial, c, j, a.Centroids.At(c, j), b.Centroids.At(c, j))
				}
			}
		}
	}
}
