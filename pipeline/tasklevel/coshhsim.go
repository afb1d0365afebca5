package tasklevel

import (
	"fmt"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/cluster/task/coshh"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/lp"
)

// NewCOSHHPolicy builds the task-level COSHH policy (seed 003 Alg. 1–2)
// for simulating the jobs of j (in row order, as the task jobs are) from a
// run's classifications and LP solutions: the routing plan (COSHHPlan), the
// jobs' feature vectors in each classification's scaled space (the
// classifications' estimates, with their Options.TimeErrors, never the
// true durations), and the users' min shares and weights from spec.
// primary and its solution may be nil (no user with a min share).
// tolerance is COSHH's re-classification tolerance (0: the default); the
// returned policy does not re-classify (Replan nil), so a job that fits no
// class joins its nearest one; COSHHWindow.COSHHPolicyOf builds one that
// does (seed 003 Alg. 1's re-classification, coshhReplanner).
func NewCOSHHPolicy(j *data.Jobs, sizes []float64, spec *cluster.Spec, primary, secondary *classify.Result,
	primarySol, secondarySol *lp.COSHHSolution, tolerance float64) (*coshh.COSHH, error) {
	if secondary == nil || len(secondary.Classes) == 0 {
		return nil, fmt.Errorf("coshh: the secondary classification has no classes")
	}
	c := &coshh.COSHH{Plan: COSHHPlan(primary, secondary, primarySol, secondarySol), Users: COSHHUsers(spec), Tolerance: tolerance}
	var err error
	if c.X2, err = secondary.ScaledRows(j, sizes, nil); err != nil {
		return nil, fmt.Errorf("coshh: secondary features: %w", err)
	}
	if primary != nil && len(primary.Classes) > 0 {
		if c.X1, err = primary.ScaledRows(j, sizes, nil); err != nil {
			return nil, fmt.Errorf("coshh: primary features: %w", err)
		}
	}
	return c, nil
}

// COSHHUsers returns spec's users as COSHH sees them, by name: min share
// (containers) and weight (cluster.User.EffectiveWeight).
func COSHHUsers(spec *cluster.Spec) map[string]coshh.COSHHUser {
	us := make(map[string]coshh.COSHHUser, len(spec.Users))
	for _, u := range spec.Users {
		us[u.Name] = coshh.COSHHUser{MinShare: u.MinShare, Weight: u.EffectiveWeight()}
	}
	return us
}

// COSHHTaskCluster returns spec's resources as a task-level cluster: one
// machine type per resource, its slots as containers and its exec_rate.
func COSHHTaskCluster(spec *cluster.Spec) *task.Cluster {
	cl := &task.Cluster{}
	for _, rt := range spec.Resources {
		cl.Types = append(cl.Types, task.MachineType{Name: rt.Name, Count: rt.Count, Containers: rt.Slots, ExecRate: rt.ExecRate})
	}
	return cl
}

// COSHHTypeScales sets each job's Job.TypeScale from the execution-time
// model of package classify (seed 003 §3.1, Table 3's retrieve rates and
// memories; see coshh.COSHHTypeScale), with the true demands (no estimation
// error; execModel): jobs[i] is row i of j. floor is the least compute (s) of a job,
// block the HDFS block size in bytes (0: classify.DefaultBlockBytes).
func COSHHTypeScales(jobs []task.Job, j *data.Jobs, sizes []float64, spec *cluster.Spec, floor, block float64) error {
	if len(jobs) != j.Len() || len(sizes) != j.Len() {
		return fmt.Errorf("coshh: %d task jobs and %d sizes for %d rows", len(jobs), len(sizes), j.Len())
	}
	if block == 0 {
		block = classify.DefaultBlockBytes
	}
	m := newExecModel(spec)
	for i := range jobs {
		jobs[i].TypeScale = m.scales(classify.JobDemand(j, sizes, i, floor, block))
	}
	return nil
}

// COSHHSolve solves the COSHH LP of a classification on spec's cluster
// (COSHHProblem, then lp.SolveCOSHH); nil, nil for a classification
// without classes (e.g. a primary one with no user holding a min share).
func COSHHSolve(res *classify.Result, spec *cluster.Spec, opt lp.COSHHOptions) (*lp.COSHHSolution, error) {
	if res == nil || len(res.Classes) == 0 {
		return nil, nil
	}
	p, err := COSHHProblem(res, spec)
	if err != nil {
		return nil, err
	}
	return lp.SolveCOSHH(p, opt)
}
