package tunedeploy

import (
	"fmt"
	"io"
	"math"
	"text/tabwriter"

	"github.com/schedplan/schedplan/pipeline/report"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// shown reports whether a candidate appears in the deploy tables: keep,
// the finalists and references, and every candidate on the front.
func (c *DeployCandidate) shown() bool {
	return c.Family == FamilyKeep || c.Finalist || c.Pareto
}

// intervalText is an interval of relative differences in percent ("" when
// not computed).
func intervalText(iv *tuner.Interval) string {
	if iv == nil || !iv.Available {
		return ""
	}
	return bounds(*iv)
}

// bounds is an interval's ends in percent, "[lo, hi]" (pctPrecise).
func bounds(iv tuner.Interval) string {
	return "[" + pctPrecise(iv.Lo) + ", " + pctPrecise(iv.Hi) + "]"
}

// Summary says in sentences how the deploy tuner scored and chose.
func (dt *DeployTuning) Summary() string {
	named := "applications name no queue"
	if dt.LogQueues {
		named = "applications name their log queue"
	}
	s := fmt.Sprintf("Task-level deploy tuning: %d candidates (rendered files, replayed as deployed: %s) on %d chunks of the tuning window × %d task seeds (screening: %d seed), paired against the current scheduler (%s) in %s; constraints %s.",
		dt.deployableCount(), named, len(dt.Chunks), len(dt.Seeds), dt.ScreenSeeds, dt.CurrentName, tuner.ObjectiveLabel(dt.Objective), dt.Constraints)
	if dt.TasksReplayed {
		s += " The log's tasks are replayed as they ran (one seed)."
	}
	if r := dt.FluidSpearman; r != nil {
		s += fmt.Sprintf(" Rank correlation (Spearman) of the LAS_MQ candidates' fluid-model and task-level differences: %.2f.", *r)
	}
	if dt.Contender < 0 {
		s += " Every candidate behaves as the current scheduler: keep."
	}
	if dt.Contender >= 0 {
		c := &dt.Candidates[dt.Contender]
		s += fmt.Sprintf(" Best candidate (the simplest within %.0f%% of the best): %s, %+.2f%% %s.", 100*DeploySimplerSlack, c.Name, 100*c.Mean, intervalText(c.Interval))
		if dt.Chosen == dt.Contender {
			s += " The tuner chooses it: its whole interval lies below 0 and it meets the constraints."
		} else {
			s += " The tuner keeps the current scheduler: that interval does not lie wholly below 0, or the constraints fail."
		}
	}
	if g := dt.FSPGapClosed; g != nil && dt.Contender >= 0 && dt.Candidates[dt.Contender].Mean < 0 {
		s += fmt.Sprintf(" It closes %.0f%% of the gap between the current scheduler and FSP with exact sizes.", 100**g)
	}
	return s
}

func (dt *DeployTuning) deployableCount() int {
	n := 0
	for i := range dt.Candidates {
		if dt.Candidates[i].deployable() {
			n++
		}
	}
	return n
}

// WriteText prints the deploy tuner's summary and its table (keep, the
// finalists, the references and the front).
func (dt *DeployTuning) WriteText(w io.Writer) {
	if dt == nil {
		return
	}
	fmt.Fprintf(w, "%s\n", dt.Summary())
	tw := report.NewTable(w, tabwriter.AlignRight)
	fmt.Fprintln(tw, "candidate (tuning window)\tmean difference\tinterval\tfluid difference\tmean response (s)\tp99 slowdown\tfeasible\tpairs\t")
	for i := range dt.Candidates {
		c := &dt.Candidates[i]
		if !c.shown() {
			continue
		}
		fl := ""
		if c.Fluid != nil {
			fl = fmt.Sprintf("%+.2f%%", 100**c.Fluid)
		}
		name := c.Name
		if i == dt.Chosen {
			name = "▶ " + name
		}
		fmt.Fprintf(tw, "%s\t%+.2f%%\t%s\t%s\t%.4g\t%.4g\t%v\t%d\t\n", name, 100*c.Mean, intervalText(c.Interval), fl, c.Score.Mean, c.Score.P99Slowdown, c.Feasible, pairsOf(c.Diffs))
	}
	tw.Flush()
	fmt.Fprintln(w)
}

// pairsOf counts the differences.
func pairsOf(groups [][]float64) int {
	n := 0
	for _, g := range groups {
		n += len(g)
	}
	return n
}

// DeploySection is report.html's section on the one verdict and the deploy
// tuner: the verdict, the candidates' table and the task-level Pareto
// front with the choice, the current scheduler, LAS and FSP marked.
func DeploySection(dt *DeployTuning, v *DeployVerdict) (report.Section, error) {
	sec := report.Section{ID: "verdict", Title: "How the verdict was reached", Intro: v.Sentence() + " " + dt.Summary()}
	tb := report.TableBlock{Highlight: -1, SpecsLast: true, Caption: "Candidates replayed at task level on the tuning window: the mean paired relative difference against the current scheduler in the objective (negative: better), its 95% bootstrap interval (finalists), the fluid model's difference on the same chunks, and the metrics averaged over the pairs (screened candidates: one seed; finalists and references: every seed).",
		Header: []string{"candidate", "mean difference", "interval", "fluid difference", "mean response (s)", "p99 slowdown", "feasible", "pairs", "policy"}}
	f := tuner.FrontPlot{XLabel: "p99 slowdown (mean over pairs)", YLabel: "mean response (s, mean over pairs)", HLine: math.NaN()}
	for i := range dt.Candidates {
		c := &dt.Candidates[i]
		f.X, f.Y, f.OnFront, f.Feasible = append(f.X, c.Score.P99Slowdown), append(f.Y, c.Score.Mean), append(f.OnFront, c.Pareto), append(f.Feasible, c.Feasible)
		switch {
		case c.Family == FamilyKeep:
			f.Marks = append(f.Marks, tuner.FrontMark{Name: "current (" + dt.CurrentName + ")", X: c.Score.P99Slowdown, Y: c.Score.Mean})
		case c.Family == FamilyReference:
			f.Marks = append(f.Marks, tuner.FrontMark{Name: map[string]string{"las": "LAS", "fsp": "FSP (exact sizes)"}[c.Policy], X: c.Score.P99Slowdown, Y: c.Score.Mean})
		case i == dt.Contender:
			f.Marks = append(f.Marks, tuner.FrontMark{Name: "chosen / best candidate", X: c.Score.P99Slowdown, Y: c.Score.Mean})
		}
		if !c.shown() {
			continue
		}
		if i == dt.Contender {
			tb.Highlight = len(tb.Rows)
		}
		fl := ""
		if c.Fluid != nil {
			fl = fmt.Sprintf("%+.2f%%", 100**c.Fluid)
		}
		tb.Rows = append(tb.Rows, []string{c.Name, fmt.Sprintf("%+.2f%%", 100*c.Mean), intervalText(c.Interval), fl, report.F4(c.Score.Mean), report.F4(c.Score.P99Slowdown), fmt.Sprint(c.Feasible), fmt.Sprint(pairsOf(c.Diffs)), report.ShownSpec(c.Policy)})
	}
	sec.Tables = append(sec.Tables, tb)
	fig, err := report.NewFigure("Task-level Pareto front", "Every candidate at task level on the tuning window (filled: on the front of all five metrics), the current scheduler, LAS and FSP with exact sizes marked.", func() ([]byte, error) {
		return tuner.PlotFront("Deployable candidates at task level, tuning window", f)
	})
	if err != nil {
		return sec, err
	}
	sec.Figures = append(sec.Figures, fig)
	return sec, nil
}
