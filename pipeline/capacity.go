package pipeline

import (
	"errors"
	"fmt"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/lp"
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
		p.ClassNames = append(p.ClassNames, ClassName(c.ID))
		p.Alpha = append(p.Alpha, c.Alpha)
		p.Mu = append(p.Mu, c.Mu)
	}
	return p, nil
}

// ClassName is the name of class id (0-based) in LP tables, queues and the
// bundle: C1, C2, ….
func ClassName(id int) string { return fmt.Sprintf("C%d", id+1) }

// PlanCapacity solves the COSHH LP of a classification and the standard
// what-ifs (one machine more and one fewer of every type, plus extra), in
// the bundle's form. A classification without classes, or without demand,
// gives nil and the reason.
func PlanCapacity(res *classify.Result, spec *cluster.Spec, opt lp.COSHHOptions, extra []string) (*CapacityPlan, []string, error) {
	if len(res.Classes) == 0 {
		reason := res.Reason
		if reason == "" {
			reason = "the classification has no classes"
		}
		return nil, []string{reason}, nil
	}
	p, err := COSHHProblem(res, spec)
	if err != nil {
		return nil, nil, err
	}
	sol, err := lp.SolveCOSHH(p, opt)
	if errors.Is(err, lp.ErrNoDemand) {
		return nil, []string{err.Error()}, nil
	}
	if err != nil {
		return nil, nil, err
	}
	plan := &CapacityPlan{Solver: string(sol.Solver), Lambda: sol.Lambda}
	for t := range p.TypeNames {
		row := make([]float64, len(p.ClassNames))
		for i := range row {
			row[i] = sol.Machines[i][t]
		}
		plan.Allocation = append(plan.Allocation, row)
		var sc []string
		for _, i := range sol.Suggested[t] {
			sc = append(sc, p.ClassNames[i])
		}
		plan.Suggested = append(plan.Suggested, sc)
		plan.Load = append(plan.Load, sol.Types[t].Allocated)
	}
	if sol.Lambda == 0 {
		return plan, sol.Messages, nil
	}
	var scenarios [][]lp.Change
	for t := range p.TypeNames {
		scenarios = append(scenarios, []lp.Change{{Type: t, Delta: 1}})
		if p.Counts[t] >= 1 {
			scenarios = append(scenarios, []lp.Change{{Type: t, Delta: -1}})
		}
	}
	for _, w := range extra {
		cs, err := lp.ParseChanges(p, w)
		if err != nil {
			return nil, nil, fmt.Errorf("what-if %q: %w", w, err)
		}
		scenarios = append(scenarios, cs)
	}
	opt.MPSFile = ""
	for _, cs := range scenarios {
		wi, err := lp.WhatIf(p, cs, opt)
		if err != nil {
			return nil, nil, fmt.Errorf("what-if %s: %w", lp.FormatChanges(p, cs), err)
		}
		plan.WhatIfs = append(plan.WhatIfs, WhatIf{Change: lp.FormatChanges(p, cs), Lambda: wi.Lambda})
	}
	return plan, sol.Messages, nil
}
