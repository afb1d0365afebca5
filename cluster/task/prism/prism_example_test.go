package prism_test

import (
	"fmt"

	"github.com/schedplan/schedplan/cluster/task/prism"
)

// A heartbeat of one seed 004 §6 machine: two sort jobs (Fig. 8 profile);
// job 0 has nothing running, job 1 runs two map tasks elsewhere and has a
// reduce task paused here for 4 s before its reduce phase.
func ExamplePrismSelector_Select() {
	profiles := prism.DefaultProfiles()
	sort := profiles.For("sort", prism.Vector{}, prism.Vector{})
	mapPhase := sort.Sides[prism.MapSide][0]       // leading phase of a map task
	reducePhase := sort.Sides[prism.ReduceSide][2] // follows shuffle and sort

	machine := prism.Seed004Machine()
	cluster := machine.Scale(10) // DRF shares against the 10-machine cluster
	jobs := []prism.PrismJob{
		{
			Remaining: [prism.NumSides]int{16, 8},
			Starts: []prism.PrismStart{
				{Side: prism.MapSide, Local: true, Count: 2, Demand: mapPhase.DemandOn(true)},
				{Side: prism.MapSide, Local: false, Count: 14, Demand: mapPhase.DemandOn(false)},
			},
		},
		{
			Usage:     mapPhase.DemandOn(true).Scale(2),
			Running:   [prism.NumSides]int{2, 1},
			Remaining: [prism.NumSides]int{2, 8},
			OnMachine: true,
			Paused:    []prism.PrismPaused{{Demand: reducePhase.DemandOn(true), Wait: 4}},
		},
	}
	free := machine.Sub(prism.Vector{prism.CPU: 3.5, prism.Memory: 4, prism.Disk: 60}) // phases already running here
	sel, err := prism.NewPrismSelector(prism.DefaultPrismConfig())
	if err != nil {
		panic(err)
	}
	for _, p := range sel.Select(free, cluster, jobs) {
		fmt.Printf("job %d start %2d paused %2d  U = %7.2f (fairness %+.4f, perf %.2f)  %v\n",
			p.Job, p.Start, p.Paused, p.Utility, p.Fairness, p.Perf, p.Demand)
	}
	// Job 0's first task is worth most (eq. 5 at N_cur = 0); after two
	// local maps its non-local map (0.174 cores) no longer fits the 0.152
	// cores left; the paused reduce phase, 0.1·4² = 1.6, outweighs the
	// fairness it costs.
	//
	// Output:
	// job 0 start  0 paused -1  U = 1584.01 (fairness +0.0112, perf 1584.00)  cpu 0.174 cores, mem 0.108 GB, disk 11.2 MB/s, net 0 MB/s
	// job 0 start  0 paused -1  U =    8.01 (fairness +0.0112, perf 8.00)  cpu 0.174 cores, mem 0.108 GB, disk 11.2 MB/s, net 0 MB/s
	// job 1 start -1 paused  0  U =    1.59 (fairness -0.0106, perf 1.60)  cpu 0.0821 cores, mem 0.186 GB, disk 10.6 MB/s, net 0 MB/s
}
