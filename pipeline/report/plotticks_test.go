package report

import (
	"testing"
)

// TestPlotsLabelBothAxes draws the plots whose ranges used to leave an axis
// without a single value (a log axis within one decade: the sensitivity
// plots' y axes) and checks the ticks chunk says both axes are labelled.
func TestPlotsLabelBothAxes(t *testing.T) {
	cases := []struct {
		name string
		draw func() ([]byte, error)
	}{
		{"log y within a decade", func() ([]byte, error) {
			return PlotLines("t", "α0", "mean response (s)", []XYSeries{{"a", []float64{1, 2, 3}, []float64{31, 38, 44}}}, true)
		}},
		{"log y within a factor 1.2", func() ([]byte, error) {
			return PlotLines("t", "k", "mean response (s)", []XYSeries{{"a", []float64{2, 3, 4}, []float64{61, 65, 70}}}, true)
		}},
		{"log y over decades", func() ([]byte, error) {
			return PlotLines("t", "x", "y", []XYSeries{{"a", []float64{1, 2}, []float64{0.1, 1000}}}, true)
		}},
		{"cdf", func() ([]byte, error) {
			return PlotCDF("t", "response (s)", []Series{{"a", []float64{3, 4, 5, 9}}})
		}},
		{"bars", func() ([]byte, error) {
			return PlotBars("t", "mean (s)", []string{"C1", "C2"}, []Series{{"fifo", []float64{1, 2000}}, {"fair", []float64{3, 4}}})
		}},
	}
	for _, c := range cases {
		png, err := c.draw()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		x, y, ok := TicksOf(png)
		if !ok || x < 2 || y < 2 {
			t.Errorf("%s: labelled ticks x=%d y=%d (chunk found: %v), want at least 2 on each axis", c.name, x, y, ok)
		}
	}
}
