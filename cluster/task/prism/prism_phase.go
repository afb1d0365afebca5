package prism

// Phases of MapReduce tasks and per-job-class phase profiles (seed 004
// §2.2, §4, Fig. 8).

import (
	"fmt"
	"math"
)

// Side is the type τ(t) of a task in seed 004 §5.2: map or reduce.
type Side uint8

// The two task types.
const (
	MapSide Side = iota
	ReduceSide
	NumSides
)

// String returns "map" or "reduce".
func (s Side) String() string {
	switch s {
	case MapSide:
		return "map"
	case ReduceSide:
		return "reduce"
	}
	return fmt.Sprintf("Side(%d)", int(s))
}

// PhaseKind is one phase of seed 004 §2.2 (Fig. 1): a map task runs map
// then merge; a reduce task runs shuffle, sort, then reduce.
type PhaseKind uint8

// The five phases, in execution order within their task.
const (
	PhaseMap PhaseKind = iota
	PhaseMerge
	PhaseShuffle
	PhaseSort
	PhaseReduce
	NumPhaseKinds
)

var phaseNames = [NumPhaseKinds]string{"map", "merge", "shuffle", "sort", "reduce"}

// String returns the phase's name as Hadoop (and seed 004) spells it.
func (k PhaseKind) String() string {
	if k >= NumPhaseKinds {
		return fmt.Sprintf("PhaseKind(%d)", int(k))
	}
	return phaseNames[k]
}

// Side returns the type of task the phase belongs to.
func (k PhaseKind) Side() Side {
	if k <= PhaseMerge {
		return MapSide
	}
	return ReduceSide
}

// SidePhases returns the phases of a task of side s, in order: map, merge
// for a map task; shuffle, sort, reduce for a reduce task. The first is the
// task's leading phase (seed 004 §5.2).
func SidePhases(s Side) []PhaseKind {
	if s == MapSide {
		return []PhaseKind{PhaseMap, PhaseMerge}
	}
	return []PhaseKind{PhaseShuffle, PhaseSort, PhaseReduce}
}

// A Phase is a phase of a task with a constant resource demand over its
// duration (seed 004 §1: "a phase ... can be characterized by the uniform
// resource consumption over its duration").
type Phase struct {
	Kind PhaseKind
	// Duration is the phase's running time in seconds at full speed (no
	// contention).
	Duration float64
	// Demand is what the phase uses while it runs, HDFS I/O excluded:
	// cores, GB, local-file-system MB/s (Fig. 8's LFS row) and shuffle
	// network MB/s.
	Demand Vector
	// HDFS is the phase's HDFS I/O in MB/s (Fig. 8's HDFS row). Seed 004
	// §5.2 uses data locality to place it: see DemandOn.
	HDFS float64
}

// DemandOn returns the phase's demand on a machine: HDFS I/O is local disk
// I/O when the task is data-local there and network I/O when it is not
// (seed 004 §5.2: "the scheduler can use the data locality information to
// determine the disk and network usage of each task"). Reduce tasks write
// their output's first replica locally: call with local = true for them.
func (p Phase) DemandOn(local bool) Vector {
	d := p.Demand
	if local {
		d[Disk] += p.HDFS
	} else {
		d[Network] += p.HDFS
	}
	return d
}

// A Profile is the phase-level resource profile of a job class: for each
// side, its phases in order with their durations and demands (seed 004
// Fig. 8). Durations give the phases' proportions; TaskPhases scales them
// to a task's running time.
type Profile struct {
	Class  string // job class, lower case
	Source string // where the numbers come from
	// Fallback is true when the profile was built by FallbackProfile (no
	// phase-level information: every phase has the task's demand).
	Fallback bool
	// Sides holds the phases of a map task and of a reduce task, in the
	// order of SidePhases; a side without phases is a side the class does
	// not have (e.g. a map-only job).
	Sides [NumSides][]Phase
}

// TaskPhases returns the phases of one task of side s that runs for
// taskDuration seconds at full speed: the profile's phases with their
// durations scaled in proportion so that they sum to taskDuration, demands
// unchanged. The phases are appended to dst.
func (p *Profile) TaskPhases(dst []Phase, s Side, taskDuration float64) ([]Phase, error) {
	if s >= NumSides {
		return dst, fmt.Errorf("profile %q: no task side %d", p.Class, int(s))
	}
	ph := p.Sides[s]
	if len(ph) == 0 {
		return dst, fmt.Errorf("profile %q: class has no %s phases", p.Class, s)
	}
	if math.IsNaN(taskDuration) || taskDuration < 0 || math.IsInf(taskDuration, 0) {
		return dst, fmt.Errorf("profile %q: %s task duration must be a finite number ≥ 0 s, got %v", p.Class, s, taskDuration)
	}
	total := 0.0
	for _, x := range ph {
		total += x.Duration
	}
	for _, x := range ph {
		if total > 0 {
			x.Duration = taskDuration * (x.Duration / total)
		} else {
			x.Duration = taskDuration / float64(len(ph))
		}
		dst = append(dst, x)
	}
	return dst, nil
}

// FallbackProfile is seed 004 §4's fallback for a job class without a
// profile: "each phase has the same resource requirement as the task
// itself" — every map-side phase demands mapTask and every reduce-side
// phase reduceTask (the task-level, YARN-style demand). Phase durations
// (their proportions: only proportions matter, see TaskPhases) are copied
// from shape when it has the side, else the side's phases split the task
// equally. The HDFS component is 0: the task-level demand is placed as
// given whatever the locality.
func FallbackProfile(class string, mapTask, reduceTask Vector, shape *Profile) Profile {
	p := Profile{Class: class, Fallback: true, Source: "fallback: task-level demand for every phase (seed 004 §4)"}
	for s, demand := range [NumSides]Vector{mapTask, reduceTask} {
		kinds := SidePhases(Side(s))
		ph := make([]Phase, len(kinds))
		for i, k := range kinds {
			ph[i] = Phase{Kind: k, Duration: 1, Demand: demand}
			if shape != nil && len(shape.Sides[s]) == len(kinds) {
				ph[i].Duration = shape.Sides[s][i].Duration
			}
		}
		p.Sides[s] = ph
	}
	return p
}
