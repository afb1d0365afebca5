package experiment

import (
	"reflect"
	"runtime"
	"slices"
	"testing"

	"github.com/schedplan/schedplan/cluster/sim"
)

// TestComputeBoundsCopiesOnlyInexact checks that ComputeBounds gives the
// same bounds on jobs with inexact estimates as on the same jobs with
// exact ones, leaves its argument as it was, and copies the jobs only
// when an estimate differs from its size (the old code copied every
// window: a second 0.19 GB validation window at the 10 M log, beside
// tune's search).
func TestComputeBoundsCopiesOnlyInexact(t *testing.T) {
	const n = 200_000
	exact := make([]sim.Job, n)
	for i := range exact {
		s := 0.2 + float64(i%7)*0.1
		exact[i] = sim.Job{Arrival: float64(i) * 0.6, Size: s, Estimate: s, Weight: 1}
	}
	inexact := slices.Clone(exact)
	for i := range inexact {
		inexact[i].Estimate *= 1 + float64(i%3)
	}
	keep := slices.Clone(inexact)
	alloc := func(jobs []sim.Job) (*Bounds, uint64) {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		b, err := ComputeBounds(jobs, 1)
		if err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return b, after.TotalAlloc - before.TotalAlloc
	}
	be, ae := alloc(exact)
	bi, ai := alloc(inexact)
	if !reflect.DeepEqual(be, bi) {
		t.Errorf("bounds with inexact estimates %+v, with exact ones %+v", bi, be)
	}
	if !slices.Equal(inexact, keep) {
		t.Error("ComputeBounds changed its jobs")
	}
	copyBytes := uint64(n) * uint64(reflect.TypeFor[sim.Job]().Size())
	if ai < ae+copyBytes/2 {
		t.Errorf("inexact estimates: %d B allocated, exact: %d B; want a copy of the jobs (%d B) more", ai, ae, copyBytes)
	}
	if ae >= ai {
		t.Errorf("exact estimates: %d B allocated, no less than with a copy (%d B)", ae, ai)
	}
}
