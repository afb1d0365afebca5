package sim

// Reach returns the configuration of m cut to the queues that a job of
// size at most maxSize can reach: queue q+1 is reached only by a job whose
// attained service comes within Tol of α_q (queueOf), so when
// α_q·(1−Tol) is above maxSize, queue q is the last one any job enters and
// the queues after it stay empty. The cut configuration has those q+1
// queues (the same thresholds and weights for them, the same strict flag
// and in-level order), and on jobs of size at most maxSize without rate
// caps it schedules exactly as m does, to the bit: the capacity goes only
// to non-empty queues, a job's target in queue q is its size under both,
// and the last queue's missing threshold is never compared. K = 1 and 2
// carry no threshold (resp. no step) that a job reads: Reach sets them to
// DefaultLASMQ's, so that cut configurations that differ only there are
// equal. It returns m itself (not a copy) when no queue can be cut.
//
// The tuner scores a candidate once per such cut and window: on a window
// whose largest job is small, many configurations that differ in k (or in
// thresholds beyond every job) are the same schedule.
func (m *LASMQ) Reach(maxSize float64) *LASMQ {
	k := m.K
	thr := m.Thresholds()
	for q := range thr {
		// A margin of 1e-6 beyond the exact rule guards against attained
		// service a rounding above a job's size.
		if thr[q]*(1-Tol) > maxSize*(1+1e-6) {
			k = q + 1
			break
		}
	}
	if k == m.K && k > 2 {
		return m
	}
	c := *m
	c.K = k
	if m.Weights != nil {
		c.Weights = append([]float64(nil), m.Weights[:k]...)
	}
	def := DefaultLASMQ()
	if k < 3 {
		c.P = def.P
	}
	if k < 2 {
		c.Alpha0 = def.Alpha0
	}
	return &c
}
