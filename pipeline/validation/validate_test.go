package validation

import (
	"slices"
	"testing"

	"github.com/schedplan/schedplan/pipeline/experiment"
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
