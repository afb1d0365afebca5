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
// beside the features through both classifications): preparing a log
// allocates no per-job memory, and the whole of COSHH at most 460 B a job
// (481 B before).
func TestCOSHHHoldsNoJobTimes(t *testing.T) {
	if testing.Short() {
		t.Skip("classifies 200k jobs")
	}
	const n = 200_000
	j, sizes := pinLog(n)
	spec := cluster.DefaultSpec()
	for _, errs := range []bool{false, true} {
		opt := Options{K: 4, Seed: 3}
		if errs {
			opt.TimeErrors.Kind, opt.TimeErrors.I = "uniform", 0.3
		}
		p := allocated(func() {
			if _, err := prepare(j, sizes, spec, opt); err != nil {
				t.Fatal(err)
			}
		})
		if p > 64<<10 {
			t.Errorf("errors %v: prepare allocated %d B for %d jobs, want no per-job memory (< 64 KiB)", errs, p, n)
		}
		c := allocated(func() {
			if _, _, err := COSHH(j, sizes, spec, opt); err != nil {
				t.Fatal(err)
			}
		})
		if c > 460*n {
			t.Errorf("errors %v: COSHH allocated %d B for %d jobs (%.0f B a job), want at most 460 B a job", errs, c, n, float64(c)/n)
		}
	}
}
