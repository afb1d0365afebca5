package inputs

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/report"
)

// WriteText prints the workload summary and its largest users (at most
// maxUsers of them).
func (w Workload) WriteText(out io.Writer, maxUsers int) {
	tw := report.NewTable(out, 0)
	fmt.Fprintf(tw, "trace\t%s\n", report.Printable(w.Source))
	fmt.Fprintf(tw, "jobs\t%d\n", w.Jobs)
	fmt.Fprintf(tw, "submit times\t%s .. %s (span %s)\n", experiment.FormatInstant(w.FirstSubmit), experiment.FormatInstant(w.LastSubmit), experiment.FormatSpan(w.Span))
	fmt.Fprintf(tw, "arrival rate\t%.4g jobs/s\n", w.ArrivalRate)
	fmt.Fprintf(tw, "sizes from\t%s (%s)\n", w.SizeSource, SizeUnit(w.SizeSource))
	fmt.Fprintf(tw, "total work\t%.6g\n", w.TotalWork)
	fmt.Fprintf(tw, "size mean\t%.4g\n", w.Size.Mean)
	fmt.Fprintf(tw, "size p50 / p90 / p99 / max\t%.4g / %.4g / %.4g / %.4g\n", w.Size.P50, w.Size.P90, w.Size.P99, w.Size.Max)
	fmt.Fprintf(tw, "zero-size jobs\t%d\n", w.ZeroSize)
	fmt.Fprintf(tw, "work in largest 1%% of jobs\t%.1f%%\n", 100*w.TopShare)
	fmt.Fprintf(tw, "users\t%d\n", len(w.Users))
	if w.UserNames != "" {
		fmt.Fprintf(tw, "user names\t%s\n", report.Printable(w.UserNames))
	}
	if w.Observed != nil {
		fmt.Fprint(tw, w.Observed.String())
	}
	if t := w.Tasks; t != nil {
		fmt.Fprintf(tw, "tasks\t%d tasks of %d jobs, from %s\n", t.Tasks, t.Jobs, report.Printable(t.From))
		if t.OrphanTasks > 0 {
			fmt.Fprintf(tw, "tasks left out\t%d, of no job in the log\n", t.OrphanTasks)
		}
	}
	tw.Flush()
	if w.Log != nil {
		for _, line := range strings.Split(w.Log.String(), "\n") {
			fmt.Fprintln(out, report.Printable(line))
		}
	}
	if w.Columns != nil {
		for _, line := range strings.Split(w.Columns.String(), "\n") {
			fmt.Fprintln(out, report.Printable(line))
		}
	}
	if len(w.Users) == 0 {
		return
	}
	fmt.Fprintln(out)
	tw = report.NewTable(out, tabwriter.AlignRight)
	fmt.Fprintln(tw, "user\tjobs\tshare\t")
	for k, u := range w.Users {
		if k == maxUsers {
			fmt.Fprintf(tw, "(%d more)\t\t\t\n", len(w.Users)-k)
			break
		}
		fmt.Fprintf(tw, "%s\t%d\t%.1f%%\t\n", report.Printable(u.User), u.Jobs, 100*float64(u.Jobs)/float64(w.Jobs))
	}
	tw.Flush()
}

// SizeUnit names the unit of sizes from src (without NormaliseAll).
func SizeUnit(src estimate.Source) string {
	if src == estimate.FromBytes {
		return "seconds of the whole cluster, normalised to the load"
	}
	return "container-seconds"
}
