package tasklevel

import (
	"math"

	"github.com/schedplan/schedplan/cluster/task"
)

// ExecTimeLoad returns the offered load of task jobs on cl when each job's
// speed on a machine type is its own (Job.TypeScale, COSHH's execution-time
// model): Σ_j W_j/R_j over the arrival span, W_j the job's work
// (container-seconds at exec rate 1) and R_j = Σ_t N_t·e_jt the rate of all
// N_t containers of every type t at the job's speed there, e_jt =
// ExecRate_t/TypeScale_jt (ExecLoadDef) — the load when every job spreads
// over the cluster, as FIFO and Fair place tasks. A scheduler that keeps
// each job on the types that run it fastest (COSHH's routing) needs less;
// bound is the least any placement needs, Σ_j W_j/(N·max_t e_jt) over the
// span (every container as fast as the job's fastest type). Without
// TypeScale both are OfferedLoad(FluidJobs(jobs), cl.Rate()). Both are NaN
// when the jobs arrive at one instant or the cluster has no containers.
func ExecTimeLoad(jobs []task.Job, cl *task.Cluster) (load, bound float64) {
	if len(jobs) < 2 {
		return math.NaN(), math.NaN()
	}
	first, last := jobs[0].Arrival, jobs[0].Arrival
	for i := range jobs {
		j := &jobs[i]
		first, last = math.Min(first, j.Arrival), math.Max(last, j.Arrival)
		rate, best, n := j.Rates(cl)
		w := j.Work()
		if w > 0 {
			load += w / rate
			bound += w / (n * best)
		}
	}
	span := last - first
	if !(span > 0) || math.IsInf(load, 0) || math.IsNaN(load) {
		return math.NaN(), math.NaN()
	}
	return load / span, bound / span
}
