package tuner

import (
	"github.com/schedplan/schedplan/cluster/sim"
)

// LASMQConfig is a multi-level-queue configuration: k queues, demotion
// thresholds (attained service, in the unit of the job sizes they were tuned
// on: ThresholdUnit, work; the fluid core runs them as they are) and queue
// weights. What YARN, `schedplan yarn-controller` and the task level count
// is held time (UnitHeldContainerSeconds): they get the thresholds ×
// HeldPerUnit.
type LASMQConfig struct {
	K          int       `yaml:"k"`
	Alpha0     float64   `yaml:"alpha0"`
	P          float64   `yaml:"p"`
	Thresholds []float64 `yaml:"thresholds"` // k−1 values: α_0, p·α_0, ... (ThresholdUnit)
	Weights    []float64 `yaml:"weights"`    // k values, highest-priority queue first
	Strict     bool      `yaml:"strict,omitempty"`
	// ThresholdUnit is the unit of Alpha0 and Thresholds: UnitContainerSeconds
	// or UnitClusterSeconds; ContainerSecondsPerUnit converts it to
	// reference-container-seconds of work (1, or the cluster's capacity in
	// reference containers). Empty: derived from the trace's size source
	// (see Bundle.ThresholdUnit).
	ThresholdUnit           string  `yaml:"threshold_unit,omitempty"`
	ContainerSecondsPerUnit float64 `yaml:"container_seconds_per_unit,omitempty"`
	// HeldPerUnit converts Alpha0 and Thresholds to held container-seconds
	// (containers × seconds held: YARN's memorySeconds / container MB, the
	// unit of capacity-scheduler.xml's demote-after-held-container-seconds
	// properties and of the task level): the cluster's containers / the
	// capacity the thresholds were tuned at (HeldPerUnit). 0: derived
	// (Bundle.HeldPerUnit).
	HeldPerUnit float64 `yaml:"held_container_seconds_per_unit,omitempty"`
	// Order is the order inside a queue: fifo (omitted), ps, remaining or
	// containers.
	Order sim.LevelOrder `yaml:"order,omitempty"`
}

// ConfigOf returns the bundle form of a LAS_MQ configuration.
func ConfigOf(m *sim.LASMQ) *LASMQConfig {
	w := m.Weights
	if w == nil {
		w = sim.DecayWeights(m.K, 1)
	}
	o := m.Order
	if o == sim.OrderFIFO {
		o = ""
	}
	return &LASMQConfig{K: m.K, Alpha0: m.Alpha0, P: m.P, Thresholds: m.Thresholds(), Weights: w, Strict: m.Strict, Order: o}
}

// Policy returns the simulation core's LAS_MQ with this configuration.
func (l *LASMQConfig) Policy() *sim.LASMQ {
	return &sim.LASMQ{K: l.K, Alpha0: l.Alpha0, P: l.P, Weights: l.Weights, Strict: l.Strict, Order: l.Order}
}

// Spec returns the configuration as a policy specification for
// sim.ParsePolicy (and simulate --policy).
func (l *LASMQConfig) Spec() string { return l.Policy().Spec() }

// UnitHeldContainerSeconds is the unit every consumer of the emitted LAS_MQ
// thresholds counts attained service in: containers × seconds held. YARN's
// memorySeconds / the container's MB (`schedplan yarn-controller`), the
// task-level simulation's service (task.State.Service) and the
// capacity-scheduler.xml's demotion properties are all in it. A task of
// base duration d (reference-container-seconds of work) holds its
// container d / exec_rate seconds, so held time is not work on a cluster
// whose exec_rates are not all 1.
const UnitHeldContainerSeconds = "held container-seconds"
