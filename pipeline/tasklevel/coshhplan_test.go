package tasklevel

import (
	"slices"
	"testing"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/task/coshh"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/lp"
)

// Classification → LP → routing plan → COSHH router, on the first 50 jobs
// of the embedded trace and seed 003's Table 3 cluster: every job is queued
// in the class classify gave it, and every pick on a type is a job of a
// class the LP suggests there (or, when none of those waits, one that can
// run there).
func TestCOSHHPlanRoutes(t *testing.T) {
	j, err := data.Open("embedded:fb2009-50", data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sizes, _, err := estimate.Sizes(j, estimate.SizeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	spec := cluster.DefaultSpec()
	_, sec, err := classify.COSHH(j, sizes, spec, classify.Options{K: 4, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	p, err := COSHHProblem(sec, spec)
	if err != nil {
		t.Fatal(err)
	}
	sol, err := lp.SolveCOSHH(p, lp.COSHHOptions{})
	if err != nil {
		t.Fatal(err)
	}
	plan := COSHHPlan(nil, sec, nil, sol)
	var machines []int
	for _, rt := range spec.Resources {
		machines = append(machines, rt.Count)
	}
	r, err := coshh.NewCOSHHRouter(coshh.COSHHConfig{Users: []coshh.COSHHUser{{Weight: 1}}, Machines: machines, Plan: plan})
	if err != nil {
		t.Fatal(err)
	}
	xs, err := sec.ScaledRows(j, sizes, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range xs {
		if err := r.Arrive(i, 0, nil, x); err != nil {
			t.Fatal(err)
		}
		if _, c := r.Class(i); c != int(sec.Assign[i]) {
			t.Errorf("job %d queued in class %d, classified in %d", i, c, sec.Assign[i])
		}
		r.Waiting(i, true)
	}
	if o := r.Overhead(); o.ReplanCalls != 0 {
		t.Errorf("the classified jobs asked for %d re-classifications", o.ReplanCalls)
	}
	for ty := range spec.Resources {
		job, stage := r.Pick(ty)
		_, c := r.Class(job)
		switch stage {
		case coshh.COSHHFair:
			if !slices.Contains(sol.Suggested[ty], c) {
				t.Errorf("type %s: job of class %d, SC = %v", spec.Resources[ty].Name, c, sol.Suggested[ty])
			}
		case coshh.COSHHFallback:
			if sec.Classes[c].Mu[ty] == 0 {
				t.Errorf("type %s: fallback to class %d, which cannot run there", spec.Resources[ty].Name, c)
			}
		default:
			t.Errorf("type %s: %v", spec.Resources[ty].Name, stage)
		}
	}
}
