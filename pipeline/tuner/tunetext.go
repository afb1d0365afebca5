package tuner

import (
	"fmt"
	"io"
	"slices"
	"text/tabwriter"

	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/report"
)

// WriteText prints the tuning report of a trace: the folds, why the choice
// was made, the deployed configuration, the comparison on both windows
// (slowdowns and missed PS deadlines beside responses), robustness and
// sensitivity.
func (rep *TuneReport) WriteText(out io.Writer, source string) {
	s := rep.Split
	fmt.Fprintf(out, "trace %s: tuning window %d jobs (submit %s .. %s), validation window %d jobs (%s .. %s); capacity %g\n",
		report.Printable(source), s.TuneJobs, experiment.FormatInstant(s.TuneSpan[0]), experiment.FormatInstant(s.TuneSpan[1]), s.ValidJobs, experiment.FormatInstant(s.ValidSpan[0]), experiment.FormatInstant(s.ValidSpan[1]), rep.Capacity)
	cv, r := rep.CV, rep.Result
	fmt.Fprintf(out, "objective %s, constraints %s; first guess from sizes: %v\n", cv.Objective, cv.Constraints, r.FirstGuess)
	tw := report.NewTable(out, tabwriter.AlignRight)
	fmt.Fprintln(tw, "fold\tjobs\tsubmit from\tsimulated jobs\tblocks\tstarts a busy period\t")
	for _, f := range cv.Folds {
		name := fmt.Sprint(f.Index)
		if !slices.Contains(cv.Scored, f.Index) {
			name += " (tunes only)"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%d\t%d\t%v\t\n", name, f.Jobs, experiment.FormatInstant(f.Span[0]), f.Scored, f.Units, f.Exact)
	}
	tw.Flush()
	fmt.Fprintln(out)
	for _, e := range cv.Explanation {
		fmt.Fprintln(out, e)
	}
	if th := ThresholdsText(rep.Best.Thresholds(), rep.HeldPerUnit); rep.HeldPerUnit > 0 && th != "" {
		fmt.Fprintf(out, "\nthe deployed thresholds as YARN, schedplan yarn-controller and the task level count them: %s\n", th)
	}
	fmt.Fprintf(out, "\ndeployed: %v\n  thresholds %s (attained service, size units)\n  weights    %s\n  policy     %s\n\n",
		rep.Best, report.FmtFloats(rep.Best.Thresholds()), report.FmtFloats(rep.Best.Weights()), rep.Best.Spec())
	fmt.Fprintf(out, "tuning window: %s\nvalidation window: %s\n", experiment.LoadSentence(experiment.LoadOf(rep.TuneLoad), experiment.FluidLoadDef), experiment.LoadSentence(experiment.LoadOf(rep.ValidationLoad), experiment.FluidLoadDef))
	tw = report.NewTable(out, tabwriter.AlignRight)
	fmt.Fprintln(tw, "configuration\tfold-mean response (s)\tfold-mean p99 slowdown\tvalidate mean (s)\tvalidate p99 (s)\tvalidate mean slowdown\tvalidate p99 slowdown\tvalidate missed PS deadlines\t")
	for _, c := range rep.Compare {
		fmt.Fprintf(tw, "%s\t%.4g\t%.4g\t%.4g\t%.4g\t%.4g\t%.4g\t%.2f%%\t\n", c.Name, c.Tune.Mean, c.Tune.P99Slowdown, c.Validate.Mean, c.Validate.P99, c.Validate.MeanSlowdown, c.Validate.P99Slowdown, 100*c.Validate.Missed)
	}
	tw.Flush()
	verdict := "beats"
	if rep.Improvement <= 0 {
		verdict = "does NOT beat"
	}
	t, f := rep.Compare[0].Validate, rep.Compare[3].Validate
	fmt.Fprintf(out, "\nfluid-model bound, not a verdict: on the validation window the tuned configuration %s the best baseline (Hu et al.'s default, fair) by %.1f%% in mean response, at p99 slowdown %.4g and mean slowdown %.4g (fair: %.4g and %.4g); the verdict (deploy or keep) is schedplan run's, which replays the YARN files at task level\n\n",
		verdict, 100*rep.Improvement, t.P99Slowdown, t.MeanSlowdown, f.P99Slowdown, f.MeanSlowdown)
	tw = report.NewTable(out, tabwriter.AlignRight)
	fmt.Fprintln(tw, "robustness (validation window)\tload ×\toffered load\tmean (s)\tp99 (s)\tp99 slowdown\t")
	for _, rr := range rep.Robustness {
		fmt.Fprintf(tw, "%s\t%.2g\t%s\t%.4g\t%.4g\t%.4g\t\n", rr.Name, rr.LoadFactor, experiment.LoadCell(rr.LoadFactor*experiment.LoadOf(rep.ValidationLoad)), rr.Score.Mean, rr.Score.P99, rr.Score.P99Slowdown)
	}
	tw.Flush()
	on := ""
	if r.CurvesSampled {
		on = " on the sampled folds"
	}
	fmt.Fprintf(out, "\nsensitivity (fold means%s, other parameters at the deployed point):\n", on)
	for _, e := range r.VsAlpha0 {
		fmt.Fprintf(out, "  alpha0 %-10.4g mean %.4g s\n", e.Params.Alpha0, e.Score.Mean)
	}
	for _, e := range r.VsK {
		fmt.Fprintf(out, "  k %-15d mean %.4g s\n", e.Params.K, e.Score.Mean)
	}
}

// ThresholdsText states tuned thresholds in the unit of the sizes and, when
// held > 0 (HeldPerUnit), in the held container-seconds that YARN, the
// controller and the task level count; "" when there are none (k = 1).
func ThresholdsText(th []float64, held float64) string {
	if len(th) == 0 {
		return ""
	}
	s := report.FmtFloats(th) + " (attained service, size units)"
	if held > 0 {
		h := make([]float64, len(th))
		for i, v := range th {
			h[i] = v * held
		}
		s += fmt.Sprintf(" = %s %s (× %.4g: the cluster's containers / the tuning capacity)", report.FmtFloats(h), UnitHeldContainerSeconds, held)
	}
	return s
}
