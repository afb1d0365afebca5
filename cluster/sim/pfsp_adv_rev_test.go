package sim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPFSPAdversarialSmall: tiny instances with heavy ties (arrivals and
// sizes on a grid of quarters, zero sizes, equal weights or not): with
// exact sizes no job completes later under PFSP or FSP than under PS
// (relative 1e-9), the last completion is the work-conserving one when
// all arrive at 0, the shortcuts give the walk's responses, and a second
// run gives the same bits.
func TestPFSPAdversarialSmall(t *testing.T) {
	worst := 0.0
	for seed := range uint64(20000) {
		rng := rand.New(rand.NewPCG(seed, 7))
		n := 1 + rng.IntN(8)
		if seed%7 == 0 {
			n = 1 + rng.IntN(60)
		}
		jobs := make([]Job, n)
		allZero := seed%3 == 0
		t0 := 0.0
		for i := range jobs {
			if !allZero && rng.IntN(3) > 0 {
				t0 += float64(rng.IntN(4)) / 4
			}
			s := float64(rng.IntN(9)) / 4
			if seed%11 == 0 {
				s = rng.ExpFloat64()
			}
			w := 1.0
			if seed%5 == 1 {
				w = float64(1 + rng.IntN(3))
			}
			jobs[i] = Job{Arrival: t0, Size: s, Estimate: s, Weight: w}
		}
		c := []float64{1, 2, 0.75}[seed%3]
		ps, err := Simulate(jobs, c, &PS{})
		if err != nil {
			t.Fatal(err)
		}
		for _, pol := range []func() Policy{func() Policy { return &PFSP{} }, func() Policy { return &FSP{} }} {
			a, err := Simulate(jobs, c, pol())
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			b, _ := Simulate(jobs, c, pol())
			pfspWalkAlways = true
			wk, _ := Simulate(jobs, c, pol())
			pfspWalkAlways = false
			total, last := 0.0, 0.0
			for i := range jobs {
				total += jobs[i].Size
				last = max(last, a.Completion[i])
				if math.Float64bits(a.Response[i]) != math.Float64bits(b.Response[i]) {
					t.Fatalf("seed %d: not deterministic", seed)
				}
				if d := a.Completion[i] - ps.Completion[i]; d > 1e-9*max(1, ps.Completion[i]) {
					t.Errorf("seed %d %T c %v jobs %+v: job %d completes at %v, PS %v", seed, pol(), c, jobs, i, a.Completion[i], ps.Completion[i])
				} else {
					worst = max(worst, d)
				}
				if !close(a.Response[i], wk.Response[i], 1e-12) {
					t.Errorf("seed %d: job %d shortcut %v walk %v", seed, i, a.Response[i], wk.Response[i])
				}
			}
			if allZero && math.Abs(last-total/c) > 1e-12*max(1, total/c) {
				t.Errorf("seed %d %T: last completion %v, work/c %v", seed, pol(), last, total/c)
			}
		}
	}
	t.Logf("largest lateness over PS %.3g", worst)
}
