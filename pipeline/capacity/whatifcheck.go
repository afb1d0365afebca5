package capacity

import (
	"fmt"
	"slices"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/lp"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
)

// CheckWhatIfs parses capacity what-ifs against the spec's machine types
// and refuses counts no cluster has (negative, or above MaxMachines).
func CheckWhatIfs(whatIfs []string, spec *cluster.Spec) error {
	if len(whatIfs) > MaxWhatIfs {
		return experiment.ParamErr("what-if", fmt.Sprintf("(%d of them)", len(whatIfs)), "want at most %d what-ifs: each re-solves the capacity LP and simulates the log at task level (about 0.5 s each on the embedded trace)", MaxWhatIfs)
	}
	p := &lp.COSHHProblem{}
	for _, r := range spec.Resources {
		p.TypeNames = append(p.TypeNames, r.Name)
		p.Counts = append(p.Counts, float64(r.Count))
	}
	for _, w := range whatIfs {
		cs, err := lp.ParseChanges(p, w)
		if err != nil {
			return experiment.ParamErr("what-if", w, "%v", err)
		}
		counts := slices.Clone(p.Counts)
		for _, c := range cs {
			if n := p.Counts[c.Type] + c.Delta; !(n >= 0 && n <= inputs.MaxMachines) {
				return experiment.ParamErr("what-if", w, "%s would have %g machines: want 0 to %g", p.TypeNames[c.Type], n, float64(inputs.MaxMachines))
			}
			counts[c.Type] += c.Delta
		}
		// A cluster without machines has nothing to simulate COSHH on
		// (it failed after the LP, naming an empty cluster spec).
		if !slices.ContainsFunc(counts, func(n float64) bool { return n > 0 }) {
			return experiment.ParamErr("what-if", w, "leaves the cluster no machines")
		}
	}
	return nil
}

// MaxWhatIfs bounds the --what-if flags of one command.
const MaxWhatIfs = 100
