package coshh

import (
	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/cluster/task"
)

// init adds "coshh" to the task-level registry (task.Register), so that
// task.ParsePolicy("coshh:tolerance=0.5") resolves in every program that
// imports this package.
func init() {
	task.Register("coshh", "COSHH (seed 003, Alg. 1-2): routes by the LP's suggested classes per machine type; tolerance (re-classification, default 0.5); its plan comes from the pipeline (pipeline.NewCOSHHPolicy)", sim.Uses{Estimates: true, Cluster: true}, makeCOSHH)
}
