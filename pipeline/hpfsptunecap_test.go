package pipeline

import (
	"context"
	"testing"

	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// TestTuneHPFSPWindowBounded checks that H-PFSP is tuned on the last
// HPFSPTuneMaxJobs jobs of a longer tuning window, and on all of a shorter
// one.
func TestTuneHPFSPWindowBounded(t *testing.T) {
	in, err := Prepare(inputs.DefaultRunConfig())
	if err != nil {
		t.Fatal(err)
	}
	if err := in.HoldSimJobs(); err != nil { // Prepare builds none
		t.Fatal(err)
	}
	tune, _ := in.Split.Windows(in.SimJobs)
	defer func(n int) { HPFSPTuneMaxJobs = n }(HPFSPTuneMaxJobs)
	for _, limit := range []int{500, len(tune) + 1} {
		HPFSPTuneMaxJobs = limit
		h, err := TuneHPFSPWindow(context.Background(), in.Jobs, tune, in.Capacity, in.Spec, 1, tuner.MinMean)
		if err != nil {
			t.Fatal(err)
		}
		want := min(limit, len(tune))
		if h.Jobs != want || h.Skipped != len(tune)-want {
			t.Errorf("HPFSPTuneMaxJobs %d: tuned on %d jobs, skipped %d; want %d and %d", limit, h.Jobs, h.Skipped, want, len(tune)-want)
		}
	}
}
