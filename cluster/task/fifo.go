package task

// FIFO is YARN's FifoScheduler order: every free container goes to the
// earliest-submitted job that has a ready task. (A task that does not fit
// the node's free containers reserves the node, as in the Capacity
// Scheduler, instead of being skipped as FifoScheduler does.) The jobs
// with ready tasks sit in a heap by arrival: O(log n) per decision and per
// notification that changes whether a job has ready tasks.
type FIFO struct {
	Base
	s  *State
	kk heapKeys
	h  iheap
}

func (*FIFO) Name() string          { return "fifo" }
func (*FIFO) WorkConserving() bool { return true }

func (f *FIFO) Start(s *State) error {
	f.s = s
	f.kk.reset(len(s.Jobs()))
	f.h.init(&f.kk)
	return nil
}

func (f *FIFO) Released(j, _ int) {
	if !f.kk.in(int32(j)) {
		f.h.push(int32(j))
	}
}

func (f *FIFO) Started(t TaskRef) {
	if f.s.Ready(t.Job) == 0 {
		f.h.remove(int32(t.Job))
	}
}

func (f *FIFO) Pick(Node) (int, int) {
	if f.h.len() == 0 {
		return -1, -1
	}
	return int(f.h.min()), -1
}
