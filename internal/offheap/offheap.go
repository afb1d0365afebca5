// Package offheap allocates large pointer-free slices outside the Go heap,
// for the buffers whose lifetime one function bounds (a classification's
// feature matrix, k-means' per-row bounds): such a buffer is returned to
// the operating system the moment its Free runs, and it does not count
// towards the live heap from which the garbage collector sets its next
// goal. A 0.4 GB buffer allocated on the heap beside 0.5 GB of long-lived
// columns lets the heap grow to twice 0.9 GB before the next collection;
// off the heap it grows to twice 0.5 GB, plus the buffer itself.
//
// A slice is read and written like any other, but it must not be used
// after its Free (on Linux and macOS the pages are unmapped, so a stray
// read faults instead of returning stale data), must not hold pointers
// (the element types are numbers), and is not appended to past its
// length. Slices below Threshold bytes, and every slice on systems
// without mmap, are ordinary heap slices whose Free does nothing. A
// mapped slice lowers the runtime's soft memory limit, when one is set,
// by its size until its Free (limit.go).
//
// It imports only the standard library.
package offheap

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// Elem are the element types a slice off the heap may hold: numbers, never
// pointers (the garbage collector does not scan the mapped pages).
type Elem interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~int | ~uint8 | ~uint16 | ~uint32 | ~uint64 | ~uint | ~float32 | ~float64
}

// Threshold is the smallest slice, in bytes, allocated off the heap; a
// smaller one is not worth a system call.
const Threshold = 1 << 20

var inUse, peak atomic.Int64

// Make returns a zeroed slice of n elements and the function that frees
// it. Free may be called more than once and from any goroutine; the slice
// must not be used after the first call.
func Make[T Elem](n int) (s []T, free func()) {
	var zero T
	size := uintptr(n) * unsafe.Sizeof(zero)
	if n <= 0 || size < Threshold || size/unsafe.Sizeof(zero) != uintptr(n) {
		return make([]T, n), func() {}
	}
	b, err := mapBytes(int(size))
	if err != nil || b == nil {
		// No mapping (the system has none, or refused one): the heap
		// serves, and a refusal that is a real shortage fails there.
		return make([]T, n), func() {}
	}
	add(int64(size))
	lowered := reserve(int64(size))
	s = unsafe.Slice((*T)(unsafe.Pointer(unsafe.SliceData(b))), n)
	var once sync.Once
	return s, func() {
		once.Do(func() {
			if unmapBytes(b) == nil {
				add(-int64(size))
			}
			unreserve(lowered)
		})
	}
}

func add(d int64) {
	v := inUse.Add(d)
	for {
		p := peak.Load()
		if v <= p || peak.CompareAndSwap(p, v) {
			return
		}
	}
}

// InUse returns the bytes allocated off the heap and not yet freed.
func InUse() int64 { return inUse.Load() }

// Peak returns the most bytes that were off the heap at once.
func Peak() int64 { return peak.Load() }
