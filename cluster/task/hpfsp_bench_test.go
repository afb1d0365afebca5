package task

import "testing"

// BenchmarkLargeHPFSP runs issue 12's benchmark workload (100,000 jobs,
// ≈10 M tasks, 1,000 machines of 10 containers; largeWorkload) under
// H-PFSP (issue 14's target: ≤ 20 s per run on one core) and reports the
// wall and CPU seconds per run, the scheduling overhead per decision
// (wall-clock ns, which a busy machine inflates) and the slack system's
// kinetic recomputations per decision. Run with -bench LargeHPFSP
// -benchtime 1x -cpu 1.
func BenchmarkLargeHPFSP(b *testing.B) {
	jobs, cl := large()
	for _, spec := range []string{"hpfsp:fair_limit=2", "hpfsp:fair_limit=0"} {
		b.Run(spec, func(b *testing.B) {
			p, err := ParsePolicy(spec)
			if err != nil {
				b.Fatal(err)
			}
			var s Simulator
			var r *Result
			c0 := cpuTime()
			for b.Loop() {
				if r, err = s.Run(jobs, cl, p, Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(r.Tasks), "tasks")
			b.ReportMetric(float64(r.Events), "events")
			b.ReportMetric(r.OverheadPerDecision(), "ns/decision")
			b.ReportMetric(float64(p.(*HPFSP).x.Fixes)/float64(r.Decisions), "fixes/decision")
			b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/run")
			b.ReportMetric((cpuTime()-c0).Seconds()/float64(b.N), "cpu-s/run")
		})
	}
}
