package sim

// lasSlot is the state LAS_MQ keeps for one job in the system. A job takes
// a slot when it arrives and gives it back when it completes, so LAS_MQ's
// per-job state is sized by the most jobs in the system at once, not by
// the jobs of the run (a 3 M-job window with a few thousand jobs in the
// system at once holds a few thousand slots). The queues (FIFO lists),
// heaps and served lists name slots; a slot names its job, which gives
// the job's Size, Cap, Weight and estimate and the index done reports.
type lasSlot struct {
	att  float64 // attained service (PS queues: the queue's virtual time stands for it)
	size float64 // the job's Size, read at every event that looks at the slot
	// x is what the in-level order reads of the job (slotValue, set by
	// Arrive): its weight inside a PS level, its estimate or its
	// container count. It is read when the job enters or leaves a queue
	// or heads one, from the slot rather than from the job's row in a
	// window of millions (a cache miss for a job that arrived long
	// before, at every event on an overloaded window).
	x    float64
	job  int32 // the job's index in the run
	link int32 // next slot in the same queue (a free slot: the next free one)
}

// take gives job j a slot: the most recently freed one, or a new one
// (small enough to inline: it runs at every arrival).
func (m *LASMQ) take(j int) int32 {
	s := m.free
	if s < 0 {
		s = m.grow()
	}
	sl := &m.sl[s]
	m.free = sl.link
	sl.size, sl.job = m.jobs[j].Size, int32(j)
	return s
}

// grow adds a free slot (with the per-slot state of the capped modes) and
// returns it; the free list was empty.
func (m *LASMQ) grow() int32 {
	m.sl = append(m.sl, lasSlot{link: -1})
	if m.capped {
		m.isSrv = append(m.isSrv, false)
		if m.order != ordFIFO {
			m.qOf = append(m.qOf, -1)
		}
	}
	return int32(len(m.sl) - 1)
}

// release frees slot s, whose job completed and left every queue.
func (m *LASMQ) release(s int32) {
	m.sl[s].link = m.free
	m.free = s
}

// slotWeight is the weight of the job in slot s inside a PS level.
func (m *LASMQ) slotWeight(s int32) float64 { return m.sl[s].x }
