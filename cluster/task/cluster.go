package task

import (
	"fmt"
	"math"
)

// MachineType is a set of identical machines (nodes).
type MachineType struct {
	Name string
	// Count is the number of machines of this type.
	Count int
	// Containers is the number of containers per machine.
	Containers int
	// ExecRate is a container's speed: a task of base duration d runs
	// d / ExecRate seconds on it.
	ExecRate float64
	// Label is the YARN node label (partition) of these machines; "" is
	// the default partition. Policies with node labels (Capacity) serve a
	// labelled partition only to queues that have a capacity on it.
	Label string
}

// Cluster is the machines of a task-level simulation and how the scheduler
// meets them.
type Cluster struct {
	Types []MachineType
	// Heartbeat is the node heartbeat interval in seconds. With 0, the
	// scheduler assigns free containers at every event (arrival, task
	// end). With a positive interval, node i (0-based, numbered type by
	// type) asks for work only at its heartbeats, at times
	// Heartbeat·(i/N + k) for k = 0, 1, … (N nodes, staggered as YARN's
	// NodeManagers are), and gets at most MaxAssign containers' worth of
	// tasks per heartbeat (0: as many as fit).
	Heartbeat float64
	MaxAssign int
}

// MaxNodes bounds the machines of a cluster (indices are int32).
const MaxNodes = 1 << 24

// MaxContainers bounds the containers of a machine.
const MaxContainers = 1 << 20

// Validate checks the cluster: at least one machine, positive containers
// and finite positive execution rates, a finite non-negative heartbeat.
func (c *Cluster) Validate() error {
	if len(c.Types) == 0 {
		return fmt.Errorf("cluster: no machine types")
	}
	nodes := 0
	for i, t := range c.Types {
		name := t.Name
		if name == "" {
			name = fmt.Sprintf("#%d", i+1)
		}
		switch {
		case t.Count < 0:
			return fmt.Errorf("cluster: machine type %s: count %d is negative", name, t.Count)
		case t.Containers < 1 || t.Containers > MaxContainers:
			return fmt.Errorf("cluster: machine type %s: %d containers per machine (need 1 to %d)", name, t.Containers, MaxContainers)
		case !(t.ExecRate > 0) || math.IsInf(t.ExecRate, 0):
			return fmt.Errorf("cluster: machine type %s: exec_rate %v is not a finite positive number", name, t.ExecRate)
		}
		if t.Count > MaxNodes-nodes {
			return fmt.Errorf("cluster: more than %d machines", MaxNodes)
		}
		nodes += t.Count
	}
	if nodes == 0 {
		return fmt.Errorf("cluster: no machines (every type has count 0)")
	}
	switch {
	case !(c.Heartbeat >= 0) || math.IsInf(c.Heartbeat, 0):
		return fmt.Errorf("cluster: heartbeat %v is not a finite non-negative number of seconds", c.Heartbeat)
	case c.MaxAssign < 0:
		return fmt.Errorf("cluster: max assign %d is negative", c.MaxAssign)
	}
	return nil
}

// Nodes counts the machines.
func (c *Cluster) Nodes() int {
	n := 0
	for _, t := range c.Types {
		n += t.Count
	}
	return n
}

// Containers counts the containers of all machines.
func (c *Cluster) Containers() int {
	n := 0
	for _, t := range c.Types {
		n += t.Count * t.Containers
	}
	return n
}

// Rate is the cluster's total speed: Σ count × containers × exec_rate, in
// container-seconds of base work per second. The fluid references of a
// task-level run use it as their capacity.
func (c *Cluster) Rate() float64 {
	r := 0.0
	for _, t := range c.Types {
		r += float64(t.Count*t.Containers) * t.ExecRate
	}
	return r
}

// Uniform returns a cluster of n identical machines with the given
// containers each and exec_rate 1.
func Uniform(n, containers int) *Cluster {
	return &Cluster{Types: []MachineType{{Name: "node", Count: n, Containers: containers, ExecRate: 1}}}
}
