package capacity

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/schedplan/schedplan/pipeline/report"
)

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
