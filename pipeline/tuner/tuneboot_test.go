package tuner

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedplan/schedplan/cluster/sim"
)

// bootJobsScore is the pooled computation replicateScore must equal: the
// jobs of the replicate's blocks appended, summarised job by job.
func bootJobsScore(b bootJobs, o Objective) Score {
	var s Score
	sw, sr, ssd, swd, sm := 0.0, 0.0, 0.0, 0.0, 0.0
	var slow, slowW []float64
	for i, w := range b.w {
		sw += w
		sr += w * b.resp[i]
		if !math.IsNaN(b.slow[i]) {
			ssd += w * b.slow[i]
			swd += w
			slow, slowW = append(slow, b.slow[i]), append(slowW, w)
		}
		if b.missed[i] {
			sm += w
		}
	}
	if sw > 0 {
		s.Mean, s.Missed = sr/sw, sm/sw
	}
	if swd > 0 {
		s.MeanSlowdown = ssd / swd
	}
	switch o {
	case MinP99, MinMix:
		_, s.P99 = sim.WeightedMeanQuantile(0.99, slices.Clone(b.resp), slices.Clone(b.w))
	case MinP99Slowdown:
		_, s.P99Slowdown = sim.WeightedMeanQuantile(0.99, slow, slowW)
	}
	return s
}

// TestReplicateScore checks the block-summary bootstrap against pooling
// the replicate's jobs: the same means and the same weighted quantiles, on
// heavy-tailed values with ties, NaN slowdowns, sampling weights and
// blocks drawn several times.
func TestReplicateScore(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 300; trial++ {
		n := 1 + rng.IntN(400)
		var f bootJobs
		for i := 0; i < n; i++ {
			r := math.Exp(3 * rng.NormFloat64())
			if rng.IntN(5) == 0 {
				r = float64(rng.IntN(4)) // ties (and zeros)
			}
			sl := 1 + r
			if rng.IntN(10) == 0 {
				sl = math.NaN()
			}
			w := 1.0
			if trial%2 == 1 {
				w = 1 + float64(rng.IntN(3)) // Horvitz–Thompson weights
			}
			f.resp, f.slow, f.w, f.missed = append(f.resp, r), append(f.slow, sl), append(f.w, w), append(f.missed, rng.IntN(7) == 0)
		}
		nb := min(bootBlocks, n)
		blocks := f.blocks(nb, true)
		counts := make([]int, nb)
		for k := 0; k < nb; k++ {
			counts[rng.IntN(nb)]++
		}
		var pooled bootJobs
		for k, c := range counts {
			lo, hi := k*n/nb, (k+1)*n/nb
			for ; c > 0; c-- {
				pooled.resp = append(pooled.resp, f.resp[lo:hi]...)
				pooled.slow = append(pooled.slow, f.slow[lo:hi]...)
				pooled.w = append(pooled.w, f.w[lo:hi]...)
				pooled.missed = append(pooled.missed, f.missed[lo:hi]...)
			}
		}
		for _, o := range []Objective{MinMean, MinMix, MinP99Slowdown} {
			got, want := replicateScore(blocks, counts, o), bootJobsScore(pooled, o)
			for _, m := range []struct {
				name string
				g, w float64
			}{{"mean", got.Mean, want.Mean}, {"p99", got.P99, want.P99}, {"mean slowdown", got.MeanSlowdown, want.MeanSlowdown},
				{"p99 slowdown", got.P99Slowdown, want.P99Slowdown}, {"missed", got.Missed, want.Missed}} {
				if math.Abs(m.g-m.w) > 1e-9*math.Max(1, math.Abs(m.w)) {
					t.Fatalf("trial %d (%d jobs, counts %v), %s: %s %v, pooled %v", trial, n, counts, o, m.name, m.g, m.w)
				}
			}
		}
	}
}

// TestMultisetQuantileSmall checks a hand-computed case: values 1, 2, 3, 4
// in two blocks {1, 2} ×2 and {3, 4} ×1 pool to 1 1 2 2 3 4, whose
// quantiles (gonum's weighted LinInterp) are 1 at p = 0, 2 at 0.5 and,
// between the last two values, 3.4 at 0.9 and 3.94 at 0.99.
func TestMultisetQuantileSmall(t *testing.T) {
	parts := []sortedWeighted{sortWeighted([]float64{2, 1}, []float64{1, 1}), sortWeighted([]float64{4, 3}, []float64{1, 1})}
	for _, c := range []struct {
		p    float64
		want float64
	}{{0.5, 2}, {0.99, 3.94}, {0, 1}, {0.9, 3.4}} {
		_, want := sim.WeightedMeanQuantile(c.p, []float64{1, 1, 2, 2, 3, 4}, []float64{1, 1, 1, 1, 1, 1})
		if got := multisetQuantile(c.p, parts, []int{2, 1}); got != want || math.Abs(want-c.want) > 1e-12 {
			t.Errorf("p %v: got %v, pooled %v, want %v", c.p, got, want, c.want)
		}
	}
}
