package task

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user + system CPU time: on a shared machine it
// measures a run's work better than the wall clock.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// largeWorkload is issue 12's scale: 100,000 map-reduce jobs averaging 100
// tasks (80 maps on 1 container, 20 reduces on 2, counts uniform around
// those means) with skewed durations (mean 30 s maps, 60 s reduces), 20
// users in 4 queues, Poisson arrivals at load 0.9 on 1,000 machines of 10
// containers.
func largeWorkload() ([]Job, *Cluster) { return mrWorkload(100000, 1000, 12) }

// mrWorkload is n jobs of largeWorkload's kind on machines machines of 10
// containers, drawn with seed.
func mrWorkload(n, machines int, seed uint64) ([]Job, *Cluster) {
	cl := Uniform(machines, 10)
	rng := rand.New(rand.NewPCG(seed, seed))
	shapes := make([]Shape, n)
	work := 0.0
	for i := range shapes {
		m, r := 1+rng.IntN(159), rng.IntN(41)
		shapes[i] = Shape{MapTasks: m, ReduceTasks: r, MapSeconds: 30 * float64(m), ReduceSeconds: 60 * float64(r),
			User: fmt.Sprintf("u%d", rng.IntN(20)), Queue: string(rune('a' + rng.IntN(4)))}
		work += 30*float64(m) + 2*60*float64(r)
	}
	t := 0.0
	for i := range shapes {
		t += rng.ExpFloat64() * work / float64(n) / (0.9 * cl.Rate())
		shapes[i].Arrival = t
	}
	jobs, err := Synthesize(shapes, SynthOptions{Skew: 0.5, Seed: seed})
	if err != nil {
		panic(err)
	}
	return jobs, cl
}

var large = sync.OnceValues(largeWorkload)

// BenchmarkLarge runs issue 12's benchmark (≈10 M task events; target ≤
// 20 s per policy on one core) and reports the wall and CPU seconds per
// run and the scheduling overhead per decision (wall-clock ns, which a
// busy machine inflates). Run with -bench Large -benchtime 1x.
func BenchmarkLarge(b *testing.B) {
	for _, spec := range []string{"fifo", "fair", "capacity:queues=a:40/b:30/c:20/d:10,ulf=2", "las_mq:limit=0"} {
		benchLarge(b, spec, nil)
	}
}

// benchLarge runs spec on the large workload as a sub-benchmark and
// reports its figures; extra, if set, reports the policy's own.
func benchLarge(b *testing.B, spec string, extra func(b *testing.B, p Policy, r *Result)) {
	p, err := ParsePolicy(spec)
	if err != nil {
		b.Fatal(err)
	}
	benchLargePolicy(b, spec, func() Policy { return p }, extra)
}

// benchLargePolicy is benchLarge for a policy built by mk.
func benchLargePolicy(b *testing.B, name string, mk func() Policy, extra func(b *testing.B, p Policy, r *Result)) {
	jobs, cl := large()
	benchPolicy(b, name, mk, jobs, cl, extra)
}

// BenchmarkLargeCapacityLevels is the Capacity Scheduler as schedplan
// emits it: under each of four class queues, LAS_MQ levels l0 (capacity
// 100, fair ordering-policy, demotion after 200 container-seconds) and l1
// (capacity 0), users sharing each leaf evenly (minimum-user-limit-percent
// 1).
func BenchmarkLargeCapacityLevels(b *testing.B) {
	jobs, cl := large()
	root := CapacityQueue{}
	for k, q := range []string{"a", "b", "c", "d"} {
		root.Children = append(root.Children, CapacityQueue{Name: q, Capacity: float64(40 - 10*k), Children: []CapacityQueue{
			{Name: q + "_l0", Capacity: 100, UserLimitFactor: -1, MinUserLimitPercent: 1, FairOrder: true, DemoteAfter: 200, DemoteTo: q + "_l1"},
			{Name: q + "_l1", UserLimitFactor: -1, MinUserLimitPercent: 1, FairOrder: true}}})
	}
	leveled := append([]Job(nil), jobs...)
	for i := range leveled {
		leveled[i].Queue += "_l0"
	}
	benchPolicy(b, "capacity levels", func() Policy { return &Capacity{Root: root} }, leveled, cl, nil)
}

// benchPolicy runs the policy mk builds on the jobs as a sub-benchmark and
// reports its figures; extra, if set, reports the policy's own.
func benchPolicy(b *testing.B, name string, mk func() Policy, jobs []Job, cl *Cluster, extra func(b *testing.B, p Policy, r *Result)) {
	b.Run(name, func(b *testing.B) {
		p := mk()
		var err error
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
		b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/run")
		b.ReportMetric((cpuTime()-c0).Seconds()/float64(b.N), "cpu-s/run")
		if extra != nil {
			extra(b, p, r)
		}
	})
}

// BenchmarkTaskEvents runs every registered task-level policy, with its
// defaults, on the large workload (≈10 M task events: 100,000 jobs, ≈10 M
// tasks; target ≤ 10 s per policy) and reports events per second beside
// benchPolicy's figures. COSHH runs in its own package with a one-class
// plan (BenchmarkCOSHHTaskEvents); Capacity with the workload's four
// queues. Run alone
// with -run '^$' -bench TaskEvents -benchtime 1x.
func BenchmarkTaskEvents(b *testing.B) {
	jobs, cl := large()
	for _, name := range PolicyNames() {
		mk := func() Policy {
			p, err := NewPolicy(name, nil)
			if err != nil {
				b.Fatal(err)
			}
			return p
		}
		switch name {
		case "capacity":
			mk = func() Policy {
				p, err := ParsePolicy("capacity:queues=a:25/b:25/c:25/d:25")
				if err != nil {
					b.Fatal(err)
				}
				return p
			}
		case "coshh":
			continue // its plan comes from the pipeline: BenchmarkCOSHHTaskEvents (package coshh)
		}
		benchPolicy(b, name, mk, jobs, cl, func(b *testing.B, _ Policy, r *Result) {
			b.ReportMetric(float64(r.Events)/(b.Elapsed().Seconds()/float64(b.N)), "events/s")
		})
	}
}
