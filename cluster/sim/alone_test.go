package sim

import (
	"math"
	"strings"
	"testing"
)

// Job.Alone is the slowdown's denominator when set; 0 keeps size ÷
// capacity; policies ignore it; CheckJobs rejects a negative or
// non-finite one.
func TestAloneSlowdown(t *testing.T) {
	jobs := []Job{{Arrival: 0, Size: 4}, {Arrival: 0, Size: 2, Alone: 4}, {Arrival: 1, Size: 0, Alone: 3}}
	r, err := Simulate(jobs, 2, &FIFO{})
	if err != nil {
		t.Fatal(err)
	}
	plain := append([]Job(nil), jobs...)
	for i := range plain {
		plain[i].Alone = 0
	}
	rp, err := Simulate(plain, 2, &FIFO{})
	if err != nil {
		t.Fatal(err)
	}
	// FIFO at 2: job 1 ends at 2, job 2 at 3, job 3 (size 0) at 3.
	for i := range r.Completion {
		if r.Completion[i] != rp.Completion[i] {
			t.Fatalf("Alone changed the run: %v vs %v", r.Completion, rp.Completion)
		}
	}
	var m Metrics
	s := m.ComputeRun(jobs, r, 2, nil)
	// Job 1: 2 / (4/2) = 1; job 2: 3 / 4 (its Alone, not 2/2); job 3 has
	// no work: NaN and left out.
	if m.Slowdown[0] != 1 || m.Slowdown[1] != 0.75 || !math.IsNaN(m.Slowdown[2]) || s.ZeroSize != 1 || s.Slowdown.Max != 1 || s.Slowdown.Min != 0.75 {
		t.Errorf("slowdowns %v, summary %+v", m.Slowdown, s.Slowdown)
	}
	for _, bad := range []float64{-1, math.NaN(), math.Inf(1)} {
		err := CheckJobs([]Job{{Size: 1, Alone: bad}})
		if err == nil || !strings.Contains(err.Error(), "job 1: time alone") {
			t.Errorf("Alone %v: %v", bad, err)
		}
	}
}

// Job.SlowdownFloor bounds the denominator below by min(response, floor):
// response / max(alone, min(response, floor)).
func TestSlowdownFloor(t *testing.T) {
	var m Metrics
	for _, tc := range []struct {
		name                  string
		resp, alone, floor, w float64
	}{
		{"no floor", 0.5, 0.01, 0, 50},
		{"response within the floor", 0.5, 0.01, 1, 1},
		{"response beyond the floor", 3, 0.01, 1, 3},
		{"alone beyond the floor", 3, 2, 1, 1.5},
		{"faster than alone", 0.5, 0.8, 1, 0.625},
	} {
		j := []Job{{Arrival: 1, Size: 1, Alone: tc.alone, SlowdownFloor: tc.floor}}
		m.Compute(j, []float64{1 + tc.resp}, 1, nil)
		if got := m.Slowdown[0]; math.Abs(got-tc.w) > 1e-12 {
			t.Errorf("%s: slowdown %v, want %v", tc.name, got, tc.w)
		}
	}
	if err := CheckJobs([]Job{{Size: 1, SlowdownFloor: math.NaN()}}); err == nil || !strings.Contains(err.Error(), "slowdown floor") {
		t.Errorf("NaN floor: %v", err)
	}
}
