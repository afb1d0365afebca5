package pipeline

import (
	"fmt"
	"math"

	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/pipeline/experiment"
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

// LoadNote states the task-level table's loads: the window's on the
// cluster, and that of the rows simulated at another (COSHH's rows, with
// the execution-time model), each with its definition and, above 1, that
// its means are of an overloaded system.
func (t *TaskValidation) LoadNote() string {
	base := experiment.LoadOf(t.OfferedLoad)
	s := "task-level rows: " + experiment.LoadSentence(base, experiment.TaskLoadDef)
	if lm := t.Terms; lm != nil && (lm.MemoryFactor != 1 || lm.DataFactor != 1) {
		s += fmt.Sprintf("\n  = the window's plain load %s (the containers at their exec_rate, as the fluid window) × memory rule %.3g × data retrieval %.3g", experiment.LoadText(lm.Plain), lm.MemoryFactor, lm.DataFactor)
	}
	for _, r := range t.Rows {
		if l := experiment.LoadOf(r.OfferedLoad); r.OfferedLoad != nil && l != base {
			return s + "\nexecution-time model rows: " + experiment.LoadSentence(l, experiment.ExecLoadDef)
		}
	}
	return s
}

// LoadNote states the COSHH comparison's load: the window's with the
// execution-time model (ExecLoadDef), the least any placement needs, and,
// above 1, that the means are of an overloaded system.
func (v *COSHHValidation) LoadNote() string {
	load, bound := experiment.LoadOf(v.OfferedLoad), experiment.LoadOf(v.OfferedLoadBound)
	s := fmt.Sprintf("offered load %s (%s); no placement needs less than %s (every container as fast as the job's fastest machine type)", experiment.LoadText(load), experiment.ExecLoadDef, experiment.LoadText(bound))
	if n := experiment.OverloadNote(load); n != "" {
		s += ". " + n
		if bound <= 1 {
			s += fmt.Sprintf(" (a scheduler that keeps jobs on their fastest machine types, as COSHH routes them, may keep up: the least load is %s)", experiment.LoadText(bound))
		}
	}
	return s
}

// loadCurveAxis is the load curve's x axis: the window's offered load
// times each factor, or the factors when the window's load is undefined.
func loadCurveAxis(vs *ValidationState) string {
	if vs.OfferedLoad == nil {
		return "load factor (× every size)"
	}
	return "offered load (" + experiment.FluidLoadDef + ")"
}

// loadCurveCaption says what the load curve's loads are and that its
// points above 1 are of an overloaded system.
func loadCurveCaption(vs *ValidationState) string {
	if vs.OfferedLoad == nil {
		return "validation window with every size scaled by each load factor (the window's offered load is undefined: its jobs arrive at one instant)"
	}
	return fmt.Sprintf("validation window with every size scaled: offered load = %s × each load factor; at loads above 1 the means are of an overloaded system (queues grow with the window's length)", experiment.LoadText(*vs.OfferedLoad))
}
