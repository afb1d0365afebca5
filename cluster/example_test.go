package cluster_test

import (
	"fmt"

	"github.com/schedplan/schedplan/cluster"
)

// Seed 000's Fig. 1 under LAS and under strict LAS_MQ with two queues. PS
// would finish A at 8, B at 9 and C at 5, so LAS misses A's deadline.
func ExampleSimulator() {
	jobs := []cluster.Job{
		{Arrival: 0, Size: 4, Estimate: 4}, // A
		{Arrival: 1, Size: 4, Estimate: 4}, // B
		{Arrival: 2, Size: 1, Estimate: 1}, // C
	}
	deadlines, _ := cluster.PSCompletions(jobs, 1)
	var sim cluster.Simulator // reuse for many runs: no per-run buffers
	var m cluster.Metrics
	for _, spec := range []string{"las", "las_mq:k=2,alpha0=1,strict=true"} {
		p, err := cluster.ParsePolicy(spec)
		if err != nil {
			panic(err)
		}
		r, err := sim.Run(jobs, 1, p)
		if err != nil {
			panic(err)
		}
		s := m.Compute(jobs, r.Completion, 1, deadlines)
		fmt.Printf("%-31s responses %v, mean %.3g, missed PS deadlines %d\n", spec, m.Response, s.Response.Mean, s.Missed)
	}
	// Output:
	// las                             responses [9 8 1], mean 6, missed PS deadlines 1
	// las_mq:k=2,alpha0=1,strict=true responses [6 8 1], mean 5, missed PS deadlines 0
}
