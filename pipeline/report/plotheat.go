package report

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot/palette"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

// heatGrid is a rows × cols matrix as gonum's GridXYZ: column c at x = c,
// row r at y = r.
type heatGrid struct{ z [][]float64 }

func (g heatGrid) Dims() (c, r int)   { return len(g.z[0]), len(g.z) }
func (g heatGrid) Z(c, r int) float64 { return g.z[r][c] }
func (g heatGrid) X(c int) float64    { return float64(c) }
func (g heatGrid) Y(r int) float64    { return float64(r) }

// maxHeatCells bounds the cells of a heat map whose values are written in
// the cells (more would not be legible).
const maxHeatCells = 400

// PlotHeatMap draws z (rows × cols; z[r][c] for row label rows[r] and
// column label cols[c]) as a heat map from white (the least value) to dark
// red (the largest), each cell's value written in it when there are at
// most maxHeatCells cells. Cells that are not finite are drawn grey; a
// matrix without a finite value, without cells, of ragged rows or of
// labels that do not match is a NoFigure.
func PlotHeatMap(title, xlabel, ylabel string, rows, cols []string, z [][]float64) ([]byte, error) {
	return Guard(func() ([]byte, error) { return plotHeatMap(title, xlabel, ylabel, rows, cols, z) })
}

func plotHeatMap(title, xlabel, ylabel string, rows, cols []string, z [][]float64) ([]byte, error) {
	if len(z) == 0 || len(z[0]) == 0 {
		return nil, &NoFigure{Reason: "no cells to draw"}
	}
	if len(rows) != len(z) || len(cols) != len(z[0]) {
		return nil, &NoFigure{Reason: fmt.Sprintf("%d × %d labels for a %d × %d matrix", len(rows), len(cols), len(z), len(z[0]))}
	}
	s := EmptySpan()
	grid := make([][]float64, len(z))
	for r, row := range z {
		if len(row) != len(cols) {
			return nil, &NoFigure{Reason: fmt.Sprintf("row %d has %d cells, row 0 has %d", r, len(row), len(cols))}
		}
		grid[r] = make([]float64, len(row))
		for c, v := range row {
			if !Finite(v) {
				v = math.NaN()
			} else {
				s.Add(v)
			}
			grid[r][c] = v
		}
	}
	if s.Empty() {
		return nil, &NoFigure{Reason: "no finite values to draw"}
	}
	lo, hi := s.Lo, s.Hi
	if math.IsInf(hi-lo, 0) {
		return nil, &NoFigure{Reason: fmt.Sprintf("the values span %g to %g, more than a colour scale can show", lo, hi)}
	}
	if hi-lo <= math.Abs(hi)*1e-12 {
		// One value: a flat scale around it (the cells take the middle colour).
		pad := math.Max(math.Abs(hi)/10, 1e-300)
		lo, hi = math.Max(lo-pad, -math.MaxFloat64), math.Min(hi+pad, math.MaxFloat64)
	}
	p := NewPlot(title, xlabel, ylabel)
	p.Legend.Top = false
	h := plotter.NewHeatMap(heatGrid{grid}, whiteRed{n: 64})
	h.Min, h.Max = lo, hi
	h.NaN = color.Gray{Y: 0xa0}
	h.Underflow, h.Overflow = color.White, color.RGBA{R: 0x80, A: 0xff}
	p.Add(h)
	if len(rows)*len(cols) <= maxHeatCells {
		var xys plotter.XYs
		var labels []string
		for r, row := range z {
			for c, v := range row {
				xys = append(xys, plotter.XY{X: float64(c), Y: float64(r)})
				labels = append(labels, cellLabel(v))
			}
		}
		l, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: labels})
		if err != nil {
			return nil, err
		}
		for i := range l.TextStyle {
			l.TextStyle[i].XAlign, l.TextStyle[i].YAlign = -0.5, -0.5
			l.TextStyle[i].Font.Size = vg.Points(8)
			if v := z[i/len(cols)][i%len(cols)]; Finite(v) && (v-lo)/(hi-lo) > 0.6 {
				l.TextStyle[i].Color = color.White // legible on dark red
			}
		}
		p.Add(l)
	}
	p.NominalX(cols...)
	p.NominalY(rows...)
	p.X.Min, p.X.Max = -0.5, float64(len(cols))-0.5
	p.Y.Min, p.Y.Max = -0.5, float64(len(rows))-0.5
	p.Title.Text = fmt.Sprintf("%s (white %s … dark red %s)", title, cellLabel(s.Lo), cellLabel(s.Hi))
	return RenderPNG(p)
}

// cellLabel writes a cell's value briefly ("–" when not finite).
func cellLabel(v float64) string {
	if !Finite(v) {
		return "–"
	}
	return fmt.Sprintf("%.3g", v)
}

// whiteRed is a palette of n colours from white to dark red.
type whiteRed struct{ n int }

func (w whiteRed) Colors() []color.Color {
	out := make([]color.Color, w.n)
	for i := range out {
		f := float64(i) / float64(max(1, w.n-1))
		out[i] = color.RGBA{R: uint8(255 - 127*f), G: uint8(255 * (1 - f)), B: uint8(255 * (1 - f)), A: 0xff}
	}
	return out
}

var _ palette.Palette = whiteRed{}
