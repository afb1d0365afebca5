package task

import (
	"slices"
	"testing"
	"time"
)

// BenchmarkPrismHeartbeat times PRISM's decision at one heartbeat through
// the phase layer (PhaseSim.DecidePrism: the machine's view of the jobs
// plus Alg. 1) with 1,000 jobs in the system and k = 20 (seed 004 §5.2,
// §6: "k = 20"). 200 seed 004 machines, 1,000 sort jobs (Fig. 8 profile,
// PUMA Table 2 task counts and times); 199 machines are filled by PRISM
// heartbeats first, the last one (empty) is the one timed. Reports the
// median per heartbeat (target ≤ 1 ms, issue 15).
func BenchmarkPrismHeartbeat(b *testing.B) {
	ms := make([]Vector, 200)
	for i := range ms {
		ms[i] = Seed004Machine()
	}
	batch := make([]MixJob, 1000)
	for i := range batch {
		batch[i] = PUMAMix().Jobs[0] // sort
	}
	jobs, err := MixPhaseJobs(batch, DefaultProfiles(), sortPeak())
	if err != nil {
		b.Fatal(err)
	}
	cfg := PhaseSimConfig{Scheduler: SchedPrism, Machines: ms, Heartbeat: 3, Prism: DefaultPrismConfig()}
	s, err := NewPhaseSim(cfg, jobs)
	if err != nil {
		b.Fatal(err)
	}
	s.reset()
	for j := range jobs {
		s.arrive(j)
	}
	for m := 0; m < len(ms)-1; m++ {
		s.heartbeat(m)
	}
	running := 0
	for j := range s.js {
		if s.js[j].run[MapSide] > 0 {
			running++
		}
	}
	last := len(ms) - 1
	if len(s.DecidePrism(last)) == 0 {
		b.Fatal("the timed machine gets no pick")
	}
	times := make([]float64, 0, b.N)
	b.ResetTimer()
	for range b.N {
		t0 := time.Now()
		s.DecidePrism(last)
		times = append(times, float64(time.Since(t0))/1e6)
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(times[len(times)/2], "ms/heartbeat-median")
	b.ReportMetric(float64(len(s.active)), "jobs")
	b.ReportMetric(float64(running), "jobs-running")
	b.ReportMetric(float64(len(s.DecidePrism(last))), "picks/heartbeat")
}
