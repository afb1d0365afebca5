package report

import (
	"bytes"
	"image/png"
	"testing"
)

func TestPlotsRenderDeterministicPNG(t *testing.T) {
	a := Series{Name: "fifo", Values: []float64{0, 1, 2, 10, 100}}
	b := Series{Name: "ps", Values: []float64{0.5, 1, 3, 5, 7}}
	for name, f := range map[string]func() ([]byte, error){
		"cdf": func() ([]byte, error) { return PlotCDF("t", "response (s)", []Series{a, b}) },
		"bars": func() ([]byte, error) {
			return PlotBars("t", "mean", []string{"c0", "c1"}, []Series{{"fifo", []float64{1, 2}}, {"ps", []float64{2, 1}}})
		},
		"boxes": func() ([]byte, error) {
			return PlotBoxes("t", "σ", "mean", []float64{0, 0.5}, []BoxGroup{{"srpt", [][]float64{{1, 2, 3}, {2, 3, 4}}}})
		},
		"lines": func() ([]byte, error) {
			return PlotLines("t", "load", "mean", []XYSeries{{"ps", []float64{0.5, 1}, []float64{1, 10}}}, true)
		},
	} {
		p1, err := f()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		p2, _ := f()
		if !bytes.Equal(p1, p2) {
			t.Errorf("%s: two renderings differ", name)
		}
		img, err := png.Decode(bytes.NewReader(p1))
		if err != nil {
			t.Fatalf("%s: not a PNG: %v", name, err)
		}
		if img.Bounds().Dx() < 600 {
			t.Errorf("%s: %v wide", name, img.Bounds())
		}
	}
}
