package classify

import (
	"math"
	"runtime"
	"slices"

	"github.com/schedplan/schedplan/internal/par"
	"gonum.org/v1/gonum/mat"
)

// silhouetteRows is how many rows one work item of silhouettes takes (its
// buffers are reused across them).
const silhouetteRows = 64

// silhouettes returns Silhouette(x, assigns[i], ks[i], sample, seed,
// workers) for every i, to the bit, forming each distance between two
// sampled rows once for all the clusterings instead of once per
// clustering: the rows drawn do not depend on the clustering, and each
// cluster's distance sum is added in Silhouette's order (its rows by row
// number, two running sums taking them in turn).
func silhouettes(x *mat.Dense, assigns [][]int32, ks []int, sample int, seed uint64, workers int) []float64 {
	n, d := x.Dims()
	var idx []int
	if sample > 0 && n > sample {
		idx = sampleRows(n, sample, seed)
	} else {
		idx = make([]int, n)
		for i := range idx {
			idx[i] = i
		}
	}
	m := len(idx)
	pts := make([]float64, m*d)
	for r, i := range idx {
		mat.Row(pts[r*d:r*d+d], i, x)
	}
	// Per clustering: each sampled row's cluster, which of its cluster's
	// two running sums it goes to, and the cluster sizes.
	type clustering struct {
		k      int
		lab    []int32
		parity []uint8
		count  []int
		nan    bool
		s      []float64 // per sampled row, by row number
	}
	cs := make([]clustering, len(assigns))
	for q, assign := range assigns {
		c := clustering{k: ks[q], lab: make([]int32, m), parity: make([]uint8, m), count: make([]int, ks[q]), s: make([]float64, m)}
		for r, i := range idx {
			l := assign[i]
			c.lab[r], c.parity[r] = l, uint8(c.count[l]%2)
			c.count[l]++
		}
		nonEmpty := 0
		for _, v := range c.count {
			if v > 0 {
				nonEmpty++
			}
		}
		c.nan = nonEmpty < 2 || nonEmpty == m
		cs[q] = c
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	par.For((m+silhouetteRows-1)/silhouetteRows, workers, func(item int) {
		dist := make([]float64, m)
		var acc [][2]float64
		for r := item * silhouetteRows; r < min(m, (item+1)*silhouetteRows); r++ {
			x := pts[r*d : r*d+d]
			for j := range dist {
				if d == 3 {
					dist[j] = math.Sqrt(sqDist3(x, pts[j*3:j*3+3]))
				} else {
					dist[j] = math.Sqrt(sqDist(x, pts[j*d:j*d+d]))
				}
			}
			for q := range cs {
				c := &cs[q]
				if c.nan {
					continue
				}
				acc = slices.Grow(acc[:0], c.k)[:c.k]
				clear(acc)
				for j, v := range dist {
					acc[c.lab[j]][c.parity[j]] += v
				}
				c.s[r] = silhouetteOf(int(c.lab[r]), c.count, acc)
			}
		}
	})
	out := make([]float64, len(cs))
	for q := range cs {
		c := &cs[q]
		if c.nan {
			out[q] = math.NaN()
			continue
		}
		// Silhouette adds the rows' coefficients cluster by cluster.
		total := 0.0
		for l := 0; l < c.k; l++ {
			for r := range c.s {
				if int(c.lab[r]) == l {
					total += c.s[r]
				}
			}
		}
		out[q] = total / float64(m)
	}
	return out
}

// silhouetteOf is a row's coefficient from the distance sums to every
// cluster (acc: two running sums each) and the cluster sizes, as
// Silhouette forms it.
func silhouetteOf(own int, count []int, acc [][2]float64) float64 {
	if count[own] < 2 {
		return 0
	}
	a, b := 0.0, math.Inf(1)
	for c := range count {
		if count[c] == 0 {
			continue
		}
		mean := (acc[c][0] + acc[c][1]) / float64(count[c])
		if c == own {
			a = mean * float64(count[c]) / float64(count[c]-1)
		} else {
			b = min(b, mean)
		}
	}
	if den := math.Max(a, b); den > 0 {
		return (b - a) / den
	}
	return 0
}
