package pipeline

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Series is a named sample (one policy's values).
type Series struct {
	Name   string
	Values []float64
}

// XYSeries is a named curve.
type XYSeries struct {
	Name string
	X, Y []float64
}

// BoxGroup is one policy's samples at several x settings (e.g. σ), one
// sample (over runs) per setting.
type BoxGroup struct {
	Name    string
	Samples [][]float64 // Samples[k] belongs to the k-th x value
}

const (
	plotWidth  = 7 * vg.Inch
	plotHeight = 4 * vg.Inch
	plotDPI    = 96
)

func renderPNG(p *plot.Plot) ([]byte, error) {
	c := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(plotWidth, plotHeight), vgimg.UseDPI(plotDPI))}
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	return p
}

// PlotCDF draws the empirical CDF of every series on a log x axis (values ≤ 0
// are drawn at the smallest positive value of all series).
func PlotCDF(title, xlabel string, series []Series) ([]byte, error) {
	p := newPlot(title, xlabel+" (log scale)", "fraction of jobs ≤ x")
	p.X.Scale = plot.LogScale{}
	p.X.Tick.Marker = plot.LogTicks{Prec: -1}
	floor := math.Inf(1)
	for _, s := range series {
		for _, v := range s.Values {
			if v > 0 && v < floor {
				floor = v
			}
		}
	}
	if math.IsInf(floor, 1) {
		floor = 1
	}
	for k, s := range series {
		if len(s.Values) == 0 {
			continue
		}
		v := append([]float64(nil), s.Values...)
		sort.Float64s(v)
		// At most 2,000 points per curve: enough for the eye, small files.
		step := 1
		if len(v) > 2000 {
			step = len(v) / 2000
		}
		var pts plotter.XYs
		for i := 0; i < len(v); i += step {
			pts = append(pts, plotter.XY{X: math.Max(v[i], floor), Y: float64(i+1) / float64(len(v))})
		}
		pts = append(pts, plotter.XY{X: math.Max(v[len(v)-1], floor), Y: 1})
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Name, err)
		}
		l.Color = plotutil.Color(k)
		l.Dashes = plotutil.Dashes(k)
		l.Width = vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(s.Name, l)
	}
	p.Legend.Left = false
	p.Legend.Top = false
	p.Legend.XOffs = -vg.Points(5)
	p.Legend.YOffs = vg.Points(5)
	return renderPNG(p)
}

// PlotBars draws grouped bars: one group per category, one bar per series;
// series[s].Values[c] is the bar of series s in category c.
func PlotBars(title, ylabel string, categories []string, series []Series) ([]byte, error) {
	p := newPlot(title, "", ylabel)
	n := len(series)
	w := vg.Points(math.Max(4, math.Min(20, 300/float64(max(1, n*len(categories))))))
	for k, s := range series {
		b, err := plotter.NewBarChart(plotter.Values(s.Values), w)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Name, err)
		}
		b.Color = plotutil.Color(k)
		b.LineStyle.Width = 0
		b.Offset = w * vg.Length(float64(k)-float64(n-1)/2)
		p.Add(b)
		p.Legend.Add(s.Name, b)
	}
	p.NominalX(categories...)
	return renderPNG(p)
}

// PlotBoxes draws, for every x value, one box per group (over runs).
func PlotBoxes(title, xlabel, ylabel string, xs []float64, groups []BoxGroup) ([]byte, error) {
	p := newPlot(title, xlabel, ylabel)
	n := len(groups)
	w := vg.Points(math.Max(4, math.Min(16, 400/float64(max(1, n*len(xs))))))
	names := make([]string, len(xs))
	for i, x := range xs {
		names[i] = fmt.Sprintf("%g", x)
	}
	for k, g := range groups {
		drawn := false
		for i, sample := range g.Samples {
			if len(sample) == 0 {
				continue
			}
			b, err := plotter.NewBoxPlot(w, float64(i), plotter.Values(sample))
			if err != nil {
				return nil, fmt.Errorf("%s: %w", g.Name, err)
			}
			b.Offset = w * vg.Length(float64(k)-float64(n-1)/2) * 1.1
			b.FillColor = plotutil.Color(k)
			b.BoxStyle.Color = color.Black
			p.Add(b)
			drawn = true
		}
		if drawn {
			// Box plots draw no legend thumbnail: a thick line of the fill colour stands in.
			p.Legend.Add(g.Name, &plotter.Line{LineStyle: draw.LineStyle{Color: plotutil.Color(k), Width: vg.Points(6)}})
		}
	}
	p.NominalX(names...)
	return renderPNG(p)
}

// PlotLines draws curves with points; logY puts the y axis on a log scale.
func PlotLines(title, xlabel, ylabel string, series []XYSeries, logY bool) ([]byte, error) {
	p := newPlot(title, xlabel, ylabel)
	if logY {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
	}
	for k, s := range series {
		pts := make(plotter.XYs, 0, len(s.X))
		for i := range s.X {
			if logY && !(s.Y[i] > 0) {
				continue
			}
			pts = append(pts, plotter.XY{X: s.X[i], Y: s.Y[i]})
		}
		if len(pts) == 0 {
			continue
		}
		l, sc, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Name, err)
		}
		l.Color = plotutil.Color(k)
		sc.Color = plotutil.Color(k)
		sc.Shape = plotutil.Shape(k)
		p.Add(l, sc)
		p.Legend.Add(s.Name, l, sc)
	}
	return renderPNG(p)
}
