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
// rack-local map, else a non-local one). When the oracle is a LocalIndex
// (coshh.COSHHBlocks is), a pick takes the least of the first job without
// a ready first-stage task, the first job with a pending block on the node
// and the first job whose next fitting task is of a later stage
// (fifoIndex), and asks HasLocal only of the jobs whose blocks are not
// placed yet, in queue order: O(log n) per pick and notification besides
// the placements. With another oracle, each pick passes over every queued
// job ahead of the one it takes, each at O(log n) (set aside and put back)
// plus HasLocal's cost.
type FIFO struct {
	jobOrder
	// LocalityPreference turns the locality preference on (off: the
	// earliest job, whatever its tasks' locality).
	LocalityPreference bool
	loc                LocalityOracle
	aside              []int32
	ix                 fifoIndex
}

func (*FIFO) Name() string { return "fifo" }

// SetLocality gives the policy the run's block placement.
func (f *FIFO) SetLocality(l LocalityOracle) { f.loc = l }

// Pick implements Policy.
func (f *FIFO) Pick(n Node) (int, int) {
	if !f.LocalityPreference || f.loc == nil || f.h.len() == 0 {
		return f.jobOrder.Pick(n)
	}
	if f.ix.li != nil {
		if j, ok := f.ix.pick(&f.jobOrder, n); ok {
			if j < 0 {
				return f.jobOrder.Pick(n)
			}
			return j, -1
		}
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

// Released implements Policy.
func (f *FIFO) Released(j, st int) {
	f.jobOrder.Released(j, st)
	f.ix.classify(&f.jobOrder, j)
}

// Started implements Policy.
func (f *FIFO) Started(t TaskRef) {
	f.jobOrder.Started(t)
	f.ix.classify(&f.jobOrder, t.Job)
}

func (f *FIFO) Start(s *State) error {
	f.start(s, func(int) key { return key{} }, false)
	f.ix.li = nil
	if li, ok := f.loc.(LocalIndex); ok && f.LocalityPreference {
		f.ix.reset(li, len(s.Jobs()))
	}
	return nil
}
