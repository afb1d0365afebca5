package tuner

import (
	"cmp"
	"errors"
	"fmt"
	"image/color"
	"math"
	"slices"

	"github.com/schedplan/schedplan/pipeline/report"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

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

// FrontPlotOf builds the report's front: fold-mean p99 slowdown against
// fold-mean mean response, the current scheduler, plain LAS, PS, the first
// guess and the choice marked, the SRPT bound as the line.
func FrontPlotOf(cv *CVResult) FrontPlot {
	f := FrontPlot{XLabel: "p99 slowdown (fold mean)", YLabel: "mean response (s, fold mean)", HLine: cv.SRPTMean, HLineName: "SRPT bound (mean response)"}
	for i := range cv.Candidates {
		c := &cv.Candidates[i]
		if c.Origin == OriginSensitivity {
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
