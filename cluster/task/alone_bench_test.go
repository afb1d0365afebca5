package task_test

import (
	"testing"
	"time"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/cluster/task/internal/tasktest"
	"github.com/schedplan/schedplan/internal/cputime"
)

// BenchmarkPSDeadlines times the task-level deadlines on issue 12's
// workload (100,000 jobs, ≈10 M tasks, 10,000 containers): capped fair
// sharing (PSDeadlines, with every job's Alone bound) against the uncapped
// fluid PS it replaced, and reports both in ms per run and their ratio.
// Run with -bench PSDeadlines -benchtime 3x.
func BenchmarkPSDeadlines(b *testing.B) {
	jobs, cl := tasktest.Large()
	var capped, plain time.Duration
	for b.Loop() {
		t0 := time.Now()
		if _, err := task.PSDeadlines(jobs, cl); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		if _, err := sim.Simulate(task.FluidJobs(jobs), cl.Rate(), &sim.PS{}); err != nil {
			b.Fatal(err)
		}
		capped, plain = capped+t1.Sub(t0), plain+time.Since(t1)
	}
	n := float64(b.N)
	b.ReportMetric(float64(capped.Milliseconds())/n, "capped-ms/op")
	b.ReportMetric(float64(plain.Milliseconds())/n, "uncapped-ms/op")
	b.ReportMetric(float64(capped)/float64(plain), "ratio")
}

// BenchmarkAloneTimes times every job's simulated time alone on issue 12's
// workload (100,000 jobs, ≈10 M tasks, 1,000 machines): one small
// simulation per job, against BenchmarkTaskEvents' full runs. Run with
// -run '^$' -bench AloneTimes -benchtime 1x.
func BenchmarkAloneTimes(b *testing.B) {
	jobs, cl := tasktest.Large()
	c0 := cputime.Self()
	for b.Loop() {
		if _, err := task.AloneTimes(jobs, cl, task.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/run")
	b.ReportMetric((cputime.Self()-c0).Seconds()/float64(b.N), "cpu-s/run")
}
