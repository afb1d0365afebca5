package cluster

import (
	"fmt"
	"math"
)

// Names of the built-in cluster specs --cluster accepts besides a file.
const (
	// DefaultName names Table3Name's spec (seed 003 Table 3), kept for
	// configurations written when it was the default; the default is now
	// AutoName.
	DefaultName = "default"
	// Table3Name is the six heterogeneous machines of Rasooli and Down's
	// COSHH, Table 3 (one machine each), kept by name for the paper's
	// experiments.
	Table3Name = "coshh-table3"
	// AutoName asks for a homogeneous cluster sized to the log (AutoSpec);
	// LoadSpec returns AutoSpec's one-machine form, which the reader of the
	// log resizes.
	AutoName = "auto"
)

// Auto cluster shape: AutoSlots containers per machine at exec_rate 1, sized
// so that the log's load is AutoLoad.
const (
	AutoSlots = 8
	AutoLoad  = 0.7
)

// AutoSpec returns the smallest homogeneous cluster (machines of AutoSlots
// containers at exec_rate 1, no memory or retrieval rate: the execution-time
// model is the plain one) on which work container-seconds arriving over
// span seconds are at most load (AutoLoad when 0): ⌈work / (span · slots ·
// load)⌉ machines, at least one. how says where the work comes from, for
// the spec's name. A span or work that is not a finite positive number
// gives one machine.
func AutoSpec(work, span, load float64, how string) *Spec {
	if load == 0 {
		load = AutoLoad
	}
	n := 1.0
	if work > 0 && span > 0 && !math.IsInf(work, 0) && !math.IsInf(span, 0) {
		n = math.Max(1, math.Ceil(work/(span*AutoSlots*load)))
	}
	n = math.Min(n, float64(MaxContainers/AutoSlots))
	s := &Spec{Version: SpecVersion, Resources: []ResourceType{{Name: "node", Count: int(n), Slots: AutoSlots, ExecRate: 1}}}
	s.Name = fmt.Sprintf("auto: %d machines × %d containers, sized for offered load %g on %s (pass --cluster to describe yours)", int(n), AutoSlots, load, how)
	return s
}

// AutoSpecOf returns AutoSpec for n containers' worth of a cluster (the
// machines that hold at least n containers); for logs whose load does not
// depend on the cluster (sizes normalised to a load).
func AutoSpecOf(containers int, how string) *Spec {
	n := max(1, (containers+AutoSlots-1)/AutoSlots)
	s := &Spec{Version: SpecVersion, Resources: []ResourceType{{Name: "node", Count: n, Slots: AutoSlots, ExecRate: 1}}}
	s.Name = fmt.Sprintf("auto: %d machines × %d containers, %s (pass --cluster to describe yours)", n, AutoSlots, how)
	return s
}
