package bundle

import (
	"fmt"
	"math"

	"github.com/schedplan/schedplan/pipeline/tuner"
)

// HeldPerUnit is the one conversion of LAS_MQ thresholds from the unit the
// fluid tuner measured them in (the job sizes' unit, served at capacity
// units per second by the whole cluster) to UnitHeldContainerSeconds on a
// cluster of the given number of containers: containers / capacity.
//
// Why containers / capacity: the fluid server is the whole cluster, and a
// job that gets a share s of it for a second gets s × capacity units of
// service while holding s of every container, s × containers
// container-seconds. The fluid model is scale-invariant (sizes, capacity
// and thresholds all × c give the same schedule), so thresholds × this
// factor are the tuned thresholds "in held time" exactly.
//
// Heterogeneous exec_rate: on the default spec (48 containers at exec_rate
// 1, 6 at 0.01; 48.06 reference containers) one container-second of work
// holds containers / capacity = 54 / 48.06 = 1.124 container-seconds: the
// cluster-wide ratio of time held to work done whenever every container is
// busy (each container then does work at its own exec_rate), and the
// fluid model's own accounting. A single task holds work / its container's
// exec_rate (1 on a fast container of this spec, 100 on a slow one); a job
// whose tasks all run on the fastest machines (the task level offers
// machines fastest first) holds less per unit of work than the ratio says,
// one whose tasks land on slow ones more. Measured at task level on the
// validation windows (Fair, FIFO and the tuned LAS_MQ alike): Σ held /
// Σ work was 1.25–1.26 on the embedded trace and 1.15–1.16 on a 20-user
// 100,000-job log, at or above this 1.124, but per job it is bimodal —
// 99.4–99.8% of the jobs ran on exec_rate-1 containers only and held
// exactly their work, and the few with a task on a 0.01 container held up
// to 100× it. So for the typical job these thresholds demote after 1.124×
// the work the fluid tuner chose. That spread is the fluid model's
// approximation of the machines (every job spread over every container),
// not a unit: no single factor is right for every job, this one is right
// for the cluster as a whole and for the fluid model, and the tune-deploy
// stage (TuneDeploy) replays thresholds × DeployMultipliers at task level.
func HeldPerUnit(capacity float64, containers int) (float64, error) {
	if !(capacity > 0) || math.IsInf(capacity, 0) {
		return 0, fmt.Errorf("capacity %v: need a finite positive number of size units per second to convert LAS_MQ thresholds to %s", capacity, tuner.UnitHeldContainerSeconds)
	}
	if containers < 1 {
		return 0, fmt.Errorf("%d containers: need at least one to convert LAS_MQ thresholds to %s", containers, tuner.UnitHeldContainerSeconds)
	}
	h := float64(containers) / capacity
	if math.IsInf(h, 0) {
		return 0, fmt.Errorf("%d containers / capacity %v overflows", containers, capacity)
	}
	return h, nil
}

// Containers counts the containers of the bundle's cluster (Σ count × slots).
func (c *ClusterInfo) Containers() int {
	n := 0
	for _, r := range c.Resources {
		n += r.Count * r.Slots
	}
	return n
}

// HeldPerUnit returns the held container-seconds in one unit of the LAS_MQ
// thresholds (UnitHeldContainerSeconds; see HeldPerUnit): the bundle's
// las_mq.held_container_seconds_per_unit when set (run writes it from the
// capacity it tuned at), else derived from the threshold unit and the
// bundle's cluster: one unit is container_seconds_per_unit
// reference-container-seconds, and the cluster serves cluster.capacity
// of them per second with its containers.
func (b *Bundle) HeldPerUnit() (float64, error) {
	if l := b.LASMQ; l != nil && l.HeldPerUnit != 0 {
		if !(l.HeldPerUnit > 0) || math.IsInf(l.HeldPerUnit, 0) {
			return 0, fmt.Errorf("las_mq.held_container_seconds_per_unit: %v is not a positive number", l.HeldPerUnit)
		}
		return l.HeldPerUnit, nil
	}
	_, per, err := b.ThresholdUnit()
	if err != nil {
		return 0, err
	}
	h, err := HeldPerUnit(b.Cluster.Capacity/per, b.Cluster.Containers())
	if err != nil {
		return 0, fmt.Errorf("las_mq: cluster.capacity %v reference containers, %d containers (cluster.resources): %w", b.Cluster.Capacity, b.Cluster.Containers(), err)
	}
	return h, nil
}

// DeployedText is report.html's sentence on the emitted LAS_MQ thresholds:
// in held container-seconds, and the run's verdict ("": no LAS_MQ
// section).
func (b *Bundle) DeployedText() string {
	l := b.LASMQ
	if l == nil {
		return ""
	}
	s := ""
	if h, err := b.HeldPerUnit(); err == nil && len(l.Thresholds) > 0 {
		s = " Emitted thresholds: " + tuner.ThresholdsText(l.Thresholds, h) + "."
	}
	if d := b.Deploy; d != nil {
		s += " " + d.Text()
	}
	return s
}
