package tuner

import (
	"math"
	"slices"

	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/experiment"
)

// PairedBootstrap returns a seeded percentile-bootstrap interval, at the
// given level (0.95: a 95% interval), of the mean of paired differences
// grouped by chunk: groups[c] are chunk c's differences, one per task
// seed. A replicate draws len(groups) chunks with replacement and, within
// each drawn chunk, its differences with replacement (a two-stage
// bootstrap: differences of one chunk share its arrivals and are not
// independent draws), and takes the mean of all drawn differences; the
// interval is the replicates' (1−level)/2 and (1+level)/2 quantiles. With
// one chunk it is the ordinary percentile bootstrap of the mean. Empty
// groups are ignored; no difference at all gives an interval that is not
// Available. The same arguments give the same interval.
func PairedBootstrap(groups [][]float64, level float64, reps int, seed uint64) Interval {
	iv := Interval{Level: level, Replicates: reps}
	var gs [][]float64
	for _, g := range groups {
		if len(g) > 0 {
			gs = append(gs, g)
		}
	}
	if len(gs) == 0 || reps < 1 || !(level > 0 && level < 1) {
		return iv
	}
	rng := estimate.RunRand(seed, 0xb007)
	vals := make([]float64, reps)
	for r := range vals {
		sum, n := 0.0, 0
		for range gs {
			g := gs[rng.IntN(len(gs))]
			for range g {
				sum += g[rng.IntN(len(g))]
				n++
			}
		}
		vals[r] = sum / float64(n)
	}
	slices.Sort(vals)
	iv.Available = true
	iv.Lo, iv.Hi = experiment.QuantileSorted(vals, (1-level)/2), experiment.QuantileSorted(vals, (1+level)/2)
	return iv
}

// MeanOfGroups is the mean of every value of every group (NaN without one).
func MeanOfGroups(groups [][]float64) float64 {
	sum, n := 0.0, 0
	for _, g := range groups {
		for _, v := range g {
			sum += v
			n++
		}
	}
	return sum / float64(n)
}

// Spearman is the rank correlation of x and y (ties share their mean
// rank): NaN with fewer than 3 pairs or when either has no spread.
func Spearman(x, y []float64) float64 {
	if len(x) != len(y) || len(x) < 3 {
		return math.NaN()
	}
	rx, ry := ranks(x), ranks(y)
	var mx, my float64
	for i := range rx {
		mx += rx[i] / float64(len(rx))
		my += ry[i] / float64(len(ry))
	}
	var sxy, sxx, syy float64
	for i := range rx {
		a, b := rx[i]-mx, ry[i]-my
		sxy += a * b
		sxx += a * a
		syy += b * b
	}
	if sxx == 0 || syy == 0 {
		return math.NaN()
	}
	return sxy / math.Sqrt(sxx*syy)
}

// ranks returns the 1-based ranks of v, ties given their mean rank.
func ranks(v []float64) []float64 {
	idx := make([]int, len(v))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case v[a] < v[b]:
			return -1
		case v[a] > v[b]:
			return 1
		}
		return 0
	})
	r := make([]float64, len(v))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && v[idx[j+1]] == v[idx[i]] {
			j++
		}
		for k := i; k <= j; k++ {
			r[idx[k]] = float64(i+j)/2 + 1
		}
		i = j + 1
	}
	return r
}
