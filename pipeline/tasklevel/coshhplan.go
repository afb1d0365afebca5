package tasklevel

import (
	"fmt"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/task/coshh"
	"github.com/schedplan/schedplan/lp"
)

// COSHHPlan turns COSHH's two classifications and their LP solutions into
// the routing plan of the task-level COSHH policy (coshh.COSHHRouter, seed
// 003 Alg. 1–2): per classification the class centres and radii in its
// scaled feature space (a job's vector there: classify.Result.ScaledRows),
// the suggested classes SC_t of every machine type from the LP, and which
// classes can run on which type (μ > 0). A classification without classes
// or without a solution (nil) suggests nothing.
func COSHHPlan(primary, secondary *classify.Result, primarySol, secondarySol *lp.COSHHSolution) *coshh.COSHHPlan {
	return &coshh.COSHHPlan{Primary: coshhClasses(primary, primarySol), Secondary: coshhClasses(secondary, secondarySol)}
}

func coshhClasses(res *classify.Result, sol *lp.COSHHSolution) coshh.COSHHClasses {
	var c coshh.COSHHClasses
	if res == nil || len(res.Classes) == 0 {
		return c
	}
	c.Centres = res.Centres()
	for _, cl := range res.Classes {
		c.Radius = append(c.Radius, cl.Radius)
		runs := make([]bool, len(cl.Mu))
		for t, mu := range cl.Mu {
			runs[t] = mu > 0
		}
		c.Runs = append(c.Runs, runs)
	}
	if sol != nil {
		c.Suggested = make([][]int, len(res.Resources))
		for t := range c.Suggested {
			if t < len(sol.Suggested) {
				c.Suggested[t] = append([]int(nil), sol.Suggested[t]...)
			}
		}
	}
	return c
}

// COSHHResolver solves COSHH's two LPs for successive classifications of a
// growing log (the re-classifications of the COSHH policy's Replan, seed
// 003 Alg. 1), each warm-started from the previous solutions' columns
// (lp.COSHHOptions.Warm, matched by class and type name), and returns the
// routing plan. The canonical allocation does not depend on the start, so
// a warm re-solve gives the plan a cold one would. Not safe for concurrent
// use.
type COSHHResolver struct {
	Spec    *cluster.Spec
	Options lp.COSHHOptions
	// Last holds the latest solutions (nil for a classification without
	// classes): the next Plan starts from them.
	LastPrimary, LastSecondary *lp.COSHHSolution
}

// Plan solves the LPs of primary and secondary (either may be nil or
// without classes) and returns their routing plan.
func (r *COSHHResolver) Plan(primary, secondary *classify.Result) (*coshh.COSHHPlan, error) {
	ps, err := r.solve(primary, &r.LastPrimary)
	if err != nil {
		return nil, fmt.Errorf("primary classification: %w", err)
	}
	ss, err := r.solve(secondary, &r.LastSecondary)
	if err != nil {
		return nil, fmt.Errorf("secondary classification: %w", err)
	}
	return COSHHPlan(primary, secondary, ps, ss), nil
}

func (r *COSHHResolver) solve(res *classify.Result, last **lp.COSHHSolution) (*lp.COSHHSolution, error) {
	opt := r.Options
	opt.Warm = *last
	sol, err := COSHHSolve(res, r.Spec, opt)
	if err == nil && sol != nil {
		*last = sol
	}
	return sol, err
}
