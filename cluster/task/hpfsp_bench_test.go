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
	for _, spec := range []string{"hpfsp:fair_limit=2", "hpfsp:fair_limit=0"} {
		benchLarge(b, spec, func(b *testing.B, p Policy, r *Result) {
			b.ReportMetric(float64(p.(*HPFSP).x.Fixes)/float64(r.Decisions), "fixes/decision")
		})
	}
}
