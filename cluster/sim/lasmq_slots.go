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
	job  int32   // the job's index in the run
	link int32   // next slot in the same queue (a free slot: the next free one)
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
func (m *LASMQ) slotWeight(s int32) float64 { return m.weight(int(m.sl[s].job)) }

// slotHeap is keyHeap for LAS_MQ's remaining-work and PS queues: each
// entry carries the job's slot besides its index, and ties still go to the
// lower job index (the earlier arrival), as keyHeap's do. Slot numbers do
// not follow arrival order (freed slots are taken again), so they cannot
// stand for the index in keyHeap's entries; the slot fits in the entry's
// padding (16 bytes either way).
type slotHeap struct {
	e []slotEntry
}

type slotEntry struct {
	key float64
	j   int32 // the job's index: ties go to the lower one
	s   int32 // its slot
}

func (a slotEntry) less(b slotEntry) bool {
	return a.key < b.key || (a.key == b.key && a.j < b.j)
}

func (h *slotHeap) reset()         { h.e = h.e[:0] }
func (h *slotHeap) len() int       { return len(h.e) }
func (h *slotHeap) min() slotEntry { return h.e[0] }

func (h *slotHeap) push(key float64, j, s int32) {
	h.e = append(h.e, slotEntry{key, j, s})
	e := h.e
	i := len(e) - 1
	x := e[i]
	for i > 0 {
		p := (i - 1) / 2
		if !x.less(e[p]) {
			break
		}
		e[i] = e[p]
		i = p
	}
	e[i] = x
}

func (h *slotHeap) pop() slotEntry {
	e := h.e
	top := e[0]
	last := len(e) - 1
	x := e[last]
	e = e[:last]
	h.e = e
	if last == 0 {
		return top
	}
	i := 0
	for {
		l := 2*i + 1
		if l >= last {
			break
		}
		c := l
		if r := l + 1; r < last && e[r].less(e[l]) {
			c = r
		}
		if !e[c].less(x) {
			break
		}
		e[i] = e[c]
		i = c
	}
	e[i] = x
	return top
}
