package report

import (
	"bytes"
	"errors"
	"fmt"
	"image/png"
	"math"
	"strings"
	"testing"
)

// Degenerate and extreme series reach the report's figures from real logs
// (issue 10, "Report stage panics": a 2-job log, a CSV with only
// input_bytes, submit times near 1e15, int64-max byte counts, sizes 1e305).
// No figure may panic: each is drawn with a sensible axis, or replaced by a
// note (a *NoFigure error) saying why.
func TestPlotsSurviveExtremeSeries(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	samples := map[string][]float64{
		"empty":    nil,
		"single":   {3},
		"flat":     {5, 5, 5, 5},
		"zeros":    {0, 0, 0},
		"negative": {-5, -1, -0.5},
		"mixed":    {-1, 0, 2, 1e-300},
		"nan":      {nan, nan},
		"nan+1":    {nan, 1, 2},
		"inf":      {inf, -inf, 1},
		"onlyinf":  {inf, inf},
		"huge":     {1e305, 1e305, 2e305},
		"hugespan": {-1e305, 1e305, 1.7e308},
		"tiny":     {5e-324, 1e-320},
		"epoch":    {1.7e9, 1.7e9 + 1e-6, 1.7e9 + 2e-6},
		"1e15":     {1e15, 1e15, 1e15 + 0.125},
		"int64max": {9.223372036854776e18, 9.223372036854776e18},
	}
	for name, v := range samples {
		xs := make([]float64, len(v))
		for i := range xs {
			xs[i] = float64(i)
		}
		cases := map[string]func() ([]byte, error){
			"lines log":   func() ([]byte, error) { return PlotLines("t", "x", "y (s)", []XYSeries{{"a", xs, v}}, true) },
			"lines lin":   func() ([]byte, error) { return PlotLines("t", "x", "y (s)", []XYSeries{{"a", xs, v}}, false) },
			"lines x=v":   func() ([]byte, error) { return PlotLines("t", "x", "y (s)", []XYSeries{{"a", v, xs}}, true) },
			"lines short": func() ([]byte, error) { return PlotLines("t", "x", "y (s)", []XYSeries{{"a", v, nil}}, true) },
			"cdf": func() ([]byte, error) {
				return PlotCDF("t", "response (s)", []Series{{"a", v}, {"b", []float64{1, 2}}})
			},
			"cdf alone": func() ([]byte, error) { return PlotCDF("t", "response (s)", []Series{{"a", v}}) },
			"bars":      func() ([]byte, error) { return PlotBars("t", "mean (s)", []string{"c0", "c1"}, []Series{{"a", v}}) },
			"boxes": func() ([]byte, error) {
				return PlotBoxes("t", "σ", "mean (s)", []float64{0, 0.5}, []BoxGroup{{"a", [][]float64{v, {1, 2}}}})
			},
			"boxes alone": func() ([]byte, error) {
				return PlotBoxes("t", "σ", "mean (s)", []float64{0}, []BoxGroup{{"a", [][]float64{v}}, {"b", [][]float64{v, v}}})
			},
		}
		for fn, f := range cases {
			png, panicked, err := call(f)
			if panicked != nil {
				t.Errorf("%s on %s: panic: %v", fn, name, panicked)
				continue
			}
			checkFigure(t, fmt.Sprintf("%s on %s", fn, name), png, err)
		}
	}
	// Whatever has a finite value (a positive one on log axes) is drawn.
	for what := range notes {
		if !strings.HasSuffix(what, " on empty") && !strings.HasSuffix(what, " on nan") && !strings.HasSuffix(what, " on onlyinf") &&
			!strings.HasSuffix(what, " on hugespan") && !(strings.Contains(what, "log") || strings.Contains(what, "x=v") || strings.Contains(what, "short") || strings.Contains(what, "alone")) {
			t.Errorf("%s: no figure (%s)", what, notes[what])
		}
	}
	t.Logf("notes: %v", notes)
}

var notes = map[string]string{}

func call(f func() ([]byte, error)) (png []byte, panicked any, err error) {
	defer func() { panicked = recover() }()
	png, err = f()
	return
}

// checkFigure accepts a decodable PNG or a note; any other error fails.
func checkFigure(t *testing.T, what string, b []byte, err error) {
	t.Helper()
	var nf *NoFigure
	switch {
	case errors.As(err, &nf):
		// A recovered panic is the safety net, not an answer.
		if nf.Reason == "" || strings.Contains(nf.Reason, "could not be drawn") {
			t.Errorf("%s: note %q", what, nf.Reason)
		}
		notes[what] = nf.Reason
	case err != nil:
		t.Errorf("%s: %v", what, err)
	default:
		if _, err := png.Decode(bytes.NewReader(b)); err != nil {
			t.Errorf("%s: not a PNG: %v", what, err)
		}
	}
}

// The allocation heat map (class × machine type) on every shape a plan can
// take, and on the extreme values above: drawn, or a note; never a panic.
func TestHeatMapSurvivesExtremeShapes(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	labels := func(p string, n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("%s%d", p, i+1)
		}
		return out
	}
	big := make([][]float64, 60)
	for r := range big {
		big[r] = make([]float64, 6)
		for c := range big[r] {
			big[r][c] = float64(r*c) / 360
		}
	}
	cases := []struct {
		name       string
		rows, cols []string
		z          [][]float64
		drawn      bool
	}{
		{"nil", nil, nil, nil, false},
		{"no columns", []string{"C1"}, nil, [][]float64{{}}, false},
		{"1x1", []string{"C1"}, []string{"R1"}, [][]float64{{0.5}}, true},
		{"1x1 zero", []string{"C1"}, []string{"R1"}, [][]float64{{0}}, true},
		{"flat", labels("C", 3), labels("R", 2), [][]float64{{1, 1}, {1, 1}, {1, 1}}, true},
		{"paper", []string{"C1", "C2"}, []string{"R1", "R2"}, [][]float64{{0, 0.5}, {1, 0.5}}, true},
		{"nan", labels("C", 2), labels("R", 2), [][]float64{{nan, nan}, {nan, nan}}, false},
		{"nan and one", labels("C", 2), labels("R", 2), [][]float64{{nan, 1}, {inf, -inf}}, true},
		{"ragged", labels("C", 2), labels("R", 2), [][]float64{{1, 2}, {3}}, false},
		{"labels short", labels("C", 1), labels("R", 2), [][]float64{{1, 2}, {3, 4}}, false},
		{"huge", labels("C", 2), labels("R", 1), [][]float64{{1e305}, {1.7e308}}, true},
		{"huge flat", labels("C", 1), labels("R", 1), [][]float64{{1.7e308}}, true},
		{"hugespan", labels("C", 2), labels("R", 1), [][]float64{{-1.7e308}, {1.7e308}}, false},
		{"tiny", labels("C", 2), labels("R", 1), [][]float64{{5e-324}, {1e-320}}, true},
		{"60 classes", labels("C", 60), labels("R", 6), big, true},
	}
	for _, c := range cases {
		png, panicked, err := call(func() ([]byte, error) { return PlotHeatMap("allocation", "machine type", "class", c.rows, c.cols, c.z) })
		if panicked != nil {
			t.Errorf("%s: panic: %v", c.name, panicked)
			continue
		}
		checkFigure(t, "heat map on "+c.name, png, err)
		if drawn := err == nil; drawn != c.drawn {
			t.Errorf("%s: drawn %v (err %v), want %v", c.name, drawn, err, c.drawn)
		}
	}
}
