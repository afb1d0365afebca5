package offheap

import (
	"runtime"
	"runtime/debug"
	"testing"
)

func TestMakeSmallIsHeap(t *testing.T) {
	before := InUse()
	s, free := Make[float64](100)
	if len(s) != 100 || cap(s) != 100 {
		t.Fatalf("len %d cap %d, want 100", len(s), cap(s))
	}
	if InUse() != before {
		t.Fatalf("a %d-byte slice went off the heap", 800)
	}
	free()
	s[0] = 1 // still a heap slice: usable after the no-op free
}

func TestMakeLarge(t *testing.T) {
	if !mapped() {
		t.Skip("no mmap on " + runtime.GOOS)
	}
	n := Threshold/4 + 3
	before := InUse()
	s, free := Make[int32](n)
	if len(s) != n {
		t.Fatalf("len %d, want %d", len(s), n)
	}
	if got := InUse() - before; got != int64(4*n) {
		t.Fatalf("InUse grew by %d, want %d", got, 4*n)
	}
	if Peak() < InUse() {
		t.Fatalf("Peak %d below InUse %d", Peak(), InUse())
	}
	for i, v := range s {
		if v != 0 {
			t.Fatalf("s[%d] = %d, want a zeroed slice", i, v)
		}
		s[i] = int32(i)
	}
	if s[n-1] != int32(n-1) {
		t.Fatal("last element not written")
	}
	free()
	free() // a second call does nothing
	if InUse() != before {
		t.Fatalf("InUse %d after free, want %d", InUse(), before)
	}
}

// TestUseAfterFreeFaults checks that a freed slice's pages are gone: a read
// faults (a panic under SetPanicOnFault) instead of returning stale data.
func TestUseAfterFreeFaults(t *testing.T) {
	if !mapped() {
		t.Skip("no mmap on " + runtime.GOOS)
	}
	s, free := Make[float64](Threshold)
	s[len(s)-1] = 42
	free()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	faulted := func() (f bool) {
		defer func() { f = recover() != nil }()
		sink = s[len(s)-1]
		return false
	}()
	if !faulted {
		t.Fatal("a read after Free did not fault")
	}
}

// sink keeps the read after Free from being optimised away.
var sink float64

func TestMakeZero(t *testing.T) {
	s, free := Make[uint8](0)
	if len(s) != 0 {
		t.Fatalf("len %d, want 0", len(s))
	}
	free()
}

func mapped() bool {
	b, err := mapBytes(4096)
	if err != nil || b == nil {
		return false
	}
	_ = unmapBytes(b)
	return true
}
