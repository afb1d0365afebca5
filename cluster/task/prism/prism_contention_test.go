package prism

import (
	"math/rand/v2"
	"testing"
)

// Hand-computed speeds of the contention model (prism_contention.go).
func TestPhaseRates(t *testing.T) {
	c := Vector{CPU: 4, Memory: 8, Disk: 100, Network: 125}
	for _, tc := range []struct {
		name    string
		demands []Vector
		want    []float64
	}{
		{"fits", []Vector{{CPU: 2, Disk: 50}, {CPU: 2, Disk: 50}}, []float64{1, 1}},
		// Disk oversubscribed 120/100: its users run at 100/120; the CPU-only
		// phase is not slowed.
		{"one bottleneck", []Vector{{Disk: 60}, {Disk: 60}, {CPU: 1}}, []float64{100.0 / 120, 100.0 / 120, 1}},
		// Disk 160/100 saturates first at 0.625 (phases 1, 2); phase 0 then
		// takes the CPU left: (4 − 3·0.625)/3 = 0.7083 — above the 4/6 that
		// capacity/demand-sum alone would give.
		{"two levels", []Vector{{CPU: 3}, {CPU: 3, Disk: 80}, {Disk: 80}}, []float64{(4 - 3*0.625) / 3, 0.625, 0.625}},
		// Memory 12/8 GB: paging slows both in proportion.
		{"memory", []Vector{{Memory: 6}, {Memory: 6, CPU: 1}}, []float64{8.0 / 12, 8.0 / 12}},
		{"zero demand", []Vector{{}, {Disk: 200}}, []float64{1, 0.5}},
		{"no such resource", []Vector{{CPU: 1}}, []float64{0}},
		{"empty", nil, []float64{}},
	} {
		cc := c
		if tc.name == "no such resource" {
			cc[CPU] = 0
		}
		got := PhaseRates(cc, tc.demands, nil)
		if len(got) != len(tc.want) {
			t.Fatalf("%s: rates %v, want %v", tc.name, got, tc.want)
		}
		for i := range got {
			if !prismNear(got[i], tc.want[i]) {
				t.Errorf("%s: rates %v, want %v", tc.name, got, tc.want)
				break
			}
		}
	}
}

// On random machines: speeds are in [0, 1]; usage never exceeds capacity;
// a phase runs below full speed only if a resource it uses is saturated
// (nothing is slowed for no reason — over-packing costs exactly the
// oversubscription).
func TestPhaseRatesInvariants(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	var rates []float64
	for it := range 2000 {
		c := randPrismVector(rng, 10)
		demands := make([]Vector, rng.IntN(12))
		for i := range demands {
			demands[i] = randPrismVector(rng, 3)
			for d := range NumDims {
				if rng.IntN(3) == 0 {
					demands[i][d] = 0
				}
			}
		}
		rates = PhaseRates(c, demands, rates)
		var rateUse Vector // Σ ρ·d, memory included
		for i, d := range demands {
			if rates[i] < 0 || rates[i] > 1 {
				t.Fatalf("case %d: rate %v", it, rates[i])
			}
			rateUse = rateUse.Add(d.Scale(rates[i]))
		}
		u := MachineUsage(c, demands, rates)
		for d := range NumDims {
			if rateUse[d] > c[d]*(1+1e-9) || u[d] > c[d]*(1+1e-9) {
				t.Fatalf("case %d: %s used %v (usage %v) > capacity %v", it, Dim(d), rateUse[d], u[d], c[d])
			}
		}
		for i, d := range demands {
			if rates[i] >= 1 {
				continue
			}
			saturated := false
			for r := range NumDims {
				if d[r] > 0 && rateUse[r] >= c[r]*(1-1e-9) {
					saturated = true
				}
			}
			if !saturated {
				t.Fatalf("case %d: phase %d at %v though none of its resources is saturated (use %v, cap %v)", it, i, rates[i], rateUse, c)
			}
		}
	}
}

// A slowed phase keeps all of its memory; throughputs scale with speed.
func TestMachineUsage(t *testing.T) {
	c := Vector{CPU: 4, Memory: 8, Disk: 100, Network: 125}
	demands := []Vector{{CPU: 1, Memory: 2, Disk: 60}, {Memory: 3, Disk: 60}}
	rates := PhaseRates(c, demands, nil)
	want := Vector{CPU: 100.0 / 120, Memory: 5, Disk: 100}
	if u := MachineUsage(c, demands, rates); !prismNear(u[CPU], want[CPU]) || !prismNear(u[Memory], want[Memory]) || !prismNear(u[Disk], want[Disk]) || u[Network] != 0 {
		t.Errorf("usage %v, want %v", u, want)
	}
	if s := DemandSum(demands); s != (Vector{CPU: 1, Memory: 5, Disk: 120}) {
		t.Errorf("sum %v", s)
	}
}
