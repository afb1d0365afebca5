package pipeline

import (
	"context"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/schedplan/schedplan/cluster/sim"
)

// TestValidateDropsKeptWindow runs the pipeline on one core and checks
// that at validate's last simulation (a load factor's, the pool's units
// running in order), the validation window the stages before kept (64 B
// a job) is garbage: the load factors' scaled copies are not held beside
// it (the old stage read every run from it, so
// it was live through the whole pool: 0.19 GB beside a 0.19 GB copy at
// the 10 M log's peak).
func TestValidateDropsKeptWindow(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1)) // the units run in pool order
	in, err := Prepare(testConfig())
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := in.Split.TuneJobs, in.NumSimJobs()
	var freed atomic.Bool
	armed, checked := false, false
	r := &Runner{Dir: filepath.Join(t.TempDir(), "out"), Progress: func(stage string, done, total int) {
		switch {
		case stage != "validate" || checked:
		case !armed:
			// The first unit done is a task-level one: the fluid runs'
			// window is not built yet.
			a, errA := in.Window(lo, hi)
			b, errB := in.Window(lo, hi)
			if errA != nil || errB != nil || len(a) == 0 || &a[0] != &b[0] {
				t.Fatalf("the validation window is not kept when validate starts (%v, %v)", errA, errB)
			}
			runtime.SetFinalizer(&a[0], func(*sim.Job) { freed.Store(true) })
			armed = true
		case done == total:
			for range 50 { // finalizers run after a collection, on their own goroutine
				if runtime.GC(); freed.Load() {
					break
				}
				time.Sleep(2 * time.Millisecond)
			}
			checked = true
		}
	}}
	if _, err := Run(context.Background(), in, r); err != nil {
		t.Fatal(err)
	}
	if !checked {
		t.Fatal("validate reported no progress")
	}
	if !freed.Load() {
		t.Error("the window kept for the stages before validate is still live at its first load-factor run")
	}
}
