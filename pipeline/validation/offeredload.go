package validation

import (
	"fmt"

	"github.com/schedplan/schedplan/pipeline/experiment"
)

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

// LoadCurveAxis is the load curve's x axis: the window's offered load
// times each factor, or the factors when the window's load is undefined.
func LoadCurveAxis(vs *ValidationState) string {
	if vs.OfferedLoad == nil {
		return "load factor (× every size)"
	}
	return "offered load (" + experiment.FluidLoadDef + ")"
}

// LoadCurveCaption says what the load curve's loads are and that its
// points above 1 are of an overloaded system.
func LoadCurveCaption(vs *ValidationState) string {
	if vs.OfferedLoad == nil {
		return "validation window with every size scaled by each load factor (the window's offered load is undefined: its jobs arrive at one instant)"
	}
	return fmt.Sprintf("validation window with every size scaled: offered load = %s × each load factor; at loads above 1 the means are of an overloaded system (queues grow with the window's length)", experiment.LoadText(*vs.OfferedLoad))
}
