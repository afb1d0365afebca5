package runreport

import (
	"fmt"

	"github.com/schedplan/schedplan/pipeline/validation"
)

// hpfspVerdict is the report's sentence on the task-level H-PFSP rows:
// its mean response and p99 slowdown beside FSP's (exact sizes) and PS's
// ("" without the rows).
func hpfspVerdict(t *validation.TaskValidation) string {
	var h, f, ps *validation.ValidationRow
	for k := range t.Rows {
		switch t.Rows[k].Name {
		case TaskHPFSPName:
			h = &t.Rows[k]
		case TaskFSPName:
			f = &t.Rows[k]
		case TaskPSName:
			ps = &t.Rows[k]
		}
	}
	if h == nil || f == nil || ps == nil {
		return ""
	}
	return fmt.Sprintf(" The tuned H-PFSP (%s; sizes estimated online from the tasks' progress) has a mean response of %.4g s against %.4g s for FSP with exact sizes and %.4g s for Fair in one pool (PS); p99 slowdown %.4g against %.4g and %.4g.",
		h.Policy, h.Mean, f.Mean, ps.Mean, h.P99Slowdown, f.P99Slowdown, ps.P99Slowdown)
}

// Task-level validation row names of H-PFSP and its references.
const (
	TaskHPFSPName = "tuned h-pfsp (task; online EWMA estimates, no sizes)"
	TaskFSPName   = "fsp (task; exact sizes)"
	TaskPSName    = "fair, one pool (task; PS)"
)
