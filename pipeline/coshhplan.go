package pipeline

import (
	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/lp"
)

// COSHHPlan turns COSHH's two classifications and their LP solutions into
// the routing plan of the task-level COSHH policy (task.COSHHRouter, seed
// 003 Alg. 1–2): per classification the class centres and radii in its
// scaled feature space (a job's vector there: classify.Result.ScaledRows),
// the suggested classes SC_t of every machine type from the LP, and which
// classes can run on which type (μ > 0). A classification without classes
// or without a solution (nil) suggests nothing.
func COSHHPlan(primary, secondary *classify.Result, primarySol, secondarySol *lp.COSHHSolution) *task.COSHHPlan {
	return &task.COSHHPlan{Primary: coshhClasses(primary, primarySol), Secondary: coshhClasses(secondary, secondarySol)}
}

func coshhClasses(res *classify.Result, sol *lp.COSHHSolution) task.COSHHClasses {
	var c task.COSHHClasses
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
