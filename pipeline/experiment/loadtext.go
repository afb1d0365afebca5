package experiment

import (
	"fmt"
	"math"
)

// Every simulated view states the offered load it ran at: the work its jobs
// bring over the work its server or cluster can do while they arrive (its
// window's arrival span). Above 1 no scheduler keeps up: queues grow with
// the window's length and the means measure that length more than the
// scheduler (OverloadNote). The views differ in what a job's work and the
// cluster's rate are (the definitions below).
const (
	// FluidLoadDef defines the fluid views' load (OfferedLoad): the
	// validation table, the load curve, simulate.
	FluidLoadDef = "Σ size ÷ (capacity × arrival span)"
	// TaskLoadDef defines the task-level table's load: its jobs run in the
	// execution-time model (ExecTimeLoad, LoadModel), which is the plain
	// container-seconds ÷ (rate × span) on a spec without memories or
	// retrieve rates.
	TaskLoadDef = "Σ container-seconds ÷ (the cluster's container-seconds/s at each job's speed on each machine type in the execution-time model × arrival span)"
	// ExecLoadDef defines the load of the rows simulated with COSHH's
	// execution-time model (ExecTimeLoad).
	ExecLoadDef = "Σ over jobs of the job's container-seconds ÷ the rate of all the cluster's containers at the speed the execution-time model gives the job on each machine type, over the arrival span"
)

// LoadText is a load as the tables print it: three significant figures,
// "undefined" when it is not finite (one arrival instant).
func LoadText(load float64) string {
	if math.IsNaN(load) || math.IsInf(load, 0) {
		return "undefined"
	}
	return fmt.Sprintf("%.3g", load)
}

// LoadOf reads a stated load back (NaN when undefined).
func LoadOf(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

// OverloadNote says, when load > 1, that a view's means are of an
// overloaded system ("" otherwise).
func OverloadNote(load float64) string {
	if !(load > 1) {
		return ""
	}
	return fmt.Sprintf("OVERLOADED (offered load %s > 1): queues grow with the window's length, and the means are of an overloaded system — they measure the window's length more than the scheduler", LoadText(load))
}

// LoadSentence states a view's load: "offered load X (definition)", and
// the overload note when it is above 1.
func LoadSentence(load float64, def string) string {
	s := fmt.Sprintf("offered load %s (%s)", LoadText(load), def)
	if n := OverloadNote(load); n != "" {
		s += ". " + n
	}
	return s
}

// LoadCell is a row's load in a table: the figure, marked when above 1.
func LoadCell(load float64) string {
	if load > 1 {
		return LoadText(load) + " OVERLOADED"
	}
	return LoadText(load)
}
