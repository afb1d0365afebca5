package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"testing"
	"time"
)

// TestPeakProfileKeepsTheLargestHeap checks that --peakprofile's file is a
// heap profile taken while a large allocation was live, not after it was
// freed (what --memprofile, written at the end, would show).
func TestPeakProfileKeepsTheLargestHeap(t *testing.T) {
	defer func(w func(io.Writer) error) { writeHeap = w }(writeHeap)
	writeHeap = func(w io.Writer) error { return pprof.Lookup("heap").WriteTo(w, 1) } // text
	path := filepath.Join(t.TempDir(), "peak.prof")
	p := peakProfiler{path: path}
	p.start()
	big := make([]byte, 64<<20)
	for i := range big {
		big[i] = byte(i)
	}
	runtime.GC() // the profile's in-use figures are those of the last collection
	time.Sleep(400 * time.Millisecond)
	runtime.KeepAlive(big)
	big = nil
	runtime.GC()
	time.Sleep(300 * time.Millisecond)
	p.end()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var objects, inuse int64
	if _, err := fmt.Fscanf(f, "heap profile: %d: %d", &objects, &inuse); err != nil {
		t.Fatal(err)
	}
	if inuse < 60<<20 {
		t.Errorf("profile holds %d MB in use, want the 64 MB that was live at the peak", inuse>>20)
	}
}
