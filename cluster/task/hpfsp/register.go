package hpfsp

import (
	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/cluster/task"
)

// init adds "hpfsp" to the task-level registry (task.Register), so that
// task.ParsePolicy("hpfsp:fair_limit=2") resolves in every program that
// imports this package.
func init() {
	task.Register("hpfsp", "H-PFSP (seed 002, Alg. 1-4): fair_limit (FAIR_LIMIT, tasks per stage in the fair phase, default 2; 0: none), threshold (getStage's map-progress threshold, default 0.95); fallback (ps, the default: a container no completable job takes goes to the first runnable job of the virtual PS, §II.C's residual slots; none: Alg. 2 read literally, it idles), late_first=1 (late jobs before completable ones), vps=busy (the virtual PS runs at the cluster's full rate, not eq. 8's advance by served work); report (progress-report interval, s, or off)", sim.Uses{Estimates: true}, makeHPFSP)
}
