package tasklevel

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/report"
)

// WriteText prints the report as a table.
func (rep *SimulateReport) WriteText(out io.Writer) {
	load := experiment.LoadText(experiment.LoadOf(rep.OfferedLoad))
	fmt.Fprintf(out, "trace %s (%s window): %d jobs, capacity %g (%s), offered load %s, estimates %s",
		report.Printable(rep.Trace), rep.Window, rep.Jobs, rep.Capacity, rep.CapacityFrom, load, rep.Errors)
	multi := len(rep.Policies) > 0 && rep.Policies[0].Runs > 1
	if multi {
		fmt.Fprintf(out, ", %d runs (seed %d)", rep.Policies[0].Runs, rep.Seed)
	}
	fmt.Fprintln(out)
	if rep.Warning != "" {
		fmt.Fprintf(out, "WARNING: %s\n", rep.Warning)
	}
	tw := report.NewTable(out, tabwriter.AlignRight)
	head := "policy\tmean resp (s)\t"
	if multi {
		head += "min\tmedian\tmax\t"
	}
	fmt.Fprintln(tw, head+"p50\tp90\tp99\tmax resp\tmean slowdown\tp99 slowdown\tmissed\tmakespan (s)\tutil\t")
	for _, p := range rep.Policies {
		s := p.Mean
		fmt.Fprintf(tw, "%s\t%.6g\t", report.ShownSpec(p.Policy), s.Response.Mean)
		if multi {
			fmt.Fprintf(tw, "%.6g\t%.6g\t%.6g\t", p.MeanResponse.Min, p.MeanResponse.P50, p.MeanResponse.Max)
		}
		fmt.Fprintf(tw, "%.4g\t%.4g\t%.4g\t%.4g\t%.4g\t%.4g\t%.2f%%\t%.6g\t%.3f\t\n",
			s.Response.P50, s.Response.P90, s.Response.P99, s.Response.Max,
			s.Slowdown.Mean, s.Slowdown.P99, 100*s.MissedShare, s.Makespan, s.Utilisation)
	}
	tw.Flush()
	if rep.Note != "" {
		fmt.Fprintln(out, rep.Note)
	}
	writeTaskRunStats(out, rep.TaskRuns)
	writePhaseText(out, rep.Phase, rep.phaseMachines)
}
