//go:build cgo

package lp

import (
	"math"
	"testing"
)

// TestSetColumnCoefficients changes entries of one column in a loaded CLP
// model (in place, a new entry, an entry set to 0) and checks the matrix
// CLP holds and the optimum it then finds.
func TestSetColumnCoefficients(t *testing.T) {
	// maximise x0 + x1 s.t. row r: a_r0 x0 + x1 ≤ 4 (r = 0, 1, 2), x ≥ 0.
	m := NewModel("set", Maximize)
	for r := 0; r < 3; r++ {
		m.AddRow("", LE(4))
	}
	x0 := m.AddCol("x0", 1, NonNeg())
	x1 := m.AddCol("x1", 1, NonNeg())
	m.Set(0, x0, 1)
	m.Set(1, x0, 2)
	for r := 0; r < 3; r++ {
		m.Set(r, x1, 1)
	}
	c := newCLP()
	defer c.free()
	c.load(m)
	cases := []struct {
		name string
		rows []int
		vals []float64
		col0 map[int]float64 // x0's entries after the change
		obj  float64
	}{
		{"in place", []int{0, 1}, []float64{4, 8}, map[int]float64{0: 4, 1: 8}, 4},                     // x1 = 4
		{"new entry", []int{2}, []float64{0.5}, map[int]float64{0: 4, 1: 8, 2: 0.5}, 4},                // still x1 = 4
		{"to zero and in place", []int{0, 1}, []float64{0, 0.25}, map[int]float64{1: 0.25, 2: 0.5}, 8}, // x0 = 8 (row 2: 0.5·8 = 4), x1 = 0
	}
	for _, tc := range cases {
		c.setColumnCoefficients(0, tc.rows, tc.vals)
		got := columnEntries(c, 0)
		if len(got) != len(tc.col0) {
			t.Errorf("%s: column 0 holds %v, want %v", tc.name, got, tc.col0)
		}
		for r, v := range tc.col0 {
			if got[r] != v {
				t.Errorf("%s: entry (%d, 0) = %g, want %g", tc.name, r, got[r], v)
			}
		}
		sol, err := c.solve(clpInitial)
		if err != nil || sol.Status != Optimal {
			t.Fatalf("%s: %v %v", tc.name, err, sol)
		}
		if math.Abs(sol.Objective-tc.obj) > 1e-9 {
			t.Errorf("%s: objective %g, want %g", tc.name, sol.Objective, tc.obj)
		}
	}
}

// columnEntries reads column col of the CLP model's matrix.
func columnEntries(c *clpModel, col int) map[int]float64 {
	index, value := c.column(col)
	out := map[int]float64{}
	for p, r := range index {
		out[int(r)] = value[p]
	}
	return out
}
