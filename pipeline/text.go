package pipeline

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/report"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
)

// Plain-text renderings of results, for terminals (the report is the HTML
// rendering). Every figure carries its unit; names that come from input
// files pass through Printable.

// BoundsReport is what `schedplan bounds --json` prints: the window, its
// offered load (FluidLoadDef; null when undefined), the bounds and each
// policy against them.
type BoundsReport struct {
	Trace       string                `json:"trace"`
	Window      string                `json:"window"`
	OfferedLoad *float64              `json:"offered_load"`
	Overloaded  bool                  `json:"overloaded"`
	Bounds      *experiment.Bounds    `json:"bounds"`
	Policies    []tasklevel.BoundsRow `json:"policies"`
}

// NewBoundsReport collects a bounds measurement on w for printing.
func NewBoundsReport(w *tasklevel.Window, b *experiment.Bounds, rows []tasklevel.BoundsRow) *BoundsReport {
	return &BoundsReport{Trace: w.Log.Source, Window: w.Name, OfferedLoad: report.FinitePtr(w.OfferedLoad), Overloaded: w.OfferedLoad > 1, Bounds: b, Policies: rows}
}

// WriteBoundsText prints the bounds of a window and each policy's gap.
func WriteBoundsText(out io.Writer, w *tasklevel.Window, b *experiment.Bounds, rows []tasklevel.BoundsRow) {
	fmt.Fprintf(out, "trace %s, window %s: %d jobs, capacity %g (%s); %s\n", report.Printable(w.Log.Source), w.Name, b.Jobs, b.Capacity, w.CapacityFrom, experiment.LoadSentence(w.OfferedLoad, experiment.FluidLoadDef))
	fmt.Fprintf(out, "lower bound (SRPT, exact sizes)   mean response %.6g s\n", b.SRPTMean)
	fmt.Fprintf(out, "protective schedule (FSP, exact)  mean response %.6g s (misses %d PS deadlines)\n", b.FSPMean, b.FSPMissed)
	fmt.Fprintf(out, "processor sharing (the deadlines) mean response %.6g s\n\n", b.PSMean)
	tw := report.NewTable(out, tabwriter.AlignRight)
	fmt.Fprintln(tw, "policy\tmean response (s)\tgap to bound\tmissed deadlines\tshare\tmax lateness (s)\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%.6g\t%+.1f%%\t%d\t%.1f%%\t%.4g\t\n", report.ShownSpec(r.Policy), r.Mean, 100*r.Gap, r.Missed, 100*r.MissedShare, r.MaxLate)
	}
	tw.Flush()
}

// WriteText prints what a run did into dir and its verdict.
func (res *RunResult) WriteText(w io.Writer, dir string, took time.Duration) {
	fmt.Fprintf(w, "trace %s: %d jobs; tuned on %d, validated on %d\n", report.Printable(res.Trace), res.Workload.Jobs, res.Split.TuneJobs, res.Split.ValidJobs)
	load := experiment.LoadText(experiment.LoadOf(res.OfferedLoad))
	if l := res.Workload.Log; l != nil {
		for _, line := range strings.Split(l.String(), "\n") {
			fmt.Fprintln(w, report.Printable(line))
		}
	}
	if t := res.Workload.Tasks; t != nil {
		fmt.Fprintf(w, "tasks: %d tasks of %d jobs, from %s; the task level runs them as they ran\n", t.Tasks, t.Jobs, report.Printable(t.From))
	}
	fmt.Fprintf(w, "simulated at capacity %g (%s); offered load %s\n", res.Capacity, res.CapacityFrom, load)
	for _, m := range res.Warnings {
		fmt.Fprintf(w, "WARNING: %s\n", m)
	}
	if len(res.Skipped) > 0 {
		fmt.Fprintf(w, "stages run: %s; up to date: %s\n", strings.Join(res.Ran, ", "), strings.Join(res.Skipped, ", "))
	}
	fmt.Fprintf(w, "cluster %s\n", report.Printable(res.Cluster))
	fmt.Fprintln(w, res.CapacityCheck.Headline(res.Lambda))
	fmt.Fprintf(w, "tuned LAS_MQ (the levels capacity-scheduler.xml implements): %s\n", report.ShownSpec(res.TunedSpec))
	if h := res.TunedHPFSP; h != nil {
		fmt.Fprintf(w, "tuned H-PFSP (task level): %s — FAIR_LIMIT %d %s, threshold %g %s; sizes online (%s estimator, progress reports every %g s)\n",
			h.Spec(), h.FairLimit, h.FairLimitUnit, h.Threshold, h.ThresholdUnit, h.Estimator, h.ReportIntervalS)
	}
	fmt.Fprintf(w, "\nvalidation window: %s\n", experiment.LoadSentence(experiment.LoadOf(res.ValidationLoad), experiment.FluidLoadDef))
	tw := report.NewTable(w, tabwriter.AlignRight)
	fmt.Fprintln(tw, "validation window\tσ\tmean response (s)\tp99 (s)\tmean slowdown\tp99 slowdown\tgap to SRPT bound\tmissed PS deadlines\t")
	for _, r := range res.Validation {
		if r.Sigma == 0 {
			fmt.Fprintf(tw, "%s\t%g\t%.4g\t%.4g\t%.4g\t%.4g\t%+.1f%%\t%.0f\t\n", r.Name, r.Sigma, r.Mean, r.P99, r.MeanSlowdown, r.P99Slowdown, 100*r.Gap, r.Missed)
		}
	}
	tw.Flush()
	fmt.Fprintf(w, "\n%s\n", FluidBound(res))
	if t := res.TaskValidation; t != nil {
		t.WriteText(w)
	}
	res.DeployTuning.WriteText(w)
	if c := res.COSHH; c != nil {
		c.WriteText(w)
	}
	res.Calibration.WriteText(w)
	if v := res.Deploy; v != nil {
		fmt.Fprintf(w, "%s\n\n", v.Sentence())
	}
	fmt.Fprintf(w, "wrote %s/{%s} in %.1f s\n", strings.TrimRight(dir, "/"), strings.Join(res.Files, ","), took.Seconds())
	if steps := res.Deploy.NextSteps(dir); len(steps) > 0 {
		fmt.Fprintf(w, "\nnext steps:\n")
		for i, s := range steps {
			fmt.Fprintf(w, "  %d. %s\n", i+1, s)
		}
	}
}

// WriteText prints the analysis: λ, the allocation per class and type, the
// types' suggested classes and load, the what-ifs and targets.
func (cr *CapacityAnalysis) WriteText(out io.Writer) {
	fmt.Fprintf(out, "== %s classification", cr.Name)
	if cr.Reason != "" {
		fmt.Fprintf(out, ": no LP: %s\n", cr.Reason)
		return
	}
	fmt.Fprintf(out, " (%d jobs, k = %d, features %s)\n", cr.Jobs, cr.K, strings.Join(cr.Features, ", "))
	fmt.Fprintf(out, "λ = %.6g: the cluster sustains %.4g × today's arrival rates (Σα = %.4g jobs/s → %.4g jobs/s)\n",
		cr.Lambda, cr.Lambda, cr.TotalAlpha, cr.Lambda*cr.TotalAlpha)
	rounds := "rounds"
	if cr.Rounds == 1 {
		rounds = "round"
	}
	fmt.Fprintf(out, "solved by %s, %s (%d %s, %d δ columns", cr.Solver, cr.Method, cr.Rounds, rounds, cr.Columns)
	if cr.Bound > 0 {
		fmt.Fprintf(out, "; duals certify λ* ≤ %.10g", cr.Bound)
	}
	fmt.Fprintln(out, ")")
	for _, m := range cr.Messages {
		fmt.Fprintf(out, "note: %s\n", m)
	}

	fmt.Fprintln(out)
	tw := report.NewTable(out, tabwriter.AlignRight)
	fmt.Fprint(tw, "class\tlabel\tjobs\tα (jobs/s)\tmean size\t")
	for _, t := range cr.Types {
		fmt.Fprintf(tw, "δ %s\t", t.Name)
	}
	fmt.Fprintln(tw)
	for _, c := range cr.Classes {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.4g\t%.4g\t", c.Name, c.Label, c.Jobs, c.Alpha, c.MeanSize)
		for _, d := range c.Delta {
			fmt.Fprintf(tw, "%s\t", fmtFrac(d))
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()

	fmt.Fprintln(out)
	tw = report.NewTable(out, 0)
	fmt.Fprintln(tw, "type\tmachines\tsuggested classes\tallocated\tbusy at today's rates\tjobs/s")
	for _, t := range cr.Types {
		sc := strings.Join(t.Suggested, ", ")
		if sc == "" {
			sc = "-"
		}
		fmt.Fprintf(tw, "%s\t%g\t{%s}\t%.1f%%\t%.1f%%\t%.4g\n", t.Name, t.Count, sc, 100*t.Allocated, 100*t.Utilisation, t.Throughput)
	}
	tw.Flush()
	cr.writeDuals(out)

	if len(cr.WhatIfs) > 0 {
		fmt.Fprintln(out)
		tw = report.NewTable(out, 0)
		sims := cr.whatIfsSimulated()
		if sims {
			fmt.Fprintln(tw, "what-if\tλ\tvs today\tsimulated at today's rate: mean (s)\tp99 (s)\tunfinished\t")
		} else {
			fmt.Fprintln(tw, "what-if\tλ\tvs today\t")
		}
		for _, w := range cr.WhatIfs {
			fmt.Fprintf(tw, "%s\t%.6g\t%+.2f%%\t", w.Change, w.Lambda, 100*(w.Ratio-1))
			switch {
			case w.Sim != nil:
				fmt.Fprintf(tw, "%.4g\t%.4g\t%.1f%%\t", w.Sim.Mean, w.Sim.P99, 100*w.Sim.Unfinished)
			case sims:
				fmt.Fprint(tw, "-\t-\t-\t")
			}
			fmt.Fprintln(tw, w.Note)
		}
		tw.Flush()
	}
	if cr.MPSFile != "" {
		fmt.Fprintf(out, "wrote %s (%s LP, MPS)\n", cr.MPSFile, cr.Name)
	}
	if len(cr.Targets) > 0 {
		fmt.Fprintf(out, "\nto reach λ = %g with one machine type alone:\n", cr.Target)
		tw = report.NewTable(out, 0)
		fmt.Fprintln(tw, "type\tmachines\tchange\tλ there\tλ with unlimited machines")
		for _, t := range cr.Targets {
			if !t.Reachable {
				fmt.Fprintf(tw, "%s\tnever\t\t\t%s\n", t.Type, t.LimitText)
				continue
			}
			fmt.Fprintf(tw, "%s\t%g\t%+g\t%.6g\t%s\n", t.Type, t.Count, t.Change, t.Lambda, t.LimitText)
		}
		tw.Flush()
	}
}

// writeDuals prints the dual price of every type's capacity row.
func (cr *CapacityAnalysis) writeDuals(out io.Writer) {
	fmt.Fprintln(out)
	if !cr.HasDuals {
		fmt.Fprintln(out, "dual prices: not available (the solver gave no duals)")
		return
	}
	fmt.Fprintln(out, "dual price per machine type (λ per unit of capacity; the prices of all types sum to λ):")
	tw := report.NewTable(out, 0)
	fmt.Fprintln(tw, "type\tλ per machine\tλ per whole type\tshare of λ\tbottleneck")
	for _, t := range cr.Types {
		bn := "no"
		if t.Bottleneck {
			bn = "yes"
		}
		fmt.Fprintf(tw, "%s\t%.4g\t%.4g\t%.1f%%\t%s\n", t.Name, t.Marginal, t.DualPrice, 100*t.DualShare, bn)
	}
	tw.Flush()
}

func fmtFrac(v float64) string {
	if v == 0 {
		return "0"
	}
	return fmt.Sprintf("%.4f", v)
}
