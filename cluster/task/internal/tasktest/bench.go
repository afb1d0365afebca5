package tasktest

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/internal/cputime"
)

// MRWorkload is n map-reduce jobs of issue 12's kind (maps of 1 container
// and reduces of 2, counts uniform around 80 and 20, skewed durations of
// mean 30 s and 60 s, 20 users in 4 queues, Poisson arrivals at load 0.9)
// on machines machines of 10 containers, drawn with seed.
func MRWorkload(n, machines int, seed uint64) ([]task.Job, *task.Cluster) {
	cl := task.Uniform(machines, 10)
	rng := rand.New(rand.NewPCG(seed, seed))
	shapes := make([]task.Shape, n)
	work := 0.0
	for i := range shapes {
		m, r := 1+rng.IntN(159), rng.IntN(41)
		shapes[i] = task.Shape{MapTasks: m, ReduceTasks: r, MapSeconds: 30 * float64(m), ReduceSeconds: 60 * float64(r),
			User: fmt.Sprintf("u%d", rng.IntN(20)), Queue: string(rune('a' + rng.IntN(4)))}
		work += 30*float64(m) + 2*60*float64(r)
	}
	t := 0.0
	for i := range shapes {
		t += rng.ExpFloat64() * work / float64(n) / (0.9 * cl.Rate())
		shapes[i].Arrival = t
	}
	jobs, err := task.Synthesize(shapes, task.SynthOptions{Skew: 0.5, Seed: seed})
	if err != nil {
		panic(err)
	}
	return jobs, cl
}

// Large is issue 12's scale, built once: 100,000 map-reduce jobs
// averaging 100 tasks (MRWorkload; ≈10 M tasks) on 1,000 machines of 10
// containers.
var Large = sync.OnceValues(func() ([]task.Job, *task.Cluster) { return MRWorkload(100000, 1000, 12) })

// BenchLargePolicy is BenchPolicy on Large.
func BenchLargePolicy(b *testing.B, name string, mk func() task.Policy, extra func(b *testing.B, p task.Policy, r *task.Result)) {
	jobs, cl := Large()
	BenchPolicy(b, name, mk, jobs, cl, extra)
}

// BenchPolicy runs the policy mk builds on jobs and cl as a sub-benchmark
// named name and reports tasks, events, the scheduling overhead per
// decision (wall-clock ns, which a busy machine inflates) and the wall and
// CPU seconds per run; extra, if set, reports the policy's own figures.
func BenchPolicy(b *testing.B, name string, mk func() task.Policy, jobs []task.Job, cl *task.Cluster, extra func(b *testing.B, p task.Policy, r *task.Result)) {
	b.Run(name, func(b *testing.B) {
		p := mk()
		var err error
		var s task.Simulator
		var r *task.Result
		c0 := cputime.Self()
		for b.Loop() {
			if r, err = s.Run(jobs, cl, p, task.Options{TimeRounds: true}); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(r.Tasks), "tasks")
		b.ReportMetric(float64(r.Events), "events")
		b.ReportMetric(r.OverheadPerDecision(), "ns/decision")
		b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/run")
		b.ReportMetric((cputime.Self()-c0).Seconds()/float64(b.N), "cpu-s/run")
		if extra != nil {
			extra(b, p, r)
		}
	})
}

// BenchLarge is BenchLargePolicy for a specification (task.ParsePolicy).
func BenchLarge(b *testing.B, spec string, extra func(b *testing.B, p task.Policy, r *task.Result)) {
	p, err := task.ParsePolicy(spec)
	if err != nil {
		b.Fatal(err)
	}
	BenchLargePolicy(b, spec, func() task.Policy { return p }, extra)
}
