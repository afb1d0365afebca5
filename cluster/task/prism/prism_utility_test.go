package prism

import (
	"math"
	"math/rand/v2"
	"testing"
)

func prismNear(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(1, math.Abs(b)) }

// Eq. 5 of seed 004 §5.2, by hand.
func TestLeadingPhaseUtility(t *testing.T) {
	for _, c := range []struct {
		rem, run  int
		eps, want float64
	}{
		{16, 4, 0.01, 16.0/4 - 16.0/5}, // 0.8: 4 → 5 running map tasks of 16
		{8, 0, 0.01, 8/0.01 - 8.0/1},   // 792: the job's first task of the type
		{8, 0, 0.5, 8/0.5 - 8.0/1},     // 8
		{0, 3, 0.01, 0},                // nothing remains
		{10, 10, 0.01, 1 - 10.0/11},    // all running already
	} {
		if got := LeadingPhaseUtility(c.rem, c.run, c.eps); !prismNear(got, c.want) {
			t.Errorf("U_leading(N_rem=%d, N_cur=%d, ε=%v) = %v, want %v", c.rem, c.run, c.eps, got, c.want)
		}
	}
	// More parallelism is worth less the more tasks already run.
	prev := math.Inf(1)
	for run := range 16 {
		u := LeadingPhaseUtility(16, run, 0.01)
		if !(u < prev) || !(u > 0) {
			t.Fatalf("U_leading(16, %d) = %v, not positive and below %v", run, u, prev)
		}
		prev = u
	}
}

// Eq. 6 with §5.2's quadratic p(T) = a·T², a = 0.1: a paused phase's
// urgency grows with its wait.
func TestUrgencyGrowsWithWait(t *testing.T) {
	for _, c := range []struct{ wait, want float64 }{{0, 0}, {1, 0.1}, {3, 0.9}, {10, 10}, {-5, 0}, {math.NaN(), 0}} {
		if got := Urgency(c.wait, 0.1); !prismNear(got, c.want) {
			t.Errorf("p(%v s) = %v, want %v", c.wait, got, c.want)
		}
	}
	prev := 0.0
	for w := 0.5; w < 600; w *= 1.5 {
		u := Urgency(w, 0.1)
		if !(u > prev) {
			t.Fatalf("p(%v s) = %v does not exceed p at a shorter wait (%v)", w, u, prev)
		}
		prev = u
	}
}

// DRF dominant shares by hand: the example of Ghodsi et al. (NSDI 2011,
// §4, cited as [11] in seed 004): 9 CPUs and 18 GB; user A's tasks need
// <1 CPU, 4 GB>, B's <3 CPU, 1 GB>; DRF gives A three tasks and B two, and
// both dominant shares are 2/3 (A's on memory, B's on CPU).
func TestDominantShareDRFExample(t *testing.T) {
	total := Vector{CPU: 9, Memory: 18}
	a := Vector{CPU: 1, Memory: 4}.Scale(3)
	b := Vector{CPU: 3, Memory: 1}.Scale(2)
	if got := a.DominantShare(total); !prismNear(got, 2.0/3) {
		t.Errorf("A's dominant share = %v, want 2/3", got)
	}
	if got := b.DominantShare(total); !prismNear(got, 2.0/3) {
		t.Errorf("B's dominant share = %v, want 2/3", got)
	}
	// Weighted DRF: a weight of 2 halves the share; ≤ 0 counts as 1.
	if got := WeightedShare(a, total, 2); !prismNear(got, 1.0/3) {
		t.Errorf("A's weighted share (w = 2) = %v, want 1/3", got)
	}
	if got := WeightedShare(a, total, 0); !prismNear(got, 2.0/3) {
		t.Errorf("A's weighted share (w = 0) = %v, want 2/3", got)
	}
	// Resources the base does not have are left out (disk, network here).
	if got := (Vector{CPU: 1, Disk: 50}).DominantShare(total); !prismNear(got, 1.0/9) {
		t.Errorf("share with a zero-capacity disk = %v, want 1/9", got)
	}
}

// Eq. 2–3 by hand (spread of shares before minus after).
func TestFairnessUtility(t *testing.T) {
	shares := []float64{0.1, 0.3, 0.5}
	if got := ShareSpread(shares); !prismNear(got, 0.4) {
		t.Fatalf("spread = %v, want 0.4", got)
	}
	for _, c := range []struct {
		j           int
		after, want float64
	}{
		{0, 0.2, 0.1},    // the poorest job catches up: spread 0.4 → 0.3
		{0, 0.6, 0.1},    // overtakes everyone: spread 0.6 − 0.3
		{1, 0.4, 0},      // a middle job stays inside the range
		{2, 0.7, -0.2},   // the richest job grows: spread 0.4 → 0.6
		{1, 0.55, -0.05}, // a middle job becomes the richest
	} {
		if got := FairnessUtility(shares, c.j, c.after); !prismNear(got, c.want) {
			t.Errorf("U_fairness(job %d → %v) = %v, want %v", c.j, c.after, got, c.want)
		}
	}
	if got := FairnessUtility([]float64{0.3}, 0, 0.9); got != 0 {
		t.Errorf("one job: U_fairness = %v, want 0", got)
	}
	// Ties for the extremes.
	if got := FairnessUtility([]float64{0.2, 0.2, 0.5}, 0, 0.3); got != 0 {
		t.Errorf("tied poorest: U_fairness = %v, want 0 (the other stays poorest)", got)
	}
}

// The O(1) update from the extremes agrees with recomputing the spread.
func TestShareExtremesMatchRescan(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for range 2000 {
		n := 1 + rng.IntN(6)
		s := make([]float64, n)
		for i := range s {
			s[i] = float64(rng.IntN(4)) / 4 // ties are frequent
		}
		j, after := rng.IntN(n), s[0]+rng.Float64()
		var x shareExtremes
		x.scan(s)
		mod := append([]float64(nil), s...)
		mod[j] = after
		want := ShareSpread(s) - ShareSpread(mod)
		if got := x.fairness(j, after); !prismNear(got, want) {
			t.Fatalf("shares %v, job %d → %v: O(1) gives %v, rescan %v", s, j, after, got, want)
		}
	}
}

func TestPrismConfigCheck(t *testing.T) {
	if err := DefaultPrismConfig().Check(); err != nil {
		t.Fatal(err)
	}
	bad := []func(*PrismConfig){
		func(c *PrismConfig) { c.Alpha = math.NaN() },
		func(c *PrismConfig) { c.Alpha = -1 },
		func(c *PrismConfig) { c.Epsilon = 0 },
		func(c *PrismConfig) { c.Epsilon = 1 },
		func(c *PrismConfig) { c.A = math.Inf(1) },
		func(c *PrismConfig) { c.K = -1 },
		func(c *PrismConfig) { c.MaxPicks = -2 },
		func(c *PrismConfig) { c.TaskSlots = 0 },
		func(c *PrismConfig) { c.Fairness = "slots" },
	}
	for i, f := range bad {
		c := DefaultPrismConfig()
		f(&c)
		if _, err := NewPrismSelector(c); err == nil {
			t.Errorf("case %d: %+v accepted", i, c)
		}
	}
}
