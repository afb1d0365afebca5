package tasklevel

import "github.com/schedplan/schedplan/cluster/sim"

// TaskLASMQ returns a tuned LAS_MQ as the task level runs it: its
// thresholds × held (held container-seconds per unit of the sizes it was
// tuned on, HeldPerUnit: the task level's service is containers × seconds
// held) and, for order=ps, seed 000's own order by the containers the
// remaining tasks need (containers are discrete: no processor sharing
// inside a level at task level).
//
// Its Spec says limit=0 (no admission limit) explicitly, so that the task
// level never runs it under seed 000's testbed limit of 30 jobs (limit=30,
// or the engine's Options.AdmitLimit): the fluid tuner chose the thresholds
// without such a limit and the emitted capacity-scheduler.xml has none
// (maximum-applications 10000). With the 30-job limit the tuned
// configuration is not what was tuned: on a 20-user synthetic log at load
// 0.9 it made the mean response 2,409 s against 37.8 s without.
func TaskLASMQ(m *sim.LASMQ, held float64) TaskLASMQPolicy {
	m.Alpha0 *= held
	if m.Order == sim.OrderPS {
		m.Order = sim.OrderRemaining
	}
	return TaskLASMQPolicy{m}
}

// TaskLASMQPolicy is a fluid LAS_MQ configuration run at task level without
// an admission limit (see TaskLASMQ).
type TaskLASMQPolicy struct{ *sim.LASMQ }

// Spec is the task-level policy specification.
func (m TaskLASMQPolicy) Spec() string { return m.LASMQ.Spec() + ",limit=0" }
