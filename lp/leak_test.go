//go:build cgo && linux

package lp

import (
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
)

// rss returns the process's resident set size in bytes (/proc/self/statm).
func rss(t *testing.T) int64 {
	runtime.GC()
	debug.FreeOSMemory()
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		t.Skip("no /proc/self/statm:", err)
	}
	f := strings.Fields(string(b))
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return pages * int64(os.Getpagesize())
}

// TestCLPNoLeak solves 10,000 small LPs (and 1,000 column-generation runs)
// with CLP and checks that the resident set does not grow: every C model is
// deleted in the call that made it.
func TestCLPNoLeak(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	cases := smallCases()
	solveMany := func(n int) {
		for k := 0; k < n; k++ {
			m := cases[k%len(cases)].build()
			if _, err := Solve(m, Options{Solver: CLP}); err != nil {
				t.Fatal(err)
			}
			if k%10 == 0 {
				if _, err := SolveCOSHH(seedExample(), COSHHOptions{Solver: CLP}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	solveMany(1000) // warm up allocators
	before := rss(t)
	solveMany(10000)
	after := rss(t)
	t.Logf("RSS before %d KiB, after 10,000 solves %d KiB", before>>10, after>>10)
	if after-before > 4<<20 {
		t.Errorf("RSS grew by %d KiB over 10,000 CLP solves: a leak", (after-before)>>10)
	}
}
