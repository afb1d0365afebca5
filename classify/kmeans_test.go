package classify

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestKMeansHandComputed(t *testing.T) {
	// Two obvious pairs on a line: centres 0.5 and 10.5, inertia 4 × 0.25.
	x := mat.NewDense(4, 1, []float64{0, 10, 1, 11})
	r, err := KMeans(x, 2, KMeansOptions{Restarts: 3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Inertia != 1 {
		t.Errorf("inertia = %v, want 1", r.Inertia)
	}
	c := []float64{r.Centroids.At(0, 0), r.Centroids.At(1, 0)}
	slices.Sort(c)
	if c[0] != 0.5 || c[1] != 10.5 {
		t.Errorf("centroids = %v, want [0.5 10.5]", c)
	}
	if r.Assign[0] != r.Assign[2] || r.Assign[1] != r.Assign[3] || r.Assign[0] == r.Assign[1] {
		t.Errorf("assign = %v", r.Assign)
	}
	if !r.Converged {
		t.Error("not converged")
	}
}

func TestKMeansBlobsRecovered(t *testing.T) {
	for _, tc := range []struct {
		n, d, k int
		std     float64
	}{
		{3000, 2, 3, 1},
		{5000, 8, 10, 1},
		{20000, 4, 6, 1.5},
	} {
		x, truth := blobs(tc.n, tc.d, tc.k, tc.std, 42)
		r, err := KMeans(x, tc.k, KMeansOptions{Restarts: 10, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		ari, err := AdjustedRand(truth, r.Assign)
		if err != nil {
			t.Fatal(err)
		}
		if ari < 0.95 {
			t.Errorf("n=%d d=%d k=%d: adjusted Rand index %.4f < 0.95", tc.n, tc.d, tc.k, ari)
		}
		// Hamerly's bounds change the work, never the answer.
		p, err := KMeans(x, tc.k, KMeansOptions{Restarts: 10, Seed: 3, Plain: true})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(p.Assign, r.Assign) || math.Abs(p.Inertia-r.Inertia) > 1e-9*r.Inertia {
			t.Errorf("n=%d: plain Lloyd (inertia %v) and Hamerly (inertia %v) disagree", tc.n, p.Inertia, r.Inertia)
		}
	}
}

func TestKMeansPlusPlusBeatsUniform(t *testing.T) {
	x, _ := blobs(4000, 4, 12, 0.7, 9)
	var pp, uni float64
	const seeds = 50
	for s := uint64(0); s < seeds; s++ {
		a, err := KMeans(x, 12, KMeansOptions{Seed: s, Init: KMeansPlusPlus})
		if err != nil {
			t.Fatal(err)
		}
		b, err := KMeans(x, 12, KMeansOptions{Seed: s, Init: Uniform})
		if err != nil {
			t.Fatal(err)
		}
		pp += a.Inertia / seeds
		uni += b.Inertia / seeds
	}
	t.Logf("mean inertia over %d seeds: k-means++ %.1f, uniform %.1f", seeds, pp, uni)
	if !(pp < uni) {
		t.Errorf("k-means++ mean inertia %.1f is not below uniform seeding's %.1f", pp, uni)
	}
	// The greedy variant does at least as well on average.
	greedy := 0.0
	for s := uint64(0); s < seeds; s++ {
		g, err := KMeans(x, 12, KMeansOptions{Seed: s, Init: GreedyKMeansPlusPlus})
		if err != nil {
			t.Fatal(err)
		}
		greedy += g.Inertia / seeds
	}
	t.Logf("greedy k-means++ %.1f", greedy)
	if !(greedy <= pp) {
		t.Errorf("greedy k-means++ mean inertia %.1f is above k-means++'s %.1f", greedy, pp)
	}
}

func TestKMeansDeterministicAcrossWorkers(t *testing.T) {
	// Several chunks of rows, several restarts.
	x, _ := blobs(3*chunkRows+123, 5, 7, 2, 5)
	type key struct {
		init     Init
		restarts int
	}
	refs := map[key]*KMeansResult{}
	for _, w := range []int{1, 2, 3, 8} {
		for _, init := range []Init{KMeansPlusPlus, Uniform, GreedyKMeansPlusPlus} {
			for _, restarts := range []int{1, 6} {
				r, err := KMeans(x, 7, KMeansOptions{Restarts: restarts, Seed: 11, Workers: w, Init: init})
				if err != nil {
					t.Fatal(err)
				}
				ref := refs[key{init, restarts}]
				if ref == nil {
					refs[key{init, restarts}] = r
					continue
				}
				if r.Inertia != ref.Inertia || r.Restart != ref.Restart || r.Iterations != ref.Iterations ||
					!slices.Equal(r.Assign, ref.Assign) || !mat.Equal(r.Centroids, ref.Centroids) ||
					!slices.Equal(r.Inertias, ref.Inertias) {
					t.Fatalf("%v, workers=%d, restarts=%d: result differs from workers=1 (inertia %v vs %v)", init, w, restarts, r.Inertia, ref.Inertia)
				}
			}
		}
	}
	// Different seeds give different streams.
	a, _ := KMeans(x, 7, KMeansOptions{Restarts: 4, Seed: 1})
	b, _ := KMeans(x, 7, KMeansOptions{Restarts: 4, Seed: 2})
	if slices.Equal(a.Inertias, b.Inertias) {
		t.Error("seeds 1 and 2 gave the same restarts")
	}
}

func TestKMeansEdgeCases(t *testing.T) {
	t.Run("identical rows", func(t *testing.T) {
		x := mat.NewDense(50, 3, nil)
		for i := 0; i < 50; i++ {
			x.SetRow(i, []float64{1, 2, 3})
		}
		r, err := KMeans(x, 1, KMeansOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Inertia != 0 || r.Centroids.At(0, 2) != 3 {
			t.Errorf("inertia %v, centroid %v", r.Inertia, mat.Formatted(r.Centroids))
		}
		// More clusters than distinct rows: no panic, no NaN; extra
		// clusters stay empty.
		r, err = KMeans(x, 4, KMeansOptions{Restarts: 2})
		if err != nil {
			t.Fatal(err)
		}
		if r.Inertia != 0 || slices.ContainsFunc(r.Centroids.RawMatrix().Data, math.IsNaN) {
			t.Errorf("k > distinct: inertia %v, centroids %v", r.Inertia, mat.Formatted(r.Centroids))
		}
	})
	t.Run("errors", func(t *testing.T) {
		x := mat.NewDense(3, 2, []float64{0, 0, 1, 1, 2, 2})
		for _, tc := range []struct {
			k    int
			x    *mat.Dense
			want string
		}{
			{0, x, "k = 0"},
			{4, x, "3 rows cannot form 4 clusters"},
			{2, mat.NewDense(3, 2, []float64{0, 0, 1, math.NaN(), 2, 2}), "row 2, column 2: NaN"},
			{2, mat.NewDense(3, 2, []float64{0, 0, 1, 1, math.Inf(1), 2}), "row 3, column 1: +Inf"},
		} {
			_, err := KMeans(tc.x, tc.k, KMeansOptions{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("k=%d: error %v, want %q", tc.k, err, tc.want)
			}
		}
	})
	t.Run("empty cluster relocated", func(t *testing.T) {
		// Uniform seeding that picks two of the duplicate rows leaves a
		// cluster with no row (ties go to the first centre): it must move to
		// the farthest row.
		x := mat.NewDense(5, 1, []float64{0, 0, 0, 100, 100.001})
		for s := uint64(0); s < 20; s++ {
			r, err := KMeans(x, 3, KMeansOptions{Seed: s, Init: Uniform})
			if err != nil {
				t.Fatal(err)
			}
			counts := make([]int, 3)
			for _, a := range r.Assign {
				counts[a]++
			}
			if slices.Contains(counts, 0) {
				t.Errorf("seed %d: empty cluster, counts %v", s, counts)
			}
		}
	})
}

func TestAdjustedRand(t *testing.T) {
	a := []int32{0, 0, 1, 1, 2, 2}
	for _, tc := range []struct {
		b    []int32
		want float64
	}{
		{[]int32{5, 5, 3, 3, 4, 4}, 1},
		// Hand computed: index 2 (pairs within both), Σa = 3, Σb = 6, 15 pairs.
		{[]int32{0, 0, 0, 1, 1, 1}, (1 + 1 - 3*6.0/15) / ((3+6)/2.0 - 3*6.0/15)},
	} {
		got, err := AdjustedRand(a, tc.b)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("ARI(%v, %v) = %v, want %v", a, tc.b, got, tc.want)
		}
	}
	if _, err := AdjustedRand(a, a[:3]); err == nil {
		t.Error("length mismatch accepted")
	}
}

func TestSilhouetteHandComputed(t *testing.T) {
	x := mat.NewDense(4, 1, []float64{0, 1, 10, 11})
	assign := []int32{0, 0, 1, 1}
	// Row 0: a = 1, b = (10 + 11)/2 = 10.5; row 1: a = 1, b = 9.5; rows 2,
	// 3 mirror rows 1, 0.
	s0 := (10.5 - 1) / 10.5
	s1 := (9.5 - 1) / 9.5
	want := (2*s0 + 2*s1) / 4
	for _, w := range []int{1, 3} {
		if got := Silhouette(x, assign, 2, 0, 0, w); math.Abs(got-want) > 1e-12 {
			t.Errorf("workers %d: silhouette %v, want %v", w, got, want)
		}
	}
	if got := Silhouette(x, []int32{0, 0, 0, 0}, 1, 0, 0, 1); !math.IsNaN(got) {
		t.Errorf("one cluster: silhouette %v, want NaN", got)
	}
	// Sampling is deterministic and close to the full value on blobs.
	xb, truth := blobs(6000, 3, 4, 1, 2)
	full := Silhouette(xb, truth, 4, 0, 0, 0)
	s1a := Silhouette(xb, truth, 4, 1000, 7, 1)
	s1b := Silhouette(xb, truth, 4, 1000, 7, 2)
	if s1a != s1b || math.Abs(s1a-full) > 0.05 {
		t.Errorf("sampled silhouette %v / %v, full %v", s1a, s1b, full)
	}
}

func TestElbow(t *testing.T) {
	curve := []KScore{{K: 2, Inertia: 100}, {K: 3, Inertia: 40}, {K: 4, Inertia: 12}, {K: 5, Inertia: 10}, {K: 6, Inertia: 9}, {K: 7, Inertia: 8}}
	if e := Elbow(curve); e != 4 {
		t.Errorf("elbow = %d, want 4", e)
	}
	if e := Elbow(curve[:2]); e != 2 {
		t.Errorf("two points: elbow = %d, want 2", e)
	}
}

// TestHamerlyMatchesLloyd compares the bounded and the plain algorithm on
// unstructured data (many reassignments per iteration) of many shapes.
func TestHamerlyMatchesLloyd(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := 0; trial < 40; trial++ {
		n := 50 + rng.IntN(3000)
		d := 1 + rng.IntN(9)
		k := 1 + rng.IntN(15)
		x := mat.NewDense(n, d, nil)
		for i := range x.RawMatrix().Data {
			x.RawMatrix().Data[i] = rng.NormFloat64() * math.Exp(2*rng.Float64())
		}
		opt := KMeansOptions{Seed: uint64(trial), Tol: -1, MaxIter: 100}
		h, err := KMeans(x, k, opt)
		if err != nil {
			t.Fatal(err)
		}
		opt.Plain = true
		p, err := KMeans(x, k, opt)
		if err != nil {
			t.Fatal(err)
		}
		if h.Iterations != p.Iterations || !slices.Equal(h.Assign, p.Assign) || math.Abs(h.Inertia-p.Inertia) > 1e-9*p.Inertia {
			t.Errorf("n=%d d=%d k=%d: Hamerly %d iterations, inertia %v; Lloyd %d iterations, inertia %v",
				n, d, k, h.Iterations, h.Inertia, p.Iterations, p.Inertia)
		}
	}
}

func TestSampleRows(t *testing.T) {
	for _, tc := range []struct{ n, m int }{{10, 9}, {1000, 5}, {100000, 5000}} {
		a := sampleRows(tc.n, tc.m, 3)
		if len(a) != tc.m || !slices.Equal(a, sampleRows(tc.n, tc.m, 3)) {
			t.Fatalf("n=%d m=%d: %d rows, or not deterministic", tc.n, tc.m, len(a))
		}
		for q, i := range a {
			if i < 0 || i >= tc.n || (q > 0 && i <= a[q-1]) {
				t.Fatalf("n=%d m=%d: rows not distinct, sorted and in range: %v", tc.n, tc.m, a[max(0, q-1):q+1])
			}
		}
	}
	// Every row is equally likely: 9 of 10 rows, 10,000 draws.
	hits := make([]int, 10)
	for s := uint64(0); s < 10000; s++ {
		for _, i := range sampleRows(10, 9, s) {
			hits[i]++
		}
	}
	for i, h := range hits {
		if math.Abs(float64(h)-9000) > 150 {
			t.Errorf("row %d drawn %d times of 10,000, want about 9,000", i, h)
		}
	}
}
