package classify

import (
	"runtime"
	"testing"

	"github.com/schedplan/schedplan/cluster"
)

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// COSHH holds no execution times for every job (n × types floats and the
// task data: 11.2 MB at 200k jobs on the default spec's six types, live
// beside the features through both classifications on the old code):
// preparing a log allocates no per-job memory, with errors or without.
// (COSHH's own total allocation is no steady measure: other tests'
// goroutines may still allocate while it runs.)
func TestCOSHHHoldsNoJobTimes(t *testing.T) {
	const n = 200_000
	j, sizes := pinLog(n)
	spec := cluster.DefaultSpec()
	for _, errs := range []bool{false, true} {
		opt := Options{K: 4, Seed: 3}
		if errs {
			opt.TimeErrors.Kind, opt.TimeErrors.I = "uniform", 0.3
		}
		var in *prepared
		p := allocated(func() {
			var err error
			if in, err = prepare(j, sizes, spec, opt); err != nil {
				t.Fatal(err)
			}
		})
		if p > 256<<10 {
			t.Errorf("errors %v: prepare allocated %d B for %d jobs, want no per-job memory (< 256 KiB)", errs, p, n)
		}
		if _, err := in.classifyRows("secondary", nil, opt, PaperFeatures); err != nil {
			t.Fatal(err)
		}
	}
}
