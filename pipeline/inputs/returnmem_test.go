package inputs

import (
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
	for i := 0; i < 16; i++ {
		garbageSink = append(garbageSink, make([]float64, 1<<20)) // 8 MiB each
	}
	garbageSink = nil
	ReturnFreeMemory(returnMemoryJobs)
	if f := free(); f > 32<<20 {
		t.Errorf("%d MiB of free heap kept resident after ReturnFreeMemory, want it returned", f>>20)
	}
}
