package report

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image/color"
	"math"
	"sort"
	"strconv"

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

// NoFigure is returned (wrapped) by the Plot functions when there is
// nothing sensible to draw — no finite value, no positive value for a log
// axis, values spanning more than the float64 range — or drawing failed.
// The report shows the reason in place of the figure.
type NoFigure struct{ Reason string }

func (e *NoFigure) Error() string { return "no figure: " + e.Reason }

// Guard turns a panic of the plotting library into a NoFigure: a figure
// must never take the report down with it.
func Guard(f func() ([]byte, error)) (b []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			b, err = nil, &NoFigure{Reason: fmt.Sprintf("the figure could not be drawn (%v)", r)}
		}
	}()
	return f()
}

// Span is the range of the values drawn on one axis.
type Span struct{ Lo, Hi float64 }

// EmptySpan is the span of no value (Add widens it).
func EmptySpan() Span { return Span{math.Inf(1), math.Inf(-1)} }

// Add widens s to hold v.
func (s *Span) Add(v float64) { s.Lo, s.Hi = math.Min(s.Lo, v), math.Max(s.Hi, v) }

// Empty reports whether s holds no value.
func (s Span) Empty() bool { return s.Lo > s.Hi }

// SetAxis fixes an axis to the span of the values drawn on it, with room
// around a single value. Gonum's own ranging panics on a flat range it
// cannot widen (Min−1 == Min for 9.2e18), on a log axis without positive
// values, and cannot represent a range wider than the largest float64.
func SetAxis(ax *plot.Axis, s Span, logScale bool) error {
	lo, hi := s.Lo, s.Hi
	switch {
	case s.Empty():
		return &NoFigure{Reason: "no finite values to draw"}
	case logScale && !(lo > 0):
		return &NoFigure{Reason: "no positive values for a log scale"}
	case !logScale && math.IsInf(hi-lo, 0):
		return &NoFigure{Reason: fmt.Sprintf("the values span %g to %g, more than a linear axis can show", lo, hi)}
	}
	if logScale {
		if lo == hi {
			lo, hi = lo/2, math.Min(hi*2, math.MaxFloat64)
		}
		ax.Tick.Marker = logTicks{}
	} else if lo == hi {
		pad := math.Abs(lo) / 10
		if pad == 0 {
			pad = 1
		}
		lo, hi = lo-pad, hi+pad
	}
	ax.Min, ax.Max = lo, hi
	return nil
}

// logTicks are gonum's LogTicks over the part of the range where powers of
// ten are finite, positive normal numbers (LogTicks loops on 0 and draws a
// tick at +Inf above 1e308).
type logTicks struct{}

// maxDecades is the most powers of ten a log axis labels.
const maxDecades = 6

func (logTicks) Ticks(lo, hi float64) []plot.Tick {
	lo, hi = math.Min(math.Max(lo, 1e-300), 1e308), math.Max(math.Min(hi, 1e308), 1e-300)
	if lo >= hi {
		return []plot.Tick{{Value: lo, Label: fmt.Sprintf("%g", lo)}}
	}
	ticks := plot.LogTicks{Prec: -1}.Ticks(lo, hi)
	// Over more than maxDecades label every k-th power only, or the labels
	// run into each other.
	if k := math.Ceil((math.Log10(hi) - math.Log10(lo)) / maxDecades); k > 1 {
		for i := range ticks {
			if e := math.Round(math.Log10(ticks[i].Value)); ticks[i].Label != "" && math.Mod(e, k) != 0 {
				ticks[i].Label = ""
			}
		}
	}
	// shown counts the ticks in range that have (or get) a label.
	shown := func(labelled func(plot.Tick) bool) int {
		n := 0
		for _, t := range ticks {
			if labelled(t) && t.Value >= lo && t.Value <= hi {
				n++
			}
		}
		return n
	}
	hasLabel := func(t plot.Tick) bool { return t.Label != "" }
	// Within about a decade fewer than two powers of ten are in range:
	// label the minor ticks at 2 and 5 × 10^k too (every minor tick when
	// that is still too few), or the axis shows no value.
	minor := func(plot.Tick) bool { return false }
	if shown(hasLabel) < 2 {
		minor = func(t plot.Tick) bool {
			m := t.Value / math.Pow(10, math.Floor(math.Log10(t.Value)+1e-9))
			return math.Abs(m-2) < 1e-6 || math.Abs(m-5) < 1e-6
		}
		if shown(func(t plot.Tick) bool { return hasLabel(t) || minor(t) }) < 2 {
			minor = func(plot.Tick) bool { return true }
		}
	}
	for i := range ticks {
		if hasLabel(ticks[i]) || minor(ticks[i]) { // powers of ten drift when multiplied up: 9.999…e+305
			ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'g', 3, 64)
		}
	}
	if shown(hasLabel) < 2 { // a range narrower than the gap between minor ticks
		ticks = append(ticks, plot.Tick{Value: lo, Label: strconv.FormatFloat(lo, 'g', 3, 64)}, plot.Tick{Value: hi, Label: strconv.FormatFloat(hi, 'g', 3, 64)})
	}
	return ticks
}

// Dropped names how many values of a series were not drawn.
func Dropped(name string, n int, why string) string {
	if n == 0 {
		return name
	}
	return fmt.Sprintf("%s (%d %s not drawn)", name, n, why)
}

// Finite reports whether v is neither NaN nor ±Inf.
func Finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// RenderPNG renders p as the report's PNG.
func RenderPNG(p *plot.Plot) ([]byte, error) {
	c := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(plotWidth, plotHeight), vgimg.UseDPI(plotDPI))}
	drawOutsideLegend(p, draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, err
	}
	return withTicksChunk(buf.Bytes(), labelledTicks(&p.X), labelledTicks(&p.Y)), nil
}

// drawOutsideLegend draws p with its legend beside the data, not over it:
// the plot in what the legend leaves, the legend at the top of the strip to
// its right, or below the plot when it is wider than legendShare of the
// figure. An empty legend, or one taller than half the figure, stays where
// p puts it.
func drawOutsideLegend(p *plot.Plot, dc draw.Canvas) {
	leg := p.Legend
	size := leg.Rectangle(dc).Size()
	w := size.X
	if w <= 0 || size.Y > dc.Size().Y/2 {
		p.Draw(dc)
		return
	}
	gap := vg.Points(6)
	var plotC, legC draw.Canvas
	if w > legendShare*dc.Size().X { // a wide legend goes below the plot
		leg.Padding = vg.Points(2)
		h := leg.Rectangle(dc).Size().Y + gap
		plotC, legC = draw.Crop(dc, 0, 0, h+gap, 0), draw.Crop(dc, gap, 0, 0, -(dc.Size().Y-h))
	} else {
		top := vg.Length(0) // the title, centred over the whole figure
		if title := p.Title.Text; title != "" {
			dc.FillText(p.Title.TextStyle, vg.Point{X: dc.Center().X, Y: dc.Max.Y}, title)
			top = p.Title.TextStyle.Height(title) + p.Title.Padding
			p.Title.Text = ""
			defer func() { p.Title.Text = title }()
		}
		plotC, legC = draw.Crop(dc, 0, -(w+gap), 0, -top), draw.Crop(dc, dc.Size().X-w, 0, 0, -(top+gap))
	}
	p.Legend = plot.NewLegend()
	p.Draw(plotC)
	p.Legend = leg
	leg.Left, leg.Top, leg.XOffs, leg.YOffs = true, true, 0, 0
	leg.Draw(legC)
}

// legendShare is the widest legend drawOutsideLegend moves beside a plot.
const legendShare = 0.45

// TicksKeyword is the keyword of the tEXt chunk renderPNG adds to every
// plot: "x=N y=M", the number of labelled ticks drawn on each axis, so that
// a test of the report (in a browser) can check that every plot says what
// its axes measure without reading pixels.
const TicksKeyword = "schedplan-ticks"

// labelledTicks counts the ticks with a label that the axis draws within
// its range.
func labelledTicks(ax *plot.Axis) int {
	n := 0
	for _, t := range ax.Tick.Marker.Ticks(ax.Min, ax.Max) {
		if t.Label != "" && t.Value >= ax.Min && t.Value <= ax.Max {
			n++
		}
	}
	return n
}

// withTicksChunk inserts a tEXt chunk (TicksKeyword) before a PNG's IEND
// chunk, the last 12 bytes of the file.
func withTicksChunk(png []byte, x, y int) []byte {
	if len(png) < 12 {
		return png
	}
	body := append([]byte("tEXt"+TicksKeyword+"\x00"), fmt.Sprintf("x=%d y=%d", x, y)...)
	chunk := binary.BigEndian.AppendUint32(nil, uint32(len(body)-4))
	chunk = append(chunk, body...)
	chunk = binary.BigEndian.AppendUint32(chunk, crc32.ChecksumIEEE(body))
	end := len(png) - 12
	return append(append(png[:end:end], chunk...), png[end:]...)
}

// NewPlot is a plot with the report's title and axis labels.
func NewPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Legend.Top = true
	p.Add(plotter.NewGrid())
	return p
}

// PlotCDF draws the empirical CDF of every series on a log x axis (values ≤ 0
// are drawn at the smallest positive value of all series; values that are
// not finite are left out, and the legend says how many).
func PlotCDF(title, xlabel string, series []Series) ([]byte, error) {
	return Guard(func() ([]byte, error) { return plotCDF(title, xlabel, series) })
}

func plotCDF(title, xlabel string, series []Series) ([]byte, error) {
	p := NewPlot(title, xlabel+" (log scale)", "fraction of jobs ≤ x")
	p.X.Scale = plot.LogScale{}
	floor := math.Inf(1)
	for _, s := range series {
		for _, v := range s.Values {
			if v > 0 && v < floor && Finite(v) {
				floor = v
			}
		}
	}
	if math.IsInf(floor, 1) {
		floor = 1
	}
	xs := EmptySpan()
	for k, s := range series {
		v := make([]float64, 0, len(s.Values))
		for _, x := range s.Values {
			if Finite(x) {
				v = append(v, x)
			}
		}
		if len(v) == 0 {
			continue
		}
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
		xs.Add(pts[0].X)
		xs.Add(pts[len(pts)-1].X)
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Name, err)
		}
		l.Color = plotutil.Color(k)
		l.Dashes = plotutil.Dashes(k)
		l.Width = vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(Dropped(s.Name, len(s.Values)-len(v), "not finite"), l)
	}
	if err := SetAxis(&p.X, xs, true); err != nil {
		return nil, err
	}
	p.Y.Min, p.Y.Max = 0, 1
	p.Legend.Left = false
	p.Legend.Top = false
	p.Legend.XOffs = -vg.Points(5)
	p.Legend.YOffs = vg.Points(5)
	return RenderPNG(p)
}

// PlotBars draws grouped bars: one group per category, one bar per series;
// series[s].Values[c] is the bar of series s in category c. A value that is
// not finite is drawn as 0 and counted in the legend.
func PlotBars(title, ylabel string, categories []string, series []Series) ([]byte, error) {
	return Guard(func() ([]byte, error) { return plotBars(title, ylabel, categories, series) })
}

func plotBars(title, ylabel string, categories []string, series []Series) ([]byte, error) {
	p := NewPlot(title, "", ylabel)
	n := len(series)
	w := vg.Points(math.Max(4, math.Min(20, 220/float64(max(1, n*len(categories))))))
	ys := Span{0, 0} // bars start at 0
	height, ticks := barScale(series)
	if ticks != nil {
		p.Y.Label.Text = ylabel + " (log scale)"
		p.Y.Tick.Marker = ticks
	}
	for k, s := range series {
		if len(s.Values) == 0 {
			continue
		}
		v := make(plotter.Values, len(s.Values))
		bad := 0
		for i, x := range s.Values {
			if !Finite(x) {
				x, bad = 0, bad+1
			}
			v[i] = height(x)
			ys.Add(v[i])
		}
		b, err := plotter.NewBarChart(v, w)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.Name, err)
		}
		b.Color = plotutil.Color(k)
		b.LineStyle.Width = 0
		b.Offset = w * vg.Length(float64(k)-float64(n-1)/2)
		p.Add(b)
		p.Legend.Add(Dropped(s.Name, bad, "values not finite, drawn as 0, and"), b)
	}
	marker := p.Y.Tick.Marker
	if err := SetAxis(&p.Y, ys, false); err != nil {
		return nil, err
	}
	p.Y.Tick.Marker = marker
	p.NominalX(categories...)
	return RenderPNG(p)
}

// barLogRatio is the ratio of the largest to the smallest positive bar
// beyond which bars are drawn on a log scale: on a linear one the largest
// hides the others.
const barLogRatio = 20

// barScale returns how tall a value's bar is drawn, and the ticks of the
// value axis: the identity and nil (the default ticks) when the positive
// values span less than barLogRatio; else the bar rises log10(x / floor)
// from floor, the power of ten at or below the smallest positive value
// (values at or below floor have no height), with ticks at 1, 2 and 5 ×
// each power of ten labelled with the values they stand for.
func barScale(series []Series) (func(float64) float64, plot.Ticker) {
	lo, hi := math.Inf(1), 0.0
	for _, s := range series {
		for _, x := range s.Values {
			if Finite(x) && x > 0 {
				lo, hi = math.Min(lo, x), math.Max(hi, x)
			}
		}
	}
	if !(hi > barLogRatio*lo) {
		return func(x float64) float64 { return x }, nil
	}
	e0, e1 := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	step := math.Max(1, math.Ceil((e1-e0)/10)) // at most about ten powers labelled
	mantissas := []float64{1}
	if e1-e0 <= 3 {
		mantissas = []float64{1, 2, 5}
	}
	var ticks plot.ConstantTicks
	for e := e0; e <= e1; e += step {
		for _, m := range mantissas {
			if v := m * math.Pow(10, e); m == 1 || v <= hi*1.05 {
				ticks = append(ticks, plot.Tick{Value: math.Log10(m) + e - e0, Label: strconv.FormatFloat(v, 'g', 3, 64)})
			}
		}
	}
	return func(x float64) float64 {
		if !(x > 0) {
			return 0
		}
		return math.Max(0, math.Log10(x)-e0)
	}, ticks
}

// PlotBoxes draws, for every x value, one box per group (over runs). Values
// that are not finite are left out.
func PlotBoxes(title, xlabel, ylabel string, xs []float64, groups []BoxGroup) ([]byte, error) {
	return Guard(func() ([]byte, error) { return plotBoxes(title, xlabel, ylabel, xs, groups) })
}

func plotBoxes(title, xlabel, ylabel string, xs []float64, groups []BoxGroup) ([]byte, error) {
	p := NewPlot(title, xlabel, ylabel)
	n := len(groups)
	w := vg.Points(math.Max(4, math.Min(16, 400/float64(max(1, n*len(xs))))))
	names := make([]string, len(xs))
	for i, x := range xs {
		names[i] = fmt.Sprintf("%g", x)
	}
	ys := EmptySpan()
	for k, g := range groups {
		drawn, bad := false, 0
		for i, sample := range g.Samples {
			v := make(plotter.Values, 0, len(sample))
			for _, x := range sample {
				if Finite(x) {
					v = append(v, x)
					ys.Add(x)
				}
			}
			bad += len(sample) - len(v)
			if len(v) == 0 || i >= len(xs) {
				continue
			}
			b, err := plotter.NewBoxPlot(w, float64(i), v)
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
			p.Legend.Add(Dropped(g.Name, bad, "values not finite"), &plotter.Line{LineStyle: draw.LineStyle{Color: plotutil.Color(k), Width: vg.Points(6)}})
		}
	}
	if err := SetAxis(&p.Y, ys, false); err != nil {
		return nil, err
	}
	p.NominalX(names...)
	return RenderPNG(p)
}

// PlotLines draws curves with points; logY puts the y axis on a log scale.
// Points with a coordinate that is not finite (or, on a log axis, not
// positive) are left out, and the legend says how many.
func PlotLines(title, xlabel, ylabel string, series []XYSeries, logY bool) ([]byte, error) {
	return Guard(func() ([]byte, error) { return plotLines(title, xlabel, ylabel, series, logY) })
}

func plotLines(title, xlabel, ylabel string, series []XYSeries, logY bool) ([]byte, error) {
	p := NewPlot(title, xlabel, ylabel)
	if logY {
		p.Y.Scale = plot.LogScale{}
	}
	xs, ys := EmptySpan(), EmptySpan()
	for k, s := range series {
		n := min(len(s.X), len(s.Y))
		pts := make(plotter.XYs, 0, n)
		for i := 0; i < n; i++ {
			x, y := s.X[i], s.Y[i]
			if !Finite(x) || !Finite(y) || logY && !(y > 0) {
				continue
			}
			pts = append(pts, plotter.XY{X: x, Y: y})
			xs.Add(x)
			ys.Add(y)
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
		why := "not finite"
		if logY {
			why = "not finite or not positive"
		}
		p.Legend.Add(Dropped(s.Name, n-len(pts), why), l, sc)
	}
	if err := SetAxis(&p.X, xs, false); err != nil {
		return nil, err
	}
	if err := SetAxis(&p.Y, ys, logY); err != nil {
		return nil, err
	}
	return RenderPNG(p)
}

// TicksOf reads the labelled-tick counts renderPNG writes into a plot's
// PNG (TicksKeyword); ok is false when the chunk is missing.
func TicksOf(png []byte) (x, y int, ok bool) {
	if len(png) < 8 {
		return 0, 0, false
	}
	for b := png[8:]; len(b) >= 12; {
		n := int(binary.BigEndian.Uint32(b))
		if n+12 > len(b) {
			break
		}
		if string(b[4:8]) == "tEXt" {
			if k, v, found := bytes.Cut(b[8:8+n], []byte{0}); found && string(k) == TicksKeyword {
				if _, err := fmt.Sscanf(string(v), "x=%d y=%d", &x, &y); err == nil {
					return x, y, true
				}
			}
		}
		b = b[12+n:]
	}
	return 0, 0, false
}
