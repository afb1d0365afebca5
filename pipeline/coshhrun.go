package pipeline

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/cluster/task/coshh"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/report"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
	"github.com/schedplan/schedplan/pipeline/validation"
)

// tuneCOSHH searches COSHH's k and tolerance on the tuning window (fit on
// its first half, simulate COSHH at task level on its second half — at
// most COSHHGridMaxJobs jobs —, least
// mean completion time wins; ties: the smaller k, then tolerance) and fits
// the chosen point on the whole tuning window. A log too small or
// degenerate for COSHH (no positive span, an LP without solution) leaves a
// note instead of failing the run.
func (p *pipelineRun) tuneCOSHH(ctx context.Context) (map[string][]byte, error) {
	in := p.in
	st := validation.COSHHState{}
	lo := in.Split.TuneJobs
	best := -1
	if lo >= validation.COSHHMinTuneJobs {
		sizes := validation.COSHHSizes(in) // the grid's: dropped before the fit on the whole window
		h := max(lo/2, lo-validation.COSHHGridMaxJobs)
		n, _, err := validation.WindowBudget(in, nil, h, lo-h, validation.COSHHGridMaxTasks, validation.COSHHGridMinJobs, true)
		if err != nil {
			return nil, err
		}
		h = lo - n
		st.FitFrom, st.FitJobs, st.SimJobs = max(0, h-validation.COSHHGridFitMaxJobs), h, lo-h
		// Each k's fit and its tolerances' runs are independent: side
		// by side, stored by grid index.
		nt := len(validation.COSHHToleranceGrid)
		st.Grid = make([]validation.COSHHGridPoint, len(validation.COSHHKGrid)*nt)
		err = experiment.ParallelFor(ctx, len(validation.COSHHKGrid), runtime.GOMAXPROCS(0), func(_, i int) error {
			k := validation.COSHHKGrid[i]
			fit, err := validation.FitCOSHHRange(in.Jobs, sizes, in.Spec, st.FitFrom, h, k, validation.COSHHToleranceGrid[0], in.Config.Seed, in.Config.Solver)
			for ti, tol := range validation.COSHHToleranceGrid {
				if err := ctx.Err(); err != nil {
					return err
				}
				st.Grid[i*nt+ti] = validation.COSHHGridPointOf(in, sizes, fit, err, h, lo, k, tol)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		for i, pt := range st.Grid {
			if pt.Error == "" && (best < 0 || pt.MeanCompletion < st.Grid[best].MeanCompletion) {
				best = i
			}
		}
	}
	k, tol := validation.COSHHKGrid[0], validation.COSHHToleranceGrid[0]
	if best >= 0 {
		k, tol = st.Grid[best].K, st.Grid[best].Tolerance
	} else if len(st.Grid) > 0 {
		st.Note = "no point of the grid could be simulated (" + st.Grid[0].Error + "); "
	}
	if lo < 1 {
		st.Note += "no tuning window"
		p.coshh = st
		return nil, nil
	}
	scale := estimate.ContainerScale(in.Source, in.Config.Sizes, in.Spec.Capacity())
	fit, err := validation.FitCOSHHScaled(in.Jobs, in.Sizes, scale, in.Spec, lo, k, tol, in.Config.Seed, in.Config.Solver)
	if err != nil {
		st.Note += "COSHH could not be fitted on the tuning window: " + err.Error()
	} else {
		fit.DropRowLabels() // 28 MB a 7 M-row tuning window, live to validate's end
		st.Fit = fit
		if best < 0 && len(st.Grid) == 0 {
			st.Note = fmt.Sprintf("the tuning window has %d jobs (< %d): k = %d, tolerance %g without a search", lo, validation.COSHHMinTuneJobs, k, tol)
		}
	}
	p.coshh = st
	return nil, nil
}

// coshhValidate simulates COSHH (the plan of the emitted schedplan.yaml in
// the output directory) beside FIFO and Fair on the validation window,
// appends their rows to the task-level table and returns the metrics and
// coshh.parquet; the wall-clock overhead is logged (logOverhead). Without
// a COSHH fit it returns a note only.
func (p *pipelineRun) coshhValidate(ctx context.Context) (*validation.COSHHValidation, map[string][]byte, error) {
	in, fit := p.in, p.coshh.Fit
	if fit == nil {
		return &validation.COSHHValidation{Note: "COSHH was not simulated: " + p.coshh.Note, Grid: p.coshh.Grid}, nil, nil
	}
	b, err := bundle.LoadBundle(filepath.Join(p.r.Dir, "schedplan.yaml"))
	if err != nil {
		return nil, nil, fmt.Errorf("coshh: reading the emitted bundle back: %w", err)
	}
	if b.COSHH == nil {
		return nil, nil, fmt.Errorf("coshh: the emitted schedplan.yaml has no coshh section")
	}
	plan, err := b.COSHH.Plan()
	if err != nil {
		return nil, nil, fmt.Errorf("coshh: the emitted schedplan.yaml: %w", err)
	}
	sizes := validation.COSHHSizes(in)
	lo, hi := in.Split.TuneJobs, in.Jobs.Len()
	cut := ""
	if hi-lo > validation.COSHHValidateMaxJobs {
		cut = fmt.Sprintf("; only the validation window's first %d of %d jobs (COSHHValidateMaxJobs)", validation.COSHHValidateMaxJobs, hi-lo)
		hi = lo + validation.COSHHValidateMaxJobs
	}
	n, tasks, err := validation.WindowBudget(in, nil, lo, hi-lo, validation.COSHHValidateMaxTasks, validation.COSHHValidateMinJobs, false)
	if err != nil {
		return nil, nil, err
	}
	if n < hi-lo {
		cut = fmt.Sprintf("; only the validation window's first %d of %d jobs (%s)", n, in.Jobs.Len()-lo,
			validation.BudgetWhy("COSHHValidateMaxTasks", validation.COSHHValidateMaxTasks, "COSHHValidateMinJobs", validation.COSHHValidateMinJobs, tasks))
		hi = lo + n
	}
	w, err := validation.NewCOSHHWindow(in, sizes, lo, hi, fit.Secondary.SizeFloor)
	if err != nil {
		return nil, nil, err
	}
	runs, err := w.RunAll(ctx, fit, plan)
	if err != nil {
		return nil, nil, fmt.Errorf("coshh validation: %w", err)
	}
	load, bound := tasklevel.ExecTimeLoad(w.Jobs, w.Cluster)
	first := 0.0
	if len(w.Jobs) > 0 {
		first = w.Jobs[0].Arrival
	}
	v := &validation.COSHHValidation{K: fit.K, Tolerance: fit.Tolerance, Horizon: validation.COSHHHorizon(runs), FirstArrival: first, FinalClasses: len(runs[0].Fit.Secondary.Classes),
		OfferedLoad: report.FinitePtr(load), OfferedLoadBound: report.FinitePtr(bound), MachineTypes: len(in.Spec.Resources),
		Note: "task level on the spec's machine types, each job's tasks as fast on a type as the execution-time model says (exec rate, memory, retrieve rate); COSHH routes by the plan of schedplan.yaml (fitted on the tuning window) and re-classifies when a job fits no class; FIFO as Hadoop 1's JobQueueTaskScheduler (the head job's node-local map first), Fair with delay scheduling (1.5 offers of every node); Dissatisfaction and Fairness (Σ|Δ − avg|) of all jobs at the job completions (seed 003 §5.2), the other time averages over [first arrival, horizon]" + cut}
	v.Grid, v.FitJobs, v.SimJobs = p.coshh.Grid, p.coshh.FitJobs-p.coshh.FitFrom, p.coshh.SimJobs
	classOf := make([]int, len(w.Jobs))
	x2, err := fit.Secondary.ScaledRows(in.Jobs, sizes, tasklevel.WindowRows(lo, len(w.Jobs)))
	if err != nil {
		return nil, nil, err
	}
	for q, x := range x2 {
		c, _ := coshh.NearestCentre(fit.Plan.Secondary.Centres, x)
		classOf[q] = int(c)
	}
	// The task-level rows' deadlines: Fair's completions on these jobs
	// (runs[2], one pool per user), as the task table's other rows
	// (TaskMetricsNote).
	dl := task.ReferenceDeadlines(w.Jobs, runs[2].Result.Completion)
	var fluid []sim.Job // the rows' jobs, their times alone simulated once
	var alone sim.Alone
	if p.vs.Task != nil {
		fluid, alone = task.FluidJobs(w.Jobs), task.FluidAlone(w.Jobs, w.Cluster)
	}
	for k, r := range runs {
		name := []string{"coshh", "fifo", "fair"}[k]
		v.MetricRows(name, r, w.Jobs, classOf, len(fit.Plan.Secondary.Centres))
		validation.LogOverhead(name, r)
		if t := p.vs.Task; t != nil {
			row := validation.COSHHValidationRow(v.TaskRowName(k), name, fluid, alone, w, r, t.Bounds, dl)
			row.OfferedLoad = v.OfferedLoad
			t.Rows = append(t.Rows, row)
		}
	}
	files := map[string][]byte{}
	if files["coshh.parquet"], err = v.Table(); err != nil {
		return nil, nil, err
	}
	return v, files, nil
}

// validateCOSHH runs coshhValidate into the validation state and files.
func (p *pipelineRun) validateCOSHH(ctx context.Context, files map[string][]byte) error {
	v, extra, err := p.coshhValidate(ctx)
	if err != nil {
		return err
	}
	p.vs.COSHH = v
	for n, b := range extra {
		files[n] = b
	}
	return nil
}
