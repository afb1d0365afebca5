package sim

import (
	"fmt"
	"testing"
)

// BenchmarkPFSPScale runs PFSP on n synthetic jobs (Weibull(0.5) sizes,
// Poisson arrivals, σ = 0.5 log-normal estimates) at offered loads 0.9, 1.0
// and 1.2 and reports ns/event and seconds per run, to show how the cost
// per event grows with n, overload included (validation's load curves run
// every policy at load factors that push the offered load past 1).
// Overloaded, the cost per event grows about linearly in n (see PFSP):
// load=1.2/n=1000000 takes many minutes.
// Run: go test ./cluster/sim -run '^$' -bench PFSPScale -benchtime 1x -timeout 60m
func BenchmarkPFSPScale(b *testing.B) {
	for _, load := range []float64{0.9, 1.0, 1.2} {
		for _, n := range []int{10_000, 100_000, 300_000, 1_000_000} {
			b.Run(fmt.Sprintf("load=%.1f/n=%d", load, n), func(b *testing.B) {
				jobs := synthetic(n, load, 0.5, 1)
				var sim Simulator
				p := &PFSP{}
				events := 0
				b.ResetTimer()
				for b.Loop() {
					r, err := sim.Run(jobs, 1, p)
					if err != nil {
						b.Fatal(err)
					}
					events = r.Events
				}
				sec := b.Elapsed().Seconds() / float64(b.N)
				b.ReportMetric(float64(events), "events/run")
				b.ReportMetric(sec*1e9/float64(events), "ns/event")
				b.ReportMetric(sec, "s/run")
			})
		}
	}
}
