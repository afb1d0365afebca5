package classify

import (
	"testing"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/internal/offheap"
)

// TestClassifyFreesOffHeap checks that a classification frees every buffer
// it held off the heap (the feature matrix, k-means' bounds, the refined
// starts' assignments), on both feature sets, sampled or not, and that
// its result is the same as with every buffer on the heap: a leak there
// would grow the process by 0.4 GB a classification at 10 M rows, and one
// freed too early would fault.
func TestClassifyFreesOffHeap(t *testing.T) {
	const n = 120_000 // n × 3 features × 8 B > offheap.Threshold
	j, sizes := pinLog(n)
	spec := cluster.DefaultSpec()
	for _, c := range []struct {
		name string
		set  FeatureSet
		opt  Options
	}{
		{"paper sampled", PaperFeatures, Options{K: 4, Seed: 3, Sample: 20_000}},
		{"paper whole", PaperFeatures, Options{K: 3, Seed: 3, Sample: -1, Restarts: 2}},
		{"size sampled", SizeFeatures, Options{K: 5, Seed: 1, Sample: 10_000}},
		{"size auto k", SizeFeatures, Options{Seed: 2, Sample: 10_000, KMax: 4}},
	} {
		before := offheap.InUse()
		in, err := prepare(j, sizes, spec, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		res, err := in.classifyRows("x", nil, c.opt, c.set)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if got := offheap.InUse(); got != before {
			t.Errorf("%s: %d B still off the heap after the classification, want %d", c.name, got, before)
		}
		if len(res.Assign) != n {
			t.Fatalf("%s: %d labels for %d jobs", c.name, len(res.Assign), n)
		}
		// Reading every label after the buffers were freed must not fault,
		// and the same classification again gives the same labels.
		again, err := in.classifyRows("x", nil, c.opt, c.set)
		if err != nil {
			t.Fatal(err)
		}
		for i := range res.Assign {
			if res.Assign[i] != again.Assign[i] {
				t.Fatalf("%s: row %d: label %d then %d", c.name, i, res.Assign[i], again.Assign[i])
			}
		}
	}
	if offheap.Peak() == 0 {
		t.Error("nothing went off the heap: the test does not exercise it")
	}
}
