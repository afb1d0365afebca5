package task

// FIFO is YARN's FifoScheduler order: every free container goes to the
// earliest-submitted job that has a ready task. (A task that does not fit
// the node's free containers reserves the node, as in the Capacity
// Scheduler, instead of being skipped as FifoScheduler does.) O(log n) per
// decision (jobOrder).
//
// With LocalityPreference and a LocalityOracle (SetLocality), a node goes
// to the earliest job with a ready map task whose block is on the node, or
// a ready task of a later stage (no locality), else to the earliest job.
// That is stronger than Hadoop 1's JobQueueTaskScheduler.assignTasks,
// which never passes the head job over (it takes the job's node- or
// rack-local map, else a non-local one). Each pick passes
// over every queued job ahead of the one it takes, each at O(log n) (set
// aside and put back) plus LocalityOracle.HasLocal's cost: O(queued jobs ·
// (log n + HasLocal)) per pick when few jobs have a block on the node.
type FIFO struct {
	jobOrder
	// LocalityPreference turns the locality preference on (off: the
	// earliest job, whatever its tasks' locality).
	LocalityPreference bool
	loc                LocalityOracle
	aside              []int32
}

func (*FIFO) Name() string { return "fifo" }

// SetLocality gives the policy the run's block placement.
func (f *FIFO) SetLocality(l LocalityOracle) { f.loc = l }

// Pick implements Policy.
func (f *FIFO) Pick(n Node) (int, int) {
	if !f.LocalityPreference || f.loc == nil || f.h.len() == 0 {
		return f.jobOrder.Pick(n)
	}
	j := f.h.first(&f.aside, func(x int32) bool {
		st, _ := nextTask(f.s, int(x), n.Free)
		return st != 0 || f.loc.HasLocal(int(x), n.Index)
	})
	if j < 0 {
		return f.jobOrder.Pick(n)
	}
	return int(j), -1
}

func (f *FIFO) Start(s *State) error {
	f.start(s, func(int) key { return key{} }, false)
	return nil
}
