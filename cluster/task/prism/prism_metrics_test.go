package prism

import (
	"math"
	"strings"
	"testing"
)

// ANP and unfairness of seed 004 §6.3 by hand: ideal/actual = [0.5, 1, 0.75];
// mean 0.75, population SD √(0.125/3) = 0.2041, CV 0.2722.
func TestANPAndUnfairness(t *testing.T) {
	anp, err := ANP(nil, []float64{10, 20, 30}, []float64{20, 20, 40})
	if err != nil {
		t.Fatal(err)
	}
	if len(anp) != 3 || anp[0] != 0.5 || anp[1] != 1 || anp[2] != 0.75 {
		t.Fatalf("anp %v", anp)
	}
	f := SummariseANP(anp)
	if !prismNear(f.MeanANP, 0.75) || !prismNear(f.Unfairness, math.Sqrt(0.125/3)/0.75) {
		t.Errorf("summary %+v, want mean 0.75, CV %v", f, math.Sqrt(0.125/3)/0.75)
	}
	// Every job equally slowed: perfectly fair.
	if f := SummariseANP([]float64{0.4, 0.4}); f.Unfairness != 0 {
		t.Errorf("equal ANP: unfairness %v", f.Unfairness)
	}
	if f := SummariseANP(nil); f != (ANPSummary{}) {
		t.Errorf("no jobs: %+v", f)
	}
	if f := SummariseANP([]float64{0, 0}); !math.IsNaN(f.Unfairness) {
		t.Errorf("mean 0: unfairness %v, want NaN", f.Unfairness)
	}
	for _, c := range []struct {
		ideal, actual []float64
		want          string
	}{
		{[]float64{1}, []float64{1, 2}, "1 ideal running times but 2"},
		{[]float64{1, 1}, []float64{1, 0}, "job 1: actual"},
		{[]float64{math.NaN()}, []float64{1}, "job 0: ideal"},
		{[]float64{1}, []float64{math.Inf(1)}, "job 0: actual"},
	} {
		if _, err := ANP(nil, c.ideal, c.actual); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ANP(%v, %v): err %v, want %q", c.ideal, c.actual, err, c.want)
		}
	}
}

// Time-weighted utilisation of a step function, by hand.
func TestUsageTraceMean(t *testing.T) {
	u := UsageTrace{Capacity: Vector{CPU: 4, Memory: 8, Disk: 100}}
	for _, r := range []struct {
		t    float64
		used Vector
	}{{0, Vector{CPU: 1}}, {0, Vector{CPU: 4, Memory: 8}}, {10, Vector{CPU: 2, Disk: 50}}, {30, Vector{}}} {
		if err := u.Record(r.t, r.used); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		a, b float64
		want Vector
	}{
		// [0,10): 4 cores, 8 GB; [10,30): 2 cores, 50 MB/s; then idle.
		{0, 30, Vector{CPU: (4*10 + 2*20) / (4 * 30.0), Memory: 80 / (8 * 30.0), Disk: 50 * 20 / (100 * 30.0)}},
		{5, 15, Vector{CPU: (4*5 + 2*5) / (4 * 10.0), Memory: 0.5, Disk: 0.25}},
		{-10, 10, Vector{CPU: 0.5, Memory: 0.5}}, // before the first record: 0
		{30, 40, Vector{}},
	} {
		got, err := u.MeanOver(c.a, c.b)
		if err != nil {
			t.Fatal(err)
		}
		for d := range NumDims {
			if !prismNear(got[d], c.want[d]) {
				t.Errorf("[%v, %v]: %v, want %v", c.a, c.b, got, c.want)
				break
			}
		}
	}
	if err := u.Record(20, Vector{}); err == nil || !strings.Contains(err.Error(), "precedes") {
		t.Errorf("time going back: %v", err)
	}
	if err := u.Record(math.NaN(), Vector{}); err == nil {
		t.Error("NaN time accepted")
	}
	if err := u.Record(40, Vector{CPU: -1}); err == nil || !strings.Contains(err.Error(), "cpu") {
		t.Errorf("negative usage: %v", err)
	}
	if _, err := u.MeanOver(5, 5); err == nil {
		t.Error("empty window accepted")
	}
}
