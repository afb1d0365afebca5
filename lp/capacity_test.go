package lp

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestParseChanges(t *testing.T) {
	p := seedExample()
	cs, err := ParseChanges(p, "R1=+10, R2=-1")
	if err != nil || len(cs) != 2 || cs[0] != (Change{0, 10}) || cs[1] != (Change{1, -1}) {
		t.Fatalf("%v %v", cs, err)
	}
	if s := FormatChanges(p, cs); s != "R1=+10,R2=-1" {
		t.Errorf("format: %s", s)
	}
	for _, bad := range []string{"R9=+1", "R1", "R1=x", "", "R1=NaN", "R1=+10,R1=+1"} {
		if _, err := ParseChanges(p, bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestWhatIf(t *testing.T) {
	for _, s := range backends() {
		p := seedExample()
		opt := COSHHOptions{Solver: s}
		// A second R2 machine, against solving the changed problem directly.
		res, err := WhatIf(p, []Change{{1, 1}}, opt)
		if err != nil {
			t.Fatal(err)
		}
		q := seedExample()
		q.Counts[1] = 2
		ref, _ := SolveCOSHH(q, opt)
		if !near(res.Lambda, ref.Lambda, 1e-12) || res.Lambda <= 2.5/2.45 {
			t.Errorf("%s: λ with R2=+1 is %g, direct %g", s, res.Lambda, ref.Lambda)
		}
		if p.Counts[1] != 1 {
			t.Error("WhatIf changed its input")
		}
		if _, err := WhatIf(p, []Change{{0, -2}}, opt); err == nil {
			t.Errorf("%s: removing 2 of 1 machines accepted", s)
		}
		res, err = WhatIf(p, []Change{{0, -1}, {1, -1}}, opt)
		if err != nil || res.Lambda != 0 || res.Note == "" {
			t.Errorf("%s: removing every machine: %+v %v", s, res, err)
		}
		// Without R1, class 2 runs on R2 only and class 1 too: λ = 1/(2.45/5 + 2.45/1).
		res, err = WhatIf(p, []Change{{0, -1}}, opt)
		if err != nil || !near(res.Lambda, 1/(2.45/5+2.45/1), 1e-9) {
			t.Errorf("%s: without R1: %+v %v", s, res, err)
		}
	}
}

// MachinesForTarget is checked against a brute-force scan of counts.
func TestMachinesForTarget(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	for n := 0; n < 12; n++ {
		p := randomCOSHH(r, 4, 3)
		for ty := range p.Counts {
			p.Counts[ty] = float64(1 + r.IntN(4))
		}
		base, err := SolveCOSHH(p, COSHHOptions{})
		if err != nil {
			t.Fatal(err)
		}
		target := base.Lambda * (0.5 + 1.5*r.Float64())
		for ty := range p.Counts {
			res, err := MachinesForTarget(p, ty, target, COSHHOptions{})
			if err != nil {
				t.Fatal(err)
			}
			// Brute force up to a bound.
			want := -1.0
			for c := 0.0; c <= 400; c++ {
				q := p.withCounts(append([]float64(nil), p.Counts...))
				q.Counts[ty] = c
				sol, err := SolveCOSHH(q, COSHHOptions{})
				if err == nil && sol.Lambda >= target*(1-1e-9) {
					want = c
					break
				}
			}
			switch {
			case !res.Reachable:
				if want >= 0 {
					t.Errorf("instance %d type %d: unreachable (limit %g) but %g machines reach %g", n, ty, res.Limit, want, target)
				}
			case want < 0:
				if res.Count <= 400 {
					t.Errorf("instance %d type %d: count %g, brute force finds none ≤ 400", n, ty, res.Count)
				}
			case res.Count != want:
				t.Errorf("instance %d type %d: count %g, brute force %g (target %g)", n, ty, res.Count, want, target)
			}
			if res.Reachable && res.Lambda < target*(1-1e-9) {
				t.Errorf("instance %d type %d: λ at the count %g is %g < target %g", n, ty, res.Count, res.Lambda, target)
			}
		}
	}
}

// A type that cannot run some class cannot alone lift λ past what the
// other types give that class.
func TestTargetUnreachable(t *testing.T) {
	p := seedExample()
	p.Mu[1] = []float64{0, 1} // class 2 runs only on R2
	res, err := MachinesForTarget(p, 0, 10, COSHHOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// With unlimited R1 class 1 leaves R2 to class 2: λ∞ = 1/2.45.
	if res.Reachable || !near(res.Limit, 1/2.45, 1e-9) {
		t.Errorf("%+v", res)
	}
	res, err = MachinesForTarget(p, 1, 10, COSHHOptions{})
	if err != nil || !res.Reachable || !math.IsInf(res.Limit, 1) {
		t.Errorf("R2 runs every class, so any target is reachable: %+v %v", res, err)
	}
}

// FuzzParseChanges: any what-if text gives changes of known types with
// finite deltas, or an error; never a panic.
func FuzzParseChanges(f *testing.F) {
	for _, s := range []string{"R1=+10,R2=-1", "R1=1e3", "R2=-0.5, R1=+2", "=", ",,", "R1=+Inf"} {
		f.Add(s)
	}
	p := seedExample()
	f.Fuzz(func(t *testing.T, s string) {
		cs, err := ParseChanges(p, s)
		if err != nil {
			return
		}
		for _, c := range cs {
			if c.Type < 0 || c.Type >= len(p.Counts) || math.IsNaN(c.Delta) || math.IsInf(c.Delta, 0) {
				t.Fatalf("%q gave %+v", s, c)
			}
		}
		again, err := ParseChanges(p, FormatChanges(p, cs))
		if err != nil || len(again) != len(cs) {
			t.Fatalf("%q: formatted %q does not parse back: %v", s, FormatChanges(p, cs), err)
		}
	})
}
