package validation

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/report"
)

// WriteText prints the task-level validation table and its verdict.
func (t *TaskValidation) WriteText(w io.Writer) {
	fmt.Fprintf(w, "\ntask-level validation (%d machines, %d containers, %.4g container-seconds/s; %d tasks): %s\n", t.Machines, t.Containers, t.RateCS, t.Tasks, t.Note)
	fmt.Fprintf(w, "%s\n", t.LoadNote())
	tw := report.NewTable(w, tabwriter.AlignRight)
	fmt.Fprintln(tw, "task level, validation window\toffered load\tmean response (s)\tp99 (s)\tmean slowdown\tp99 slowdown\tgap to fluid SRPT bound\tmissed deadlines (vs current)\tpolicy\t")
	for _, r := range t.Rows {
		fmt.Fprintf(tw, "%s\t%s\t%.4g\t%.4g\t%.4g\t%.4g\t%+.1f%%\t%.0f\t%s\t\n", r.Name, experiment.LoadCell(experiment.LoadOf(r.OfferedLoad)), r.Mean, r.P99, r.MeanSlowdown, r.P99Slowdown, 100*r.Gap, r.Missed, report.ShownSpec(r.Policy))
	}
	tw.Flush()
	fmt.Fprintf(w, "task level, %s: %s\n\n", OneReplayNote, t.RowsText())
	if v := t.EmittedVerdict(); v != "" {
		fmt.Fprintf(w, "task level, %s: %s\n\n", OneReplayNote, v)
	}
}
