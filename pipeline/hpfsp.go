package pipeline

import (
	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/estimate"
)

// Compile-time check: seed 002's EWMA estimator is what the task-level
// H-PFSP policy reads.
var _ task.RemainingEstimator = (*estimate.ProgressEstimator)(nil)

// HPFSPEstimator returns a task.HPFSP.NewEstimator that builds, for each
// run, seed 002's online EWMA estimator (estimate.ProgressEstimator, eq.
// 1–5 and 18) with cfg. Unless cfg.Slots is set, every stage's N(S) is the
// cluster's containers, so that Remaining is in seconds of the whole
// cluster, the unit of H-PFSP's slack system. cfg.Default (eq. 18's task
// time of a job without samples, per stage, in seconds) should come from
// history, e.g. the tuning window's mean task times.
func HPFSPEstimator(cfg estimate.ProgressConfig) func(*task.State) (task.RemainingEstimator, error) {
	return func(s *task.State) (task.RemainingEstimator, error) {
		c := cfg
		if c.Slots == nil {
			stages := 1
			for i := range s.Jobs() {
				stages = max(stages, len(s.Jobs()[i].Stages))
			}
			c.Slots = make([]float64, stages)
			for i := range c.Slots {
				c.Slots[i] = float64(s.Containers())
			}
		}
		return estimate.NewProgressEstimator(c, len(s.Jobs()))
	}
}
