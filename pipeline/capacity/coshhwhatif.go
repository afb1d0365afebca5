package capacity

import (
	"context"
	"fmt"
	"io"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/lp"
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/report"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
)

// COSHHWhatIf is COSHH simulated on a cluster (the spec, or the spec after
// a what-if): the LP of the classes re-solved on it (λ, suggested sets) and
// the whole log at task level under COSHH routing by that plan, each job's
// tasks as fast on a type as the execution-time model says.
type COSHHWhatIf struct {
	Change   string  `json:"change"` // "" for the spec as it is
	Machines int     `json:"machines"`
	Lambda   float64 `json:"lambda"`
	// OfferedLoad is the log's load on the cluster with the execution-time
	// model (ExecTimeLoad, ExecLoadDef) and OfferedLoadBound the least any
	// placement needs; null when undefined.
	OfferedLoad      *float64 `json:"offered_load"`
	OfferedLoadBound *float64 `json:"offered_load_bound"`
	// Suggested[t] names the classes machine type t serves.
	Suggested [][]string `json:"suggested"`
	// MeanCompletion and P99Completion are completion − arrival (s).
	MeanCompletion float64 `json:"mean_completion_s"`
	P99Completion  float64 `json:"p99_completion_s"`
	// Change in mean completion against the spec as it is (0 for it).
	Delta float64 `json:"mean_completion_change"`
}

// SimulateCOSHHWhatIfs simulates COSHH on spec and on spec after each
// what-if, with the classes of primary and secondary (sizes cs in
// container-seconds of spec, as they were classified on; raw sizes with
// src and opt give the task jobs, as SimulateWhatIfs builds them) and the
// LP re-solved on every cluster. The classes do not change with the
// machines (μ is per machine), so a what-if moves the allocation and the
// suggested sets only.
func SimulateCOSHHWhatIfs(ctx context.Context, j *data.Jobs, sizes, cs []float64, src estimate.Source, opt estimate.SizeOptions, spec *cluster.Spec,
	whatIfs []string, primary, secondary *classify.Result, solver lp.Solver, seed uint64) ([]COSHHWhatIf, error) {
	jobs, err := WhatIfJobs(j, sizes, src, opt, spec, seed)
	if err != nil {
		return nil, err
	}
	var out []COSHHWhatIf
	for _, w := range append([]string{""}, whatIfs...) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		s, cl, err := whatIfCluster(spec, w)
		if err != nil {
			return nil, err
		}
		fit, r, err := replayCOSHH(ctx, j, cs, jobs, s, cl, primary, secondary, solver, seed)
		if err != nil {
			return nil, fmt.Errorf("what-if %q: %w", w, err)
		}
		resp := make([]float64, len(jobs))
		for i := range jobs {
			resp[i] = r.Result.Completion[i] - jobs[i].Arrival
		}
		wi := COSHHWhatIf{Change: w, Machines: cl.Nodes(), Lambda: fit.Lambda, MeanCompletion: r.Metrics.MeanCompletion, P99Completion: sim.QuantilesOf(resp).P99}
		load, bound := tasklevel.ExecTimeLoad(jobs, cl)
		wi.OfferedLoad, wi.OfferedLoadBound = report.FinitePtr(load), report.FinitePtr(bound)
		for t := range s.Resources {
			names := []string{}
			if t < len(fit.Plan.Secondary.Suggested) {
				for _, i := range fit.Plan.Secondary.Suggested[t] {
					names = append(names, bundle.ClassName(i))
				}
			}
			wi.Suggested = append(wi.Suggested, names)
		}
		if len(out) > 0 && out[0].MeanCompletion > 0 {
			wi.Delta = wi.MeanCompletion/out[0].MeanCompletion - 1
		}
		out = append(out, wi)
	}
	return out, nil
}

// WriteCOSHHWhatIfs prints the COSHH what-ifs as a table.
func WriteCOSHHWhatIfs(w io.Writer, ws []COSHHWhatIf) {
	writeWhatIfTable(w, "COSHH simulated at task level on each cluster (whole log, execution-time model; LP re-solved; completion times in seconds; offered load: "+experiment.ExecLoadDef+", and the least any placement needs; OVERLOADED above 1: the means are of an overloaded system)",
		"cluster\tmachines\tλ\toffered load\tleast load\tmean completion (s)\tp99 completion (s)\tvs as specified\t",
		func(tw io.Writer) {
			for _, x := range ws {
				fmt.Fprintf(tw, "%s\t%d\t%.4g\t%s\t%s\t%.4g\t%.4g\t%s\t\n", whatIfName(x.Change), x.Machines, x.Lambda, experiment.LoadCell(experiment.LoadOf(x.OfferedLoad)),
					experiment.LoadText(experiment.LoadOf(x.OfferedLoadBound)), x.MeanCompletion, x.P99Completion, report.Pct(x.Delta))
			}
		})
}
