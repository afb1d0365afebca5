package bundle

import "github.com/schedplan/schedplan/cluster/task/hpfsp"

// HPFSPOnline is the estimator= value of an hpfsp specification at task
// level that sizes jobs online (the default); HPFSPSizes reads the jobs'
// size estimates (exact, or with the experiment's error model).
const (
	HPFSPOnline = "ewma"
	HPFSPSizes  = "sizes"
)

// Spec returns the configuration as a task-level policy specification
// (task.ParsePolicy).
func (h *HPFSPConfig) Spec() string {
	return (&hpfsp.HPFSP{FairLimit: h.FairLimit, Threshold: h.Threshold}).Spec()
}
