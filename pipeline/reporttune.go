package pipeline

import (
	"cmp"
	"errors"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strings"

	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/report"
	"github.com/schedplan/schedplan/pipeline/tuner"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
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
			return PlotFront("Pareto front: mean response vs p99 slowdown (fold means)", frontPlotOf(cv))
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

// FrontPlot is the data of a Pareto-front figure: every candidate as a
// point (x, y), which of them are on the front, named points and a
// horizontal reference line.
type FrontPlot struct {
	XLabel, YLabel string
	X, Y           []float64
	OnFront        []bool
	Feasible       []bool // nil: all
	Marks          []FrontMark
	// HLine is drawn across the plot when finite and positive (the SRPT
	// bound on mean response), named HLineName.
	HLine     float64
	HLineName string
}

// FrontMark is a named point of a FrontPlot.
type FrontMark struct {
	Name string
	X, Y float64
}

// frontPlotOf builds the report's front: fold-mean p99 slowdown against
// fold-mean mean response, the current scheduler, plain LAS, PS, the first
// guess and the choice marked, the SRPT bound as the line.
func frontPlotOf(cv *tuner.CVResult) FrontPlot {
	f := FrontPlot{XLabel: "p99 slowdown (fold mean)", YLabel: "mean response (s, fold mean)", HLine: cv.SRPTMean, HLineName: "SRPT bound (mean response)"}
	for i := range cv.Candidates {
		c := &cv.Candidates[i]
		if c.Origin == tuner.OriginSensitivity {
			continue
		}
		f.X, f.Y, f.OnFront = append(f.X, c.FoldMean.P99Slowdown), append(f.Y, c.FoldMean.Mean), append(f.OnFront, c.Pareto)
		f.Feasible = append(f.Feasible, c.Feasible)
	}
	for _, m := range []struct {
		name string
		i    int
	}{{"current (" + cv.Current + ")", cv.CurrentIdx}, {"plain LAS", cv.LASIdx}, {"PS", cv.PSIdx}, {"first guess", cv.FGIdx}, {"chosen", cv.Chosen}} {
		if m.i >= 0 {
			c := &cv.Candidates[m.i]
			f.Marks = append(f.Marks, FrontMark{m.name, c.FoldMean.P99Slowdown, c.FoldMean.Mean})
		}
	}
	return f
}

// PlotFront draws a FrontPlot on log axes (linear when a value is not
// positive): grey rings for the candidates, filled dots for those on the
// front, the staircase of the candidates no other beats in both
// coordinates, the named points and the reference line. The axes span the
// front, the named points and the line; candidates outside are not drawn
// (the title says how many). Non-finite points are left out; with none
// left, the axes span [1, 10].
func PlotFront(title string, f FrontPlot) ([]byte, error) {
	return report.Guard(func() ([]byte, error) { return plotFront(title, f) })
}

// frontPoints are a FrontPlot's finite points and the spans the axes cover.
type frontPoints struct {
	all, front plotter.XYs
	feasible   []bool // per point of all
	sx, sy     report.Span
}

func frontPointsOf(f FrontPlot) frontPoints {
	d := frontPoints{sx: report.EmptySpan(), sy: report.EmptySpan()}
	for i := range f.X {
		if !report.Finite(f.X[i]) || !report.Finite(f.Y[i]) {
			continue
		}
		pt := plotter.XY{X: f.X[i], Y: f.Y[i]}
		d.all = append(d.all, pt)
		d.feasible = append(d.feasible, f.Feasible == nil || f.Feasible[i])
		if i < len(f.OnFront) && f.OnFront[i] {
			d.front = append(d.front, pt)
			d.sx.Add(pt.X)
			d.sy.Add(pt.Y)
		}
	}
	for _, m := range f.Marks {
		if report.Finite(m.X) && report.Finite(m.Y) {
			d.sx.Add(m.X)
			d.sy.Add(m.Y)
		}
	}
	if d.sx.Empty() {
		for _, q := range d.all {
			d.sx.Add(q.X)
			d.sy.Add(q.Y)
		}
	}
	if report.Finite(f.HLine) {
		d.sy.Add(f.HLine)
	}
	return d
}

// addScatter draws points with a glyph and names them in the legend.
func addScatter(p *plot.Plot, pts plotter.XYs, g draw.GlyphStyle, name string) error {
	if len(pts) == 0 {
		return nil
	}
	s, err := plotter.NewScatter(pts)
	if err != nil {
		return err
	}
	s.GlyphStyle = g
	p.Add(s)
	p.Legend.Add(name, s)
	return nil
}

// addLine draws a line and names it in the legend.
func addLine(p *plot.Plot, pts plotter.XYs, c color.Color, dashes []vg.Length, name string) error {
	l, err := plotter.NewLine(pts)
	if err != nil {
		return err
	}
	l.Color, l.Dashes = c, dashes
	p.Add(l)
	p.Legend.Add(name, l)
	return nil
}

func plotFront(title string, f FrontPlot) ([]byte, error) {
	d := frontPointsOf(f)
	logX, logY := d.sx.Lo > 0, d.sy.Lo > 0
	p := report.NewPlot(title, f.XLabel, f.YLabel)
	for _, a := range []struct {
		ax  *plot.Axis
		s   report.Span
		log bool
	}{{&p.X, d.sx, logX}, {&p.Y, d.sy, logY}} {
		if a.log {
			a.ax.Scale = plot.LogScale{}
		}
		if err := report.SetAxis(a.ax, padSpan(a.s, a.log), a.log); err != nil {
			return nil, err
		}
		if a.log && a.ax.Max/a.ax.Min < 100 {
			// Fewer than two decades: powers of ten alone would leave
			// the axis almost unlabelled.
			a.ax.Tick.Marker = plot.DefaultTicks{}
		}
	}
	in := func(q plotter.XY) bool { return q.X >= p.X.Min && q.X <= p.X.Max && q.Y >= p.Y.Min && q.Y <= p.Y.Max }
	var shown [2]plotter.XYs // feasible, infeasible
	for i, q := range d.all {
		if in(q) {
			k := 0
			if !d.feasible[i] {
				k = 1
			}
			shown[k] = append(shown[k], q)
		}
	}
	if out := len(d.all) - len(shown[0]) - len(shown[1]); out > 0 {
		p.Title.Text += fmt.Sprintf(" — %d of %d candidates beyond the axes", out, len(d.all))
	}
	err := errors.Join(
		addScatter(p, shown[0], draw.GlyphStyle{Color: color.Gray{Y: 120}, Radius: vg.Points(2), Shape: draw.RingGlyph{}}, "feasible candidates"),
		addScatter(p, shown[1], draw.GlyphStyle{Color: color.Gray{Y: 180}, Radius: vg.Points(2), Shape: draw.CrossGlyph{}}, "infeasible candidates"))
	if stairs := clipStairs(staircase(d.all), p); len(stairs) > 1 {
		err = errors.Join(err, addLine(p, stairs, plotutil.Color(2), nil, "front in these two metrics"))
	}
	err = errors.Join(err, addScatter(p, d.front, draw.GlyphStyle{Color: plotutil.Color(2), Radius: vg.Points(2.5), Shape: draw.CircleGlyph{}}, "front in all five metrics"))
	markColors := []int{0, 4, 3, 5, 1}
	for k, m := range f.Marks {
		if report.Finite(m.X) && report.Finite(m.Y) {
			g := draw.GlyphStyle{Color: plotutil.Color(markColors[k%len(markColors)]), Radius: vg.Points(5), Shape: plotutil.Shape(k + 1)}
			err = errors.Join(err, addScatter(p, plotter.XYs{{X: m.X, Y: m.Y}}, g, m.Name))
		}
	}
	if report.Finite(f.HLine) && (f.HLine > 0 || !logY) {
		err = errors.Join(err, addLine(p, plotter.XYs{{X: p.X.Min, Y: f.HLine}, {X: p.X.Max, Y: f.HLine}}, color.Black, []vg.Length{vg.Points(4), vg.Points(3)}, f.HLineName))
	}
	if err != nil {
		return nil, err
	}
	p.Legend.Left = false
	return report.RenderPNG(p)
}

// clipStairs keeps the staircase inside the plot's axes.
func clipStairs(s plotter.XYs, p *plot.Plot) plotter.XYs {
	out := make(plotter.XYs, 0, len(s))
	for _, q := range s {
		q.X = math.Min(math.Max(q.X, p.X.Min), p.X.Max)
		q.Y = math.Min(math.Max(q.Y, p.Y.Min), p.Y.Max)
		out = append(out, q)
	}
	return out
}

// padSpan widens a span a little so that points on its edges show: by a
// factor of 1.3 on a log axis, by 5% of the width on a linear one.
func padSpan(s report.Span, logScale bool) report.Span {
	switch {
	case s.Empty():
		return s
	case logScale:
		return report.Span{Lo: s.Lo / 1.3, Hi: math.Min(s.Hi*1.3, math.MaxFloat64)}
	}
	pad := (s.Hi - s.Lo) / 20
	return report.Span{Lo: s.Lo - pad, Hi: s.Hi + pad}
}

// staircase returns the points no other point beats in both coordinates
// (lower is better), joined as steps in order of x.
func staircase(pts plotter.XYs) plotter.XYs {
	s := slices.Clone(pts)
	slices.SortFunc(s, func(a, b plotter.XY) int {
		if c := cmp.Compare(a.X, b.X); c != 0 {
			return c
		}
		return cmp.Compare(a.Y, b.Y)
	})
	var out plotter.XYs
	for _, q := range s {
		if len(out) == 0 || q.Y < out[len(out)-1].Y {
			if len(out) > 0 {
				out = append(out, plotter.XY{X: q.X, Y: out[len(out)-1].Y})
			}
			out = append(out, q)
		}
	}
	return out
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
