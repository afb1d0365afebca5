package offheap

import (
	"math"
	"runtime/debug"
	"sync"
)

// The runtime's soft memory limit (debug.SetMemoryLimit: run
// --memory-limit, or auto's share of the memory a cgroup allows) bounds
// the memory the runtime manages, which mapped pages are not: a limit set
// to keep the process within its memory would let the heap grow to it
// beside them. Each mapped slice lowers the limit by its size while it
// lives (reserve) and gives it back when freed; no limit stays none.

// limitFloor is the least limit a reservation leaves: below it the
// runtime would collect without end.
const limitFloor = 64 << 20

var limitMu sync.Mutex

// reserve lowers the memory limit, when one is set, by size bytes (not
// below limitFloor) and returns by how much it lowered it.
func reserve(size int64) int64 {
	limitMu.Lock()
	defer limitMu.Unlock()
	cur := debug.SetMemoryLimit(-1)
	if cur == math.MaxInt64 || cur <= limitFloor {
		return 0
	}
	next := max(cur-size, limitFloor)
	debug.SetMemoryLimit(next)
	return cur - next
}

// unreserve raises the memory limit, when one is set, by what reserve
// lowered it.
func unreserve(lowered int64) {
	if lowered == 0 {
		return
	}
	limitMu.Lock()
	defer limitMu.Unlock()
	if cur := debug.SetMemoryLimit(-1); cur != math.MaxInt64 {
		debug.SetMemoryLimit(cur + lowered)
	}
}
