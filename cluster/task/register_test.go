package task_test

import (
	"github.com/schedplan/schedplan/cluster/task"
	_ "github.com/schedplan/schedplan/cluster/task/all"
	"github.com/schedplan/schedplan/cluster/task/coshh"
)

// This file links every registered policy (cluster/task/all) into the
// package's tests, so that the registry-wide ones (TestRegistriesAgree,
// TestDeclaredEstimatesMatchBehaviour, TestWorkConservationEveryPolicy)
// cover coshh and hpfsp too, and gives COSHH the hand plan the pipeline
// would: two classes (centres 0 and 10) suggesting the instance's two
// machine types, jobs spread over features 0 to 10.
func init() {
	task.HandPlanned["coshh"] = func(jobs []task.Job) task.Policy {
		x2 := make([][]float64, len(jobs))
		for i := range x2 {
			x2[i] = []float64{float64(i % 11)}
		}
		plan := &coshh.COSHHPlan{Secondary: coshh.COSHHClasses{Centres: [][]float64{{0}, {10}}, Suggested: [][]int{{0}, {1}}}}
		return &coshh.COSHH{Plan: plan, X2: x2}
	}
}
