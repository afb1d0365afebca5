package sim

import (
	"math"
	"testing"
)

// TestSummaryRunIsComputeRuns checks that SummaryRun's summary is
// ComputeRun's bit for bit — with and without deadlines, with zero-size
// jobs, floored slowdowns — and that it keeps no buffer (25 B a job),
// dropping those a ComputeRun before left: it summarises the run's own
// slices.
func TestSummaryRunIsComputeRuns(t *testing.T) {
	jobs := make([]Job, 5000)
	alone := Alone{Times: make([]float64, len(jobs)), Floor: 1}
	for i := range jobs {
		s := float64(i%13) * 0.37
		jobs[i] = Job{Arrival: float64(i) * 0.9, Size: s, Estimate: s * 1.3}
		if i%17 == 0 {
			alone.Times[i] = 2 * s
		}
	}
	ps, err := PSCompletions(jobs, 1)
	if err != nil {
		t.Fatal(err)
	}
	early := make([]float64, len(ps)) // every job misses
	for i, d := range ps {
		early[i] = d - 5
	}
	for _, tc := range []struct {
		name      string
		policy    Policy
		deadlines []float64
	}{
		{"fifo, no deadlines", &FIFO{}, nil},
		{"srpt, PS deadlines", &SRPT{}, ps},
		{"las, missed deadlines", &LAS{}, early},
	} {
		var s Simulator
		r, err := s.Run(jobs, 1, tc.policy)
		if err != nil {
			t.Fatal(err)
		}
		full, only := Metrics{Alone: alone}, Metrics{Alone: alone}
		want := full.ComputeRun(jobs, r, 1, tc.deadlines)
		only.ComputeRun(jobs, r, 1, tc.deadlines) // buffers SummaryRun must drop
		got := only.SummaryRun(jobs, r, 1, tc.deadlines)
		if !sameSummary(got, want) {
			t.Errorf("%s: SummaryRun %+v, ComputeRun %+v", tc.name, got, want)
		}
		if only.Response != nil || only.Slowdown != nil || only.Missed != nil || only.finite != nil {
			t.Errorf("%s: SummaryRun kept %d responses, %d slowdowns, %d missed flags and %d finite slowdowns", tc.name, len(only.Response), len(only.Slowdown), len(only.Missed), len(only.finite))
		}
	}
}

// sameSummary compares summaries bit for bit (NaN equal to NaN).
func sameSummary(a, b Summary) bool {
	same := func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }
	q := func(x, y Quantiles) bool {
		return same(x.Mean, y.Mean) && same(x.Min, y.Min) && same(x.P50, y.P50) && same(x.P90, y.P90) && same(x.P99, y.P99) && same(x.Max, y.Max)
	}
	return a.Jobs == b.Jobs && a.ZeroSize == b.ZeroSize && a.Missed == b.Missed && q(a.Response, b.Response) && q(a.Slowdown, b.Slowdown) &&
		same(a.Makespan, b.Makespan) && same(a.Utilisation, b.Utilisation) && same(a.MissedShare, b.MissedShare) && same(a.MaxLate, b.MaxLate)
}
