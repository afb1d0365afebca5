package tasklevel

import (
	"fmt"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/lp"
	"github.com/schedplan/schedplan/pipeline/bundle"
)

// COSHHProblem turns a classification into the COSHH LP's input: one class
// per classify class (named C1, C2, … in class order), one machine type per
// resource type of the spec.
func COSHHProblem(res *classify.Result, spec *cluster.Spec) (*lp.COSHHProblem, error) {
	p := &lp.COSHHProblem{}
	for _, name := range res.Resources {
		found := false
		for _, rt := range spec.Resources {
			if rt.Name == name {
				p.TypeNames = append(p.TypeNames, name)
				p.Counts = append(p.Counts, float64(rt.Count))
				found = true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("resource type %q of the classification is not in the cluster spec", name)
		}
	}
	for _, c := range res.Classes {
		p.ClassNames = append(p.ClassNames, bundle.ClassName(c.ID))
		p.Alpha = append(p.Alpha, c.Alpha)
		p.Mu = append(p.Mu, c.Mu)
	}
	return p, nil
}
