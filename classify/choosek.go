package classify

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sort"

	"github.com/schedplan/schedplan/internal/par"
	"gonum.org/v1/gonum/mat"
)

// KScore is one candidate k of an automatic choice.
type KScore struct {
	K          int     `json:"k"`
	Inertia    float64 `json:"inertia"`
	Silhouette float64 `json:"silhouette"`
}

// Silhouette returns the mean silhouette coefficient of the clustering
// assign of the rows of x (Rousseeuw 1987): for each row, s = (b − a) /
// max(a, b), where a is its mean distance to the other rows of its cluster
// and b the least mean distance to the rows of another cluster; s = 0 for a
// row alone in its cluster. When x has more than sample rows (sample > 0),
// the coefficient is computed on sample rows drawn without replacement from
// a stream derived from seed, distances taken within the sample only (as
// scikit-learn's silhouette_score with sample_size). It costs O(m²·d) for m
// rows used and runs on workers goroutines (0: all cores); the result does
// not depend on workers. It is NaN with fewer than two clusters among the
// rows used or when every row is used and each is its own cluster.
func Silhouette(x *mat.Dense, assign []int32, k, sample int, seed uint64, workers int) float64 {
	n, d := x.Dims()
	idx := make([]int, 0, n)
	if sample > 0 && n > sample {
		idx = sampleRows(n, sample, seed)
	} else {
		for i := 0; i < n; i++ {
			idx = append(idx, i)
		}
	}
	m := len(idx)
	// Order the rows used by cluster (then by row), so that each cluster's
	// rows are one contiguous block: the distance sums then accumulate in
	// registers, in an order that does not depend on the workers.
	sort.SliceStable(idx, func(a, b int) bool { return assign[idx[a]] < assign[idx[b]] })
	pts := make([]float64, m*d)
	lab := make([]int, m)
	count := make([]int, k)
	for r, i := range idx {
		mat.Row(pts[r*d:r*d+d], i, x)
		lab[r] = int(assign[i])
		count[lab[r]]++
	}
	start := make([]int, k+1)
	for c := 0; c < k; c++ {
		start[c+1] = start[c] + count[c]
	}
	nonEmpty := 0
	for _, c := range count {
		if c > 0 {
			nonEmpty++
		}
	}
	if nonEmpty < 2 || nonEmpty == m {
		return math.NaN()
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	s := make([]float64, m)
	par.For(m, workers, func(r int) {
		own := lab[r]
		if count[own] < 2 {
			s[r] = 0
			return
		}
		x := pts[r*d : r*d+d]
		a := 0.0
		b := math.Inf(1)
		for c := 0; c < k; c++ {
			if count[c] == 0 {
				continue
			}
			// The row's own distance, 0, adds nothing to its
			// cluster's sum.
			mean := sumDist(x, pts[start[c]*d:start[c+1]*d]) / float64(count[c])
			if c == own {
				a = mean * float64(count[c]) / float64(count[c]-1)
			} else {
				b = min(b, mean)
			}
		}
		if den := math.Max(a, b); den > 0 {
			s[r] = (b - a) / den
		}
	})
	total := 0.0
	for _, v := range s {
		total += v
	}
	return total / float64(m)
}

// sampleRows draws m distinct rows of n (m < n) uniformly, by Floyd's
// algorithm (O(m) time and memory), from a stream derived from seed, and
// returns them in increasing order.
func sampleRows(n, m int, seed uint64) []int {
	rng := rand.New(rand.NewPCG(seed, 0x5111))
	chosen := make(map[int]struct{}, m)
	out := make([]int, 0, m)
	for j := n - m; j < n; j++ {
		t := rng.IntN(j + 1)
		if _, dup := chosen[t]; dup {
			t = j
		}
		chosen[t] = struct{}{}
		out = append(out, t)
	}
	sort.Ints(out)
	return out
}

// sumDist returns Σ_q ‖x − row q‖ over the rows of block (row-major, rows
// of len(x) values), with two accumulators.
func sumDist(x, block []float64) float64 {
	d := len(x)
	n := len(block) / d
	if d == 3 {
		return sumDist3(x, block[:3*n])
	}
	s0, s1 := 0.0, 0.0
	q := 0
	for ; q+2 <= n; q += 2 {
		s0 += math.Sqrt(sqDist(x, block[q*d:q*d+d]))
		s1 += math.Sqrt(sqDist(x, block[(q+1)*d:(q+1)*d+d]))
	}
	if q < n {
		s0 += math.Sqrt(sqDist(x, block[q*d:q*d+d]))
	}
	return s0 + s1
}

// sumDist3 is sumDist for three features, with sqDist3 inlined.
func sumDist3(x, block []float64) float64 {
	s0, s1 := 0.0, 0.0
	for len(block) >= 6 {
		s0 += math.Sqrt(sqDist3(x, block[0:3]))
		s1 += math.Sqrt(sqDist3(x, block[3:6]))
		block = block[6:]
	}
	if len(block) == 3 {
		s0 += math.Sqrt(sqDist3(x, block))
	}
	return s0 + s1
}

// Elbow returns the k at the elbow of an inertia curve: the point farthest
// from the straight line joining the first and the last point once both axes
// are scaled to [0, 1] (the "kneedle" rule). It returns the first k for
// fewer than three points.
func Elbow(scores []KScore) int {
	if len(scores) == 0 {
		return 0
	}
	if len(scores) < 3 {
		return scores[0].K
	}
	first, last := scores[0], scores[len(scores)-1]
	dk := float64(last.K - first.K)
	di := first.Inertia - last.Inertia
	if dk <= 0 || !(di > 0) {
		return first.K
	}
	best, bestGap := first.K, 0.0
	for _, s := range scores {
		xk := float64(s.K-first.K) / dk
		yi := (first.Inertia - s.Inertia) / di // 0 at the first point, 1 at the last
		if gap := yi - xk; gap > bestGap {
			best, bestGap = s.K, gap
		}
	}
	return best
}

// distinctRows counts the distinct rows of x, stopping once it reaches limit.
func distinctRows(x *mat.Dense, limit int) int {
	n, d := x.Dims()
	seen := make(map[string]struct{}, min(n, limit))
	buf := make([]float64, d)
	key := make([]byte, 8*d)
	for i := 0; i < n && len(seen) < limit; i++ {
		mat.Row(buf, i, x)
		for j, v := range buf {
			if v == 0 {
				v = 0 // −0 and +0 are the same point
			}
			b := math.Float64bits(v)
			for q := 0; q < 8; q++ {
				key[8*j+q] = byte(b >> (8 * q))
			}
		}
		seen[string(key)] = struct{}{}
	}
	return len(seen)
}
