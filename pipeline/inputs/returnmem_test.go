package inputs

import (
	"runtime"
	"runtime/metrics"
	"testing"
)

var garbageSink [][]float64

// TestReturnFreeMemory checks that the heap a large log's garbage leaves
// free is returned to the system (not kept resident as free heap), and
// that a small log's is left to the runtime.
func TestReturnFreeMemory(t *testing.T) {
	free := func() uint64 {
		s := []metrics.Sample{{Name: "/memory/classes/heap/free:bytes"}}
		metrics.Read(s)
		return s[0].Value.Uint64()
	}
	garbage := func() {
		for i := 0; i < 16; i++ {
			garbageSink = append(garbageSink, make([]float64, 1<<20)) // 8 MiB each
		}
		garbageSink = nil
		runtime.GC() // the garbage is free heap now, still resident
	}
	garbage()
	ReturnFreeMemory(returnMemoryJobs - 1)
	if f := free(); f < 64<<20 {
		t.Fatalf("only %d MiB of free heap after a small log's call: the test cannot tell", f>>20)
	}
	garbage()
	ReturnFreeMemory(returnMemoryJobs)
	if f := free(); f > 32<<20 {
		t.Errorf("%d MiB of free heap kept resident after ReturnFreeMemory, want it returned", f>>20)
	}
}
