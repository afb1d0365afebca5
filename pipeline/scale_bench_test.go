package pipeline

import (
	"context"
	"os"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"

	"github.com/schedplan/schedplan/pipeline/inputs"
)

// BenchmarkScaleRun runs the whole pipeline (defaults, --force) on the log
// named by SCHEDPLAN_SCALE_TRACE into SCHEDPLAN_SCALE_OUT (a directory kept
// between runs, so that a profile can cover the stages whose key changed
// only), for `go test -cpuprofile`/`-memprofile` of issue 17's scale runs.
// It prints the wall time and the heap in use at the end.
func BenchmarkScaleRun(b *testing.B) {
	trace, out := os.Getenv("SCHEDPLAN_SCALE_TRACE"), os.Getenv("SCHEDPLAN_SCALE_OUT")
	if trace == "" || out == "" {
		b.Skip("set SCHEDPLAN_SCALE_TRACE and SCHEDPLAN_SCALE_OUT")
	}
	stop := watchPeak(b, os.Getenv("SCHEDPLAN_SCALE_PEAKPROF"))
	defer stop()
	for i := 0; i < b.N; i++ {
		cfg := inputs.DefaultRunConfig()
		cfg.Trace = trace
		if r := os.Getenv("SCHEDPLAN_SCALE_RESULTS"); r != "" {
			cfg.Results = r
		}
		t0 := time.Now()
		in, err := Prepare(cfg)
		if err != nil {
			b.Fatal(err)
		}
		b.Logf("prepare %.1f s, heap in use after GC %d MB", time.Since(t0).Seconds(), heapInUse()>>20)
		r := &Runner{Dir: out, Force: true}
		r.Hook = func(stage string, ev StageEvent, err error) {
			if ev == StageDone {
				b.Logf("%s done at %.1f s, heap in use after GC %d MB", stage, time.Since(t0).Seconds(), heapInUse()>>20)
			}
		}
		if _, err := Run(context.Background(), in, r); err != nil {
			b.Fatal(err)
		}
		b.Logf("run %.1f s", time.Since(t0).Seconds())
	}
}

// watchPeak samples the heap in use every 100 ms and, when path is set,
// writes a heap profile there each time it grows by 10% over the peak so
// far; stop logs the peak.
func watchPeak(b *testing.B, path string) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	var peak uint64
	go func() {
		defer close(finished)
		t := time.NewTicker(100 * time.Millisecond)
		defer t.Stop()
		profiled := uint64(0)
		for {
			select {
			case <-done:
				return
			case <-t.C:
			}
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			peak = max(peak, m.HeapInuse)
			if path != "" && m.HeapInuse > profiled+profiled/10 {
				profiled = m.HeapInuse
				if f, err := os.Create(path); err == nil {
					pprof.WriteHeapProfile(f)
					f.Close()
				}
			}
		}
	}()
	return func() {
		close(done)
		<-finished
		b.Logf("peak heap in use %d MB (sampled every 100 ms)", peak>>20)
	}
}
