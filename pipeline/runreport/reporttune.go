package runreport

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/report"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// Verdict is the run's one verdict (DeployVerdict.Sentence), followed by
// the fluid comparison worded as the bound it is (FluidBound).
func Verdict(res *RunResult) string {
	if v := res.Deploy; v != nil {
		return v.Sentence() + " " + FluidBound(res)
	}
	return FluidBound(res)
}

// FluidBound says how the tuned levels compare with the current scheduler
// in the fluid model on the validation window, with the slowdowns and
// missed deadlines they trade: a bound of what the levels could do on a
// server without tasks, machines or YARN's queues, not the verdict.
func FluidBound(res *RunResult) string {
	t, c := res.TunedRow, res.CurrentRow
	trade := fmt.Sprintf("mean response %.4g s against %.4g s, p99 slowdown %.4g against %.4g, mean slowdown %.4g against %.4g, %.2f%% of jobs later than under PS against %.2f%%",
		t.Mean, c.Mean, t.P99Slowdown, c.P99Slowdown, t.MeanSlowdown, c.MeanSlowdown, 100*t.MissedShare, 100*c.MissedShare)
	how := fmt.Sprintf("would beat the current fluid scheduler (%s) by %.1f%%", res.Current, 100*res.FluidImprovement)
	if !res.FluidImproved {
		how = fmt.Sprintf("would NOT beat the current fluid scheduler (%s) (%+.1f%%)", res.Current, -100*res.FluidImprovement)
	}
	return fmt.Sprintf("Fluid-model bound, not the verdict: on one server without tasks, machines or YARN's queues, the tuned levels %s in mean response on the validation window: %s.", how, trade)
}

// tuningSections renders the tuning part of report.html: the deployed
// configuration and why (comparison, robustness, Pareto front, sensitivity)
// and the cross-validation (folds, fold scores, the rule's rolling-origin
// check, the front's members). tuneLoad and valLoad are the tuning and
// validation windows' offered loads (FluidLoadDef), which the tables state.
func tuningSections(tr *tuner.TuneReport, tuneLoad, valLoad float64) ([]report.Section, error) {
	cv := tr.CV
	best := tr.Best
	ch := &cv.Candidates[cv.Chosen]
	tt := report.TableBlock{Highlight: 0, SpecsLast: true, Caption: "Fold means over the tuning window's rolling-origin folds, and the validation window (never seen by the search) simulated whole. Responses in seconds. The tuning window's " + experiment.LoadSentence(tuneLoad, experiment.FluidLoadDef) + "; the validation window's " + experiment.LoadSentence(valLoad, experiment.FluidLoadDef) + ".",
		Header: []string{"configuration", "fold-mean response", "fold-mean p99 slowdown", "validate mean", "validate p99", "validate mean slowdown", "validate p99 slowdown", "validate missed PS deadlines", "policy"}}
	for _, c := range tr.Compare {
		tt.Rows = append(tt.Rows, []string{c.Name, report.F4(c.Tune.Mean), report.F4(c.Tune.P99Slowdown), report.F4(c.Validate.Mean), report.F4(c.Validate.P99),
			report.F4(c.Validate.MeanSlowdown), report.F4(c.Validate.P99Slowdown), fmt.Sprintf("%.2f%%", 100*c.Validate.Missed), report.ShownSpec(c.Policy)})
	}
	rt := report.TableBlock{Highlight: -1, Caption: "Robustness: validation window at ±20% load (offered load: the window's " + experiment.LoadText(valLoad) + " × the factor; " + experiment.FluidLoadDef + "; OVERLOADED above 1: means of an overloaded system)",
		Header: []string{"configuration", "load ×", "offered load", "mean (s)", "p99 (s)", "p99 slowdown"}}
	for _, r := range tr.Robustness {
		rt.Rows = append(rt.Rows, []string{r.Name, fmt.Sprint(r.LoadFactor), experiment.LoadCell(r.LoadFactor * valLoad), report.F4(r.Score.Mean), report.F4(r.Score.P99), report.F4(r.Score.P99Slowdown)})
	}

	var sa, sk report.XYSeries
	sa.Name, sk.Name = "mean response", "mean response"
	for _, e := range tr.Result.VsAlpha0 {
		sa.X, sa.Y = append(sa.X, math.Log10(e.Params.Alpha0)), append(sa.Y, e.Score.Mean)
	}
	for _, e := range tr.Result.VsK {
		sk.X, sk.Y = append(sk.X, float64(e.Params.K)), append(sk.Y, e.Score.Mean)
	}
	curve := "fold means, other parameters at the deployed point"
	if tr.Result.CurvesSampled {
		curve = "fold means on the sampled folds (as the search scored them), other parameters at the deployed point"
	}
	var figs []report.Figure
	for _, f := range []struct {
		title, caption string
		plot           func() ([]byte, error)
	}{
		{"Pareto front", fmt.Sprintf("every candidate's fold-mean mean response against its fold-mean p99 slowdown (log scales); rings are feasible candidates, crosses infeasible ones; the step line joins the candidates no other beats in both; filled dots are on the front over all five metrics (mean and p99 response, mean and p99 slowdown, missed PS deadlines); the dashed line is the SRPT lower bound on mean response (%.4g s)", cv.SRPTMean), func() ([]byte, error) {
			return tuner.PlotFront("Pareto front: mean response vs p99 slowdown (fold means)", tuner.FrontPlotOf(cv))
		}},
		{"Mean response vs α0", curve, func() ([]byte, error) {
			return report.PlotLines("Sensitivity to the first threshold (fold means)", "log10 α0", "mean response (s)", []report.XYSeries{sa}, true)
		}},
		{"Mean response vs k", curve, func() ([]byte, error) {
			return report.PlotLines("Sensitivity to the number of queues (fold means)", "k", "mean response (s)", []report.XYSeries{sk}, true)
		}},
	} {
		fig, err := report.NewFigure(f.title, f.caption, f.plot)
		if err != nil {
			return nil, err
		}
		figs = append(figs, fig)
	}
	intro := fmt.Sprintf("Deployed: %v; thresholds %s, weights %s. ", best, report.FmtFloats(best.Thresholds()), report.FmtFloats(best.Weights()))
	if cv.Deployed != cv.Chosen {
		intro += fmt.Sprintf("The choice, %s, is not a LAS_MQ configuration; the bundle carries the best LAS_MQ. ", ch.Label())
	}
	n := min(3, len(cv.Explanation))
	intro += strings.Join(cv.Explanation[:n], " ")
	tuning := report.Section{ID: "tuning", Title: "Tuned LAS_MQ", Intro: intro, Tables: []report.TableBlock{tt, rt}, Figures: figs}

	// Cross-validation: the folds and every named configuration's fold
	// scores, and the front.
	ft, lines := foldTable(cv)
	foldFig, err := report.NewFigure("Fold scores", "improvement over the current scheduler on each fold (values below −200% drawn at −200%)", func() ([]byte, error) {
		return report.PlotLines("Fold scores", "fold", "improvement over the current scheduler (%)", lines, false)
	})
	if err != nil {
		return nil, err
	}
	pt := frontTable(cv)
	ci := "not available"
	if cv.CI.Available {
		ci = fmt.Sprintf("%s to %s (%.0f%%, %d replicates)", tuner.PctS(cv.CI.Lo), tuner.PctS(cv.CI.Hi), 100*cv.CI.Level, cv.CI.Replicates)
	}
	cvIntro := fmt.Sprintf("%d folds; block-bootstrap interval of the choice's mean fold score: %s. ", len(cv.Scored), ci) + strings.Join(cv.Explanation[n:], " ")
	cvSec := report.Section{ID: "cv", Title: "Cross-validation", Intro: cvIntro, Tables: []report.TableBlock{ft, pt},
		Figures: []report.Figure{foldFig}}
	return []report.Section{tuning, cvSec}, nil
}

// foldTable lists the folds with the fold scores of the choice, the
// runner-up and the named baselines, and the rule's pick from each fold's
// past; lines are the same fold scores for the plot (in %).
func foldTable(cv *tuner.CVResult) (report.TableBlock, []report.XYSeries) {
	named := []struct {
		label string
		idx   int
	}{{"chosen", cv.Chosen}, {"runner-up", cv.RunnerUp}, {"plain LAS", cv.LASIdx}, {"PS", cv.PSIdx}, {"first guess", cv.FGIdx}}
	header := []string{"fold", "jobs", "submit from", "simulated jobs (blocks)", "starts a busy period", "SRPT bound (s)", "current mean (s)"}
	for _, nm := range named {
		if nm.idx >= 0 {
			header = append(header, nm.label)
		}
	}
	header = append(header, "rule's pick from the past")
	ft := report.TableBlock{Highlight: -1, Header: header, Caption: fmt.Sprintf("Fold scores: improvement over the current scheduler (%s) in %s; chunk 0 only tunes", cv.Current, tuner.ObjectiveLabel(cv.Objective))}
	var lines []report.XYSeries
	for _, nm := range named {
		if nm.idx >= 0 {
			name := nm.label
			if c := &cv.Candidates[nm.idx]; c.Name == "" {
				name += ": " + c.Label()
			}
			lines = append(lines, report.XYSeries{Name: name})
		}
	}
	for _, f := range cv.Folds {
		row := []string{fmt.Sprint(f.Index), fmt.Sprint(f.Jobs), experiment.FormatInstant(f.Span[0]), fmt.Sprintf("%d (%d)", f.Scored, f.Units), fmt.Sprint(f.Exact),
			report.F4(cv.SRPT[f.Index]), report.F4(cv.Candidates[cv.CurrentIdx].Chunks[f.Index].Mean)}
		k := slices.Index(cv.Scored, f.Index)
		li := 0
		for _, nm := range named {
			if nm.idx < 0 {
				continue
			}
			if k < 0 {
				row = append(row, "–")
			} else {
				v := cv.Candidates[nm.idx].Folds[k]
				row = append(row, tuner.PctS(v))
				lines[li].X, lines[li].Y = append(lines[li].X, float64(f.Index)), append(lines[li].Y, 100*math.Max(v, -2))
			}
			li++
		}
		pick := "–"
		for _, p := range cv.Procedure {
			if p.Fold == f.Index {
				pick = fmt.Sprintf("%s: %s (best %s)", cv.Candidates[p.Pick].Label(), tuner.PctS(p.Improvement), tuner.PctS(p.Best))
			}
		}
		ft.Rows = append(ft.Rows, append(row, pick))
	}
	mean := []string{"mean ± SE", "", "", "", "", report.F4(cv.SRPTMean), report.F4(cv.Candidates[cv.CurrentIdx].FoldMean.Mean)}
	for _, nm := range named {
		if nm.idx >= 0 {
			c := &cv.Candidates[nm.idx]
			mean = append(mean, fmt.Sprintf("%s ± %.1f", tuner.PctS(c.Improvement), 100*c.SE))
		}
	}
	ft.Rows = append(ft.Rows, append(mean, ""))
	return ft, lines
}

// frontTable lists the Pareto front over the five fold-mean metrics (at
// most 30 rows, the choice among them).
func frontTable(cv *tuner.CVResult) report.TableBlock {
	pt := report.TableBlock{Highlight: -1, SpecsLast: true, Caption: "Pareto front over the five fold-mean metrics (responses in seconds)",
		Header: []string{"candidate", "mean fold score", "mean response", "p99 response", "mean slowdown", "p99 slowdown", "missed PS deadlines", "feasible", "policy"}}
	var onFront []int
	for i := range cv.Candidates {
		if cv.Candidates[i].Pareto {
			onFront = append(onFront, i)
		}
	}
	slices.SortStableFunc(onFront, func(a, b int) int {
		return cmp.Compare(cv.Candidates[a].FoldMean.Mean, cv.Candidates[b].FoldMean.Mean)
	})
	const maxFrontRows = 30
	if len(onFront) > maxFrontRows {
		pt.Caption += fmt.Sprintf("; the %d with the lowest mean response of %d (all are in the tune stage's JSON)", maxFrontRows, len(onFront))
		if !slices.Contains(onFront[:maxFrontRows], cv.Chosen) && slices.Contains(onFront, cv.Chosen) {
			onFront = append(onFront[:maxFrontRows-1], cv.Chosen)
		} else {
			onFront = onFront[:maxFrontRows]
		}
	}
	for _, i := range onFront {
		c := &cv.Candidates[i]
		if i == cv.Chosen {
			pt.Highlight = len(pt.Rows)
		}
		m := c.FoldMean
		pt.Rows = append(pt.Rows, []string{c.Label(), tuner.PctS(c.Improvement), report.F4(m.Mean), report.F4(m.P99), report.F4(m.MeanSlowdown), report.F4(m.P99Slowdown), fmt.Sprintf("%.2f%%", 100*m.Missed), fmt.Sprint(c.Feasible), report.ShownSpec(c.Policy)})
	}
	return pt
}
