package sim_test

import (
	"fmt"

	"github.com/schedplan/schedplan/cluster/sim"
)

// Seed 000's Fig. 1 under LAS and under strict LAS_MQ with two queues. PS
// would finish A at 8, B at 9 and C at 5, so LAS misses A's deadline.
func ExampleSimulator() {
	jobs := []sim.Job{
		{Arrival: 0, Size: 4, Estimate: 4}, // A
		{Arrival: 1, Size: 4, Estimate: 4}, // B
		{Arrival: 2, Size: 1, Estimate: 1}, // C
	}
	deadlines, _ := sim.PSCompletions(jobs, 1)
	var s sim.Simulator // reuse for many runs: no per-run buffers
	var m sim.Metrics
	for _, spec := range []string{"las", "las_mq:k=2,alpha0=1,strict=true"} {
		p, err := sim.ParsePolicy(spec)
		if err != nil {
			panic(err)
		}
		r, err := s.Run(jobs, 1, p)
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
