package task_test

import (
	"testing"

	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/cluster/task/coshh"
	"github.com/schedplan/schedplan/cluster/task/internal/tasktest"
)

// BenchmarkLarge runs issue 12's benchmark (≈10 M task events; target ≤
// 20 s per policy on one core) and reports the wall and CPU seconds per
// run and the scheduling overhead per decision (wall-clock ns, which a
// busy machine inflates). Run with -bench Large -benchtime 1x.
func BenchmarkLarge(b *testing.B) {
	for _, spec := range []string{"fifo", "fair", "capacity:queues=a:40/b:30/c:20/d:10,ulf=2", "las_mq:limit=0"} {
		tasktest.BenchLarge(b, spec, nil)
	}
}

// BenchmarkLargeCapacityLevels is the Capacity Scheduler as schedplan
// emits it: under each of four class queues, LAS_MQ levels l0 (capacity
// 100, fair ordering-policy, demotion after 200 container-seconds) and l1
// (capacity 0), users sharing each leaf evenly (minimum-user-limit-percent
// 1).
func BenchmarkLargeCapacityLevels(b *testing.B) {
	jobs, cl := tasktest.Large()
	root := task.CapacityQueue{}
	for k, q := range []string{"a", "b", "c", "d"} {
		root.Children = append(root.Children, task.CapacityQueue{Name: q, Capacity: float64(40 - 10*k), Children: []task.CapacityQueue{
			{Name: q + "_l0", Capacity: 100, UserLimitFactor: -1, MinUserLimitPercent: 1, FairOrder: true, DemoteAfter: 200, DemoteTo: q + "_l1"},
			{Name: q + "_l1", UserLimitFactor: -1, MinUserLimitPercent: 1, FairOrder: true}}})
	}
	leveled := append([]task.Job(nil), jobs...)
	for i := range leveled {
		leveled[i].Queue += "_l0"
	}
	tasktest.BenchPolicy(b, "capacity levels", func() task.Policy { return &task.Capacity{Root: root} }, leveled, cl, nil)
}

// BenchmarkTaskEvents runs every registered task-level policy, with its
// defaults, on the large workload (≈10 M task events: 100,000 jobs, ≈10 M
// tasks; target ≤ 10 s per policy) and reports events per second beside
// tasktest.BenchPolicy's figures. COSHH runs with a one-class plan (its
// plan comes from the pipeline); Capacity with the workload's four queues.
// Run alone with -run '^$' -bench TaskEvents -benchtime 1x.
func BenchmarkTaskEvents(b *testing.B) {
	jobs, cl := tasktest.Large()
	for _, name := range task.PolicyNames() {
		mk := func() task.Policy {
			p, err := task.NewPolicy(name, nil)
			if err != nil {
				b.Fatal(err)
			}
			return p
		}
		switch name {
		case "capacity":
			mk = func() task.Policy {
				p, err := task.ParsePolicy("capacity:queues=a:25/b:25/c:25/d:25")
				if err != nil {
					b.Fatal(err)
				}
				return p
			}
		case "coshh":
			x2 := make([][]float64, len(jobs))
			for i := range x2 {
				x2[i] = []float64{0}
			}
			mk = func() task.Policy {
				return &coshh.COSHH{Plan: &coshh.COSHHPlan{Secondary: coshh.COSHHClasses{Centres: [][]float64{{0}}, Suggested: [][]int{{0}}}}, X2: x2}
			}
		}
		tasktest.BenchPolicy(b, name, mk, jobs, cl, func(b *testing.B, _ task.Policy, r *task.Result) {
			b.ReportMetric(float64(r.Events)/(b.Elapsed().Seconds()/float64(b.N)), "events/s")
		})
	}
}
