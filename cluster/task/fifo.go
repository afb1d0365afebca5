package task

// FIFO is YARN's FifoScheduler order: every free container goes to the
// earliest-submitted job that has a ready task. (A task that does not fit
// the node's free containers reserves the node, as in the Capacity
// Scheduler, instead of being skipped as FifoScheduler does.) O(log n) per
// decision (jobOrder).
type FIFO struct{ jobOrder }

func (*FIFO) Name() string { return "fifo" }

func (f *FIFO) Start(s *State) error {
	f.start(s, func(int) key { return key{} }, false)
	return nil
}
