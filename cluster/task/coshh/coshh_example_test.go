package coshh_test

import (
	"fmt"

	"github.com/schedplan/schedplan/cluster/task/coshh"
)

// How a task-level COSHH policy drives the router: seed 003 §3.2's LP
// example (SC_1 = {C2}, SC_2 = {C1, C2}) with two users, one of them with a
// min share of one container.
func ExampleCOSHHRouter() {
	plan := &coshh.COSHHPlan{
		// Primary: the jobs of users with a min share (one class,
		// suggested on R2 only).
		Primary: coshh.COSHHClasses{Centres: [][]float64{{0}}, Radius: []float64{10}, Suggested: [][]int{{}, {0}}},
		// Secondary: every job; C1 near 0, C2 near 5.
		Secondary: coshh.COSHHClasses{Centres: [][]float64{{0}, {5}}, Radius: []float64{1, 1},
			Suggested: [][]int{{1}, {0, 1}}},
	}
	r, err := coshh.NewCOSHHRouter(coshh.COSHHConfig{
		Users:    []coshh.COSHHUser{{MinShare: 0, Weight: 1}, {MinShare: 1, Weight: 1}},
		Machines: []int{1, 1},
		Plan:     plan,
	})
	if err != nil {
		panic(err)
	}
	// Alg. 1 on each arrival (feature vectors in each classification's
	// space), then the job waits for containers.
	for job, a := range []struct {
		user int
		x    float64
	}{{0, 0.2}, {0, 5.1}, {1, 0.1}} {
		if err := r.Arrive(job, a.user, []float64{a.x}, []float64{a.x}); err != nil {
			panic(err)
		}
		r.Waiting(job, true)
	}
	// Alg. 2 on free containers of type R1, then R2; each pick starts a task.
	for _, t := range []int{0, 1, 1} {
		job, stage := r.Pick(t)
		r.Started(job, 1)
		_, class := r.Class(job)
		fmt.Printf("R%d: job %d (C%d) by the %v stage\n", t+1, job, class+1, stage)
	}
	// Output:
	// R1: job 1 (C2) by the fair stage
	// R2: job 2 (C1) by the min-share stage
	// R2: job 0 (C1) by the fair stage
}
