package sim

import (
	"sync"
	"testing"
)

var (
	loopOnce sync.Once
	loopJobs []Job
)

// BenchmarkLoopWindow runs the event loop (Simulator.Run) with LAS_MQ as
// validation and tuning run it (the tuned shape: decay weights, PS in a
// level; Hu et al.'s default, FIFO in a level for jobs without container
// counts; the remaining-work order) and with the policies whose own cost
// is small beside the loop's (FIFO, GPS, SRPT), on a window of 300,000
// synthetic jobs: Weibull(0.5) sizes, Poisson arrivals at load 0.9,
// σ = 0.5 estimates. It reports the process's CPU time per run and per
// event besides the wall time, which on a shared machine is steadier.
func BenchmarkLoopWindow(b *testing.B) {
	loopOnce.Do(func() { loopJobs = synthetic(300_000, 0.9, 0.5, 7) })
	for _, spec := range []string{
		"las_mq:k=6,alpha0=0.17,p=2.66,decay=0.5,order=ps",
		"las_mq:k=10,alpha0=1,p=10,order=containers",
		"las_mq:k=6,alpha0=0.17,p=2.66,decay=0.5,order=remaining",
		"fifo", "gps", "srpt",
	} {
		b.Run(spec, func(b *testing.B) {
			var s Simulator
			p := mustPolicy(b, spec)
			events := 0
			cpu0 := cpuSeconds()
			for b.Loop() {
				r, err := s.Run(loopJobs, 1, p)
				if err != nil {
					b.Fatal(err)
				}
				events = r.Events
			}
			cpu := (cpuSeconds() - cpu0) / float64(b.N)
			b.ReportMetric(cpu*1e3, "cpu-ms/op")
			b.ReportMetric(cpu*1e9/float64(events), "cpu-ns/event")
		})
	}
}
