package offheap

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
)

// TestMakeLowersMemoryLimit checks that a slice off the heap lowers the
// runtime's soft memory limit by its size while it lives: the runtime does
// not see mapped pages, so a limit set to keep the process within its
// memory (run --memory-limit, auto's 90 % of a cgroup's) would otherwise
// let the heap grow to the limit beside them. No limit stays no limit.
func TestMakeLowersMemoryLimit(t *testing.T) {
	if !mapped() {
		t.Skip("no mmap on " + runtime.GOOS)
	}
	const limit = 1 << 30
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(limit))
	n := 4 * Threshold / 8
	_, free := Make[float64](n)
	if got := debug.SetMemoryLimit(-1); got != limit-int64(8*n) {
		t.Errorf("limit %d while %d B are off the heap, want %d", got, 8*n, limit-int64(8*n))
	}
	_, free2 := Make[float64](n)
	free()
	free() // once
	free2()
	if got := debug.SetMemoryLimit(-1); got != limit {
		t.Errorf("limit %d after every free, want %d back", got, int64(limit))
	}
	debug.SetMemoryLimit(math.MaxInt64)
	_, free = Make[float64](n)
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit %d with none set, want none", got)
	}
	free()
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit %d after free with none set, want none", got)
	}
}
