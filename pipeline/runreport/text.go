package runreport

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
