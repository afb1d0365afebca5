package task

// jobOrder serves the jobs with ready tasks in the order of a key: the
// policies that rank jobs by one number (FIFO, SRPT, LAS, FSP) embed it.
// The jobs with ready tasks sit in a heap; a static key is set when a job's
// stage is released, a dynamic one is recomputed at each of the job's task
// starts and ends. O(log n) per decision and per notification.
type jobOrder struct {
	Base
	s       *State
	kk      heapKeys
	h       iheap
	keyOf   func(j int) key
	dynamic bool
}

func (o *jobOrder) start(s *State, keyOf func(int) key, dynamic bool) {
	o.s, o.keyOf, o.dynamic = s, keyOf, dynamic
	o.kk.reset(len(s.Jobs()))
	o.h.init(&o.kk)
}

func (o *jobOrder) Released(j, _ int) {
	if !o.kk.in(int32(j)) {
		o.h.set(int32(j), o.keyOf(j))
	}
}

func (o *jobOrder) Started(t TaskRef) {
	j := int32(t.Job)
	switch {
	case o.s.Ready(t.Job) == 0:
		o.h.remove(j)
	case o.dynamic:
		o.h.set(j, o.keyOf(t.Job))
	}
}

func (o *jobOrder) Ended(t TaskRef) {
	if j := int32(t.Job); o.dynamic && o.kk.in(j) {
		o.h.set(j, o.keyOf(t.Job))
	}
}

func (o *jobOrder) Pick(Node) (int, int) {
	if o.h.len() == 0 {
		return -1, -1
	}
	return int(o.h.min()), -1
}

func (*jobOrder) WorkConserving() bool { return true }
