package sim

import (
	"math"
	"testing"
)

// TestLASMQReuseAfterAbandonedRun checks that a LAS_MQ left mid-run (a
// run that erred or was cancelled: jobs still in its queues, heaps and
// served lists, slots still taken), or started twice, schedules its next
// run exactly as a fresh one does, in every mode of slotSpecs, capped and
// not, the abandoned run capped when the next is not and the reverse.
func TestLASMQReuseAfterAbandonedRun(t *testing.T) {
	for _, spec := range slotSpecs {
		cfg := mustPolicy(t, spec).(*LASMQ)
		for _, caps := range []bool{false, true} {
			jobs := slotJobs(7, 300, cfg, 1, caps, false)
			var fs Simulator
			fresh, err := fs.Run(jobs, 1, mustPolicy(t, spec))
			if err != nil {
				t.Fatal(err)
			}
			want := append([]float64(nil), fresh.Completion...)
			for _, stop := range []int{1, 40, 150} {
				m := mustPolicy(t, spec).(*LASMQ)
				left := slotJobs(8, 200, cfg, 2, !caps, stop%2 == 0)
				m.Start(left, 2)
				m.Start(left, 2) // Start twice
				for j := 0; j < stop; j++ {
					if next := m.Next(); next <= left[j].Arrival-left[0].Arrival {
						m.Advance(next, func(int) {})
					}
					m.Arrive(left[j].Arrival-left[0].Arrival, j)
				}
				if next := m.Next(); !math.IsInf(next, 1) {
					m.Advance(next, func(int) {}) // one more event, then abandoned
				}
				var s Simulator
				got, err := s.Run(jobs, 1, m)
				if err != nil {
					t.Fatal(err)
				}
				for j := range jobs {
					if math.Float64bits(got.Completion[j]) != math.Float64bits(want[j]) {
						t.Fatalf("%s, caps %v, abandoned after %d arrivals: job %d completes at %v, fresh %v", spec, caps, stop, j, got.Completion[j], want[j])
					}
				}
				if free := slotsFree(m); free != len(m.sl) {
					t.Errorf("%s, caps %v: %d of %d slots free after the run", spec, caps, free, len(m.sl))
				}
			}
		}
	}
}
