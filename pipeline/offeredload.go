package pipeline

import (
	"fmt"
	"math"

	"github.com/schedplan/schedplan/cluster/task"
)

// Every simulated view states the offered load it ran at: the work its jobs
// bring over the work its server or cluster can do while they arrive (its
// window's arrival span). Above 1 no scheduler keeps up: queues grow with
// the window's length and the means measure that length more than the
// scheduler (OverloadNote). The views differ in what a job's work and the
// cluster's rate are (the definitions below).
const (
	// FluidLoadDef defines the fluid views' load (OfferedLoad): the
	// validation table, the load curve, simulate.
	FluidLoadDef = "Σ size ÷ (capacity × arrival span)"
	// TaskLoadDef defines the task-level table's load: its jobs run in the
	// execution-time model (ExecTimeLoad, LoadModel), which is the plain
	// container-seconds ÷ (rate × span) on a spec without memories or
	// retrieve rates.
	TaskLoadDef = "Σ container-seconds ÷ (the cluster's container-seconds/s at each job's speed on each machine type in the execution-time model × arrival span)"
	// ExecLoadDef defines the load of the rows simulated with COSHH's
	// execution-time model (ExecTimeLoad).
	ExecLoadDef = "Σ over jobs of the job's container-seconds ÷ the rate of all the cluster's containers at the speed the execution-time model gives the job on each machine type, over the arrival span"
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

// LoadText is a load as the tables print it: three significant figures,
// "undefined" when it is not finite (one arrival instant).
func LoadText(load float64) string {
	if math.IsNaN(load) || math.IsInf(load, 0) {
		return "undefined"
	}
	return fmt.Sprintf("%.3g", load)
}

// loadOf reads a stated load back (NaN when undefined).
func loadOf(p *float64) float64 {
	if p == nil {
		return math.NaN()
	}
	return *p
}

// OverloadNote says, when load > 1, that a view's means are of an
// overloaded system ("" otherwise).
func OverloadNote(load float64) string {
	if !(load > 1) {
		return ""
	}
	return fmt.Sprintf("OVERLOADED (offered load %s > 1): queues grow with the window's length, and the means are of an overloaded system — they measure the window's length more than the scheduler", LoadText(load))
}

// loadSentence states a view's load: "offered load X (definition)", and
// the overload note when it is above 1.
func loadSentence(load float64, def string) string {
	s := fmt.Sprintf("offered load %s (%s)", LoadText(load), def)
	if n := OverloadNote(load); n != "" {
		s += ". " + n
	}
	return s
}

// loadCell is a row's load in a table: the figure, marked when above 1.
func loadCell(load float64) string {
	if load > 1 {
		return LoadText(load) + " OVERLOADED"
	}
	return LoadText(load)
}

// LoadNote states the task-level table's loads: the window's on the
// cluster, and that of the rows simulated at another (COSHH's rows, with
// the execution-time model), each with its definition and, above 1, that
// its means are of an overloaded system.
func (t *TaskValidation) LoadNote() string {
	base := loadOf(t.OfferedLoad)
	s := "task-level rows: " + loadSentence(base, TaskLoadDef)
	if lm := t.Terms; lm != nil && (lm.MemoryFactor != 1 || lm.DataFactor != 1) {
		s += fmt.Sprintf("\n  = the window's plain load %s (the containers at their exec_rate, as the fluid window) × memory rule %.3g × data retrieval %.3g", LoadText(lm.Plain), lm.MemoryFactor, lm.DataFactor)
	}
	for _, r := range t.Rows {
		if l := loadOf(r.OfferedLoad); r.OfferedLoad != nil && l != base {
			return s + "\nexecution-time model rows: " + loadSentence(l, ExecLoadDef)
		}
	}
	return s
}

// LoadNote states the COSHH comparison's load: the window's with the
// execution-time model (ExecLoadDef), the least any placement needs, and,
// above 1, that the means are of an overloaded system.
func (v *COSHHValidation) LoadNote() string {
	load, bound := loadOf(v.OfferedLoad), loadOf(v.OfferedLoadBound)
	s := fmt.Sprintf("offered load %s (%s); no placement needs less than %s (every container as fast as the job's fastest machine type)", LoadText(load), ExecLoadDef, LoadText(bound))
	if n := OverloadNote(load); n != "" {
		s += ". " + n
		if bound <= 1 {
			s += fmt.Sprintf(" (a scheduler that keeps jobs on their fastest machine types, as COSHH routes them, may keep up: the least load is %s)", LoadText(bound))
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
	return "offered load (" + FluidLoadDef + ")"
}

// loadCurveCaption says what the load curve's loads are and that its
// points above 1 are of an overloaded system.
func loadCurveCaption(vs *ValidationState) string {
	if vs.OfferedLoad == nil {
		return "validation window with every size scaled by each load factor (the window's offered load is undefined: its jobs arrive at one instant)"
	}
	return fmt.Sprintf("validation window with every size scaled: offered load = %s × each load factor; at loads above 1 the means are of an overloaded system (queues grow with the window's length)", LoadText(*vs.OfferedLoad))
}
