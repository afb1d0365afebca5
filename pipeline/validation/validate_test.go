package validation

import (
	"slices"
	"testing"

	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
)

// TestExperimentsOrder checks the order the validation's experiments run
// in: the exact-size one first, then the σ runs, then every distinct load
// factor's once, highest first (a factor of 1 is the exact-size experiment;
// a repeated factor shares its experiment).
func TestExperimentsOrder(t *testing.T) {
	exact := &experiment.Experiment{}
	sig := []*experiment.Experiment{{Runs: 1}, {Runs: 2}}
	byFactor := map[float64]*experiment.Experiment{1: exact}
	v := &validation{Exact: exact, sigmas: sig}
	for _, f := range []float64{0.5, 0.7, 1, 1.2, 0.9, 1.1, 0.7} {
		x := byFactor[f]
		if x == nil {
			x = &experiment.Experiment{Scale: f}
			byFactor[f] = x
		}
		v.loads, v.loadOf = append(v.loads, x), append(v.loadOf, f)
	}
	want := []*experiment.Experiment{exact, sig[0], sig[1], byFactor[1.2], byFactor[1.1], byFactor[0.9], byFactor[0.7], byFactor[0.5]}
	if got := v.experiments(); !slices.Equal(got, want) {
		var scales []float64
		for _, x := range got {
			scales = append(scales, x.Scale)
		}
		t.Errorf("experiments' scales %v, want the exact one, the σ runs, then 1.2 1.1 0.9 0.7 0.5", scales)
	}
}

// TestWindowClasses checks that the results sink's classes of the window
// are ClassesOf's, a view of the classification's own (no 4-B-a-job copy:
// the old stage copied them) when it classified every row, and a copy
// otherwise.
func TestWindowClasses(t *testing.T) {
	all := &inputs.ClassOut{Assign: []int32{3, 1, 4, 1, 5, 9, 2}}
	some := &inputs.ClassOut{Rows: []int{1, 4, 6}, Assign: []int32{7, 8, 9}}
	short := &inputs.ClassOut{Assign: []int32{3, 1}}
	for _, tc := range []struct {
		name     string
		c        *inputs.ClassOut
		first, n int
		view     bool
	}{{"every row", all, 2, 4, true}, {"every row, empty", all, 7, 0, false}, {"some rows", some, 1, 5, false}, {"rows past the classes", short, 1, 3, false}} {
		got, want := windowClasses(tc.c, tc.first, tc.n), tc.c.ClassesOf(tc.first, tc.n)
		if !slices.Equal(got, want) {
			t.Errorf("%s: %v, ClassesOf %v", tc.name, got, want)
		}
		if view := tc.n > 0 && &got[0] == &tc.c.Assign[tc.first]; view != tc.view {
			t.Errorf("%s: a view of the classes %v, want %v", tc.name, view, tc.view)
		}
		if cap(got) != len(got) {
			t.Errorf("%s: capacity %d beyond the window's %d classes", tc.name, cap(got), len(got))
		}
	}
}
