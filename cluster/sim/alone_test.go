package sim

import (
	"math"
	"strings"
	"testing"
	"unsafe"
)

// Alone's times are the slowdowns' denominators when set; 0 keeps size ÷
// capacity; a run does not read them; Check refuses a negative or
// non-finite one, and times that are not one per job.
func TestAloneSlowdown(t *testing.T) {
	jobs := []Job{{Arrival: 0, Size: 4}, {Arrival: 0, Size: 2}, {Arrival: 1, Size: 0}}
	alone := Alone{Times: []float64{0, 4, 3}}
	r, err := Simulate(jobs, 2, &FIFO{})
	if err != nil {
		t.Fatal(err)
	}
	// FIFO at 2: job 1 ends at 2, job 2 at 3, job 3 (size 0) at 3.
	m := Metrics{Alone: alone}
	s := m.ComputeRun(jobs, r, 2, nil)
	// Job 1: 2 / (4/2) = 1; job 2: 3 / 4 (its time alone, not 2/2); job 3
	// has no work: NaN and left out.
	if m.Slowdown[0] != 1 || m.Slowdown[1] != 0.75 || !math.IsNaN(m.Slowdown[2]) || s.ZeroSize != 1 || s.Slowdown.Max != 1 || s.Slowdown.Min != 0.75 {
		t.Errorf("slowdowns %v, summary %+v", m.Slowdown, s.Slowdown)
	}
	var plain Metrics
	if plain.ComputeRun(jobs, r, 2, nil); plain.Slowdown[1] != 3 {
		t.Errorf("without times alone: job 2's slowdown %v, want 3 / (2/2) = 3", plain.Slowdown[1])
	}
	if err := alone.Check(3); err != nil {
		t.Errorf("Check: %v", err)
	}
	for _, bad := range []float64{-1, math.NaN(), math.Inf(1)} {
		a := Alone{Times: []float64{1, bad}}
		if err := a.Check(2); err == nil || !strings.Contains(err.Error(), "job 2: time alone") {
			t.Errorf("time alone %v: %v", bad, err)
		}
	}
	if err := alone.Check(2); err == nil || !strings.Contains(err.Error(), "3 times alone for 2 jobs") {
		t.Errorf("3 times for 2 jobs: %v", err)
	}
	if err := (&Alone{}).Check(5); err != nil {
		t.Errorf("no times: %v", err)
	}
}

// Alone.Floor bounds the denominator below by min(response, floor):
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
		{"floor over size ÷ capacity", 0.5, 0, 1, 1},
	} {
		m.Alone = Alone{Times: []float64{tc.alone}, Floor: tc.floor}
		m.Compute([]Job{{Arrival: 1, Size: 0.1}}, []float64{1 + tc.resp}, 1, nil)
		if got := m.Slowdown[0]; math.Abs(got-tc.w) > 1e-12 {
			t.Errorf("%s: slowdown %v, want %v", tc.name, got, tc.w)
		}
		if got := m.Alone.Slowdown(0, &Job{Size: 0.1}, tc.resp, 1); got != m.Slowdown[0] {
			t.Errorf("%s: Alone.Slowdown %v, Metrics %v", tc.name, got, m.Slowdown[0])
		}
	}
	for _, bad := range []float64{-1, math.NaN(), math.Inf(1)} {
		if err := (&Alone{Floor: bad}).Check(0); err == nil || !strings.Contains(err.Error(), "slowdown floor") {
			t.Errorf("floor %v: %v", bad, err)
		}
	}
}

// A Job is 48 bytes: six float64s. The times alone and the slowdown floor
// are metric inputs (Alone), not fields that every job of a 3 M-job
// window would carry (46 MB) for the task level's metrics alone.
func TestJobSize(t *testing.T) {
	if n := unsafe.Sizeof(Job{}); n != 48 {
		t.Errorf("sim.Job is %d bytes, want 48", n)
	}
}
