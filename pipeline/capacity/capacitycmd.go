package capacity

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/report"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
)

// CapacityRequest is what `schedplan capacity` analyses: a sized job log
// on a cluster spec, classified (K, Seed), with the LP options; Simulate
// adds the task-level simulation of the spec and each what-if under the
// current (CurrentConfig) and tuned (Bundle) configurations.
type CapacityRequest struct {
	Jobs    *data.Jobs
	Sizes   []float64
	Source  estimate.Source
	SizeOpt estimate.SizeOptions
	Spec    *cluster.Spec
	K       int
	Seed    uint64
	Options CapacityOptions

	Simulate              bool
	Bundle, CurrentConfig string
}

// CapacityReport is what `schedplan capacity` prints.
type CapacityReport struct {
	Trace           string              `json:"trace"`
	Cluster         string              `json:"cluster"`
	Jobs            int                 `json:"jobs"`
	Classifications []*CapacityAnalysis `json:"classifications"`
	// Sizes says where the work comes from (SizesNote) and Load is the
	// whole log's load decomposed (LogLoadModel, with the secondary
	// classification's λ).
	Sizes string               `json:"sizes"`
	Load  *tasklevel.LoadModel `json:"load,omitempty"`
	// Headroom is λ checked by task-level replays (nil without an LP).
	Headroom  *Headroom   `json:"headroom,omitempty"`
	Simulated []WhatIfSim `json:"simulated,omitempty"`
	// COSHH is COSHH simulated on the spec and each --what-if.
	COSHH []COSHHWhatIf `json:"coshh_simulated,omitempty"`
}

// AnalyseCapacity classifies the jobs (COSHH's primary and secondary
// classifications, sizes in container-seconds of the spec), solves the
// capacity LP of each, and with Simulate simulates the what-ifs.
func AnalyseCapacity(ctx context.Context, q CapacityRequest) (*CapacityReport, error) {
	if err := CheckWhatIfs(q.Options.WhatIfs, q.Spec); err != nil {
		return nil, err
	}
	if q.Simulate && q.CurrentConfig != "" {
		if _, err := inputs.CheckCurrentConfig(q.CurrentConfig, q.Jobs, 0); err != nil {
			return nil, err
		}
	}
	cs := estimate.ContainerSeconds(q.Sizes, q.Source, q.SizeOpt, q.Spec.Capacity())
	primary, secondary, err := classify.COSHH(q.Jobs, cs, q.Spec, classify.Options{K: q.K, Seed: q.Seed})
	if err != nil {
		return nil, err
	}
	rep := &CapacityReport{Trace: q.Jobs.Source, Cluster: q.Spec.Name, Jobs: q.Jobs.Len()}
	for _, res := range []*classify.Result{primary, secondary} {
		a, err := PlanCapacity(res, q.Spec, q.Options)
		if err != nil {
			return nil, fmt.Errorf("%s classification: %w", res.Name, err)
		}
		rep.Classifications = append(rep.Classifications, a)
	}
	lm, err := tasklevel.LogLoadModel(q.Jobs, cs, q.Spec, secondary.SizeFloor, 0, rep.Classifications[len(rep.Classifications)-1].Lambda)
	if err != nil {
		return nil, err
	}
	rep.Load, rep.Sizes = &lm, tasklevel.SizesNote(q.Source, q.SizeOpt)
	if err := rep.replay(ctx, q, cs, primary, secondary); err != nil {
		return nil, err
	}
	if len(q.Options.WhatIfs) > 0 {
		if rep.COSHH, err = SimulateCOSHHWhatIfs(ctx, q.Jobs, q.Sizes, cs, q.Source, q.SizeOpt, q.Spec, q.Options.WhatIfs, primary, secondary, q.Options.Solver, q.Seed); err != nil {
			return nil, err
		}
	}
	if !q.Simulate {
		return rep, nil
	}
	names, specs, err := TaskConfigs(q.Bundle, q.CurrentConfig)
	if err != nil {
		return nil, err
	}
	lambdas := rep.Classifications[len(rep.Classifications)-1].WhatIfLambdas(len(q.Options.WhatIfs))
	rep.Simulated, err = SimulateWhatIfs(ctx, q.Jobs, q.Sizes, q.Source, q.SizeOpt, q.Spec, q.Options.WhatIfs, lambdas, names, specs, q.Seed)
	return rep, err
}

// WriteText prints the report's tables.
func (rep *CapacityReport) WriteText(out io.Writer) {
	fmt.Fprintf(out, "trace %s (%d jobs), cluster %s\n", report.Printable(rep.Trace), rep.Jobs, rep.Cluster)
	for _, a := range rep.Classifications {
		fmt.Fprintln(out)
		a.WriteText(out)
	}
	if rep.Load != nil {
		fmt.Fprintln(out)
		rep.Load.WriteText(out, "whole log")
		fmt.Fprintln(out, rep.Sizes)
	}
	if rep.Headroom != nil {
		rep.Headroom.WriteText(out)
	}
	if rep.Simulated != nil {
		WriteWhatIfSims(out, rep.Simulated)
	}
	if rep.COSHH != nil {
		WriteCOSHHWhatIfs(out, rep.COSHH)
	}
}

// replay checks the secondary classification's λ by task-level replays
// (Headroom) and simulates each of its what-ifs at today's rate beside its
// λ (CapacityWhatIf.Sim; a what-if that leaves no machine, or whose LP has
// no solution, gets a note instead).
func (rep *CapacityReport) replay(ctx context.Context, q CapacityRequest, cs []float64, primary, secondary *classify.Result) error {
	a := rep.Classifications[len(rep.Classifications)-1]
	if a.Reason != "" || !(a.Lambda > 0) {
		return nil
	}
	r, err := newReplayer(q.Jobs, q.Sizes, cs, q.Source, q.SizeOpt, q.Spec, primary, secondary, q.Options.Solver, q.Seed)
	if err != nil {
		return err
	}
	if rep.Headroom, err = r.headroom(ctx, a.Lambda); err != nil {
		return err
	}
	for k := range a.WhatIfs {
		w := &a.WhatIfs[k]
		rp, err := r.replay(ctx, w.Change, 1)
		switch {
		case ctx.Err() != nil:
			return ctx.Err()
		case err != nil:
			w.Note = strings.TrimSpace(w.Note + " not simulated: " + err.Error())
		default:
			w.Sim = &rp
		}
	}
	return nil
}
