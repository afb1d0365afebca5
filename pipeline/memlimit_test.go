package pipeline

import (
	"errors"
	"math"
	"os"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
)

func TestParseMemoryLimit(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		auto bool
		bad  bool
	}{
		{"auto", -1, true, false}, {"", -1, true, false}, {" AUTO ", -1, true, false},
		{"none", 0, false, false},
		{"3.5GiB", 3.5 * (1 << 30), false, false}, {"4GB", 4e9, false, false}, {"4 gb", 4e9, false, false},
		{"800MiB", 800 << 20, false, false}, {"1000000000", 1e9, false, false}, {"2TB", 2e12, false, false},
		{"67108864B", 64 << 20, false, false},
		{"1MB", 0, false, true}, {"0", 0, false, true}, {"-4GB", 0, false, true}, {"NaN", 0, false, true},
		{"inf", 0, false, true}, {"4XB", 0, false, true}, {"GiB", 0, false, true}, {"1e300TB", 0, false, true},
	} {
		got, auto, err := inputs.ParseMemoryLimit(tc.in)
		if (err != nil) != tc.bad || err == nil && (got != tc.want || auto != tc.auto) {
			t.Errorf("ParseMemoryLimit(%q) = %d, %v, %v; want %d, %v, error %v", tc.in, got, auto, err, tc.want, tc.auto, tc.bad)
		}
	}
}

// TestMemoryLimitFlag checks that Prepare refuses a bad --memory-limit by
// name before it reads anything, and sets a given one.
func TestMemoryLimitFlag(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	cfg := inputs.DefaultRunConfig()
	cfg.MemoryLimit = "lots"
	_, err := Prepare(cfg)
	var pe *experiment.ParamError
	if !errors.As(err, &pe) || pe.Param != "memory-limit" {
		t.Fatalf("Prepare with --memory-limit lots: %v, want a ParamError naming it", err)
	}
	cfg.MemoryLimit = "1GiB"
	if _, err := Prepare(cfg); err != nil {
		t.Fatal(err)
	}
	if l := debug.SetMemoryLimit(-1); l != 1<<30 {
		t.Errorf("limit %d, want 1 GiB", l)
	}
	cfg.MemoryLimit = "none"
	if _, err := Prepare(cfg); err != nil {
		t.Fatal(err)
	}
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		t.Errorf("limit %d, want none", l)
	}
	if inputs.ProcessMemory() <= 0 {
		t.Log("the memory the process may have is unknown here")
	}
}

// "auto" sizes the limit by the log: 1.3 × (250 MB + 105 B a job), at
// least 512 MiB, at most 90% of the memory the process may have. At 1 M
// jobs it is 512 MiB (the old 350 B a job, at least 768 MiB, let the RSS
// reach 800 MB over a live heap of 380 MB); at 10 M 1.69 GB (live peak
// 1.42–1.49 GB with one scaled copy at a time; the old 1.5 × (200 MB + 180 B a job) let the RSS reach 3 GB).
func TestAutoMemoryLimitByJobs(t *testing.T) {
	if os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOMEMLIMIT set")
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	have := inputs.ProcessMemory()
	if have < 8<<30 {
		t.Skipf("this machine may have %d bytes; the test needs 8 GiB", have)
	}
	for _, c := range []struct {
		jobs int
		want int64
	}{{0, 512 << 20}, {500_000, 512 << 20}, {1_000_000, 512 << 20}, {10_000_000, 1_690_000_000}} {
		got, from := inputs.ApplyMemoryLimit("auto", c.jobs)
		if got != c.want || debug.SetMemoryLimit(-1) != c.want || !strings.Contains(from, "per job") {
			t.Errorf("%d jobs: limit %d (%s), want %d", c.jobs, got, from, c.want)
		}
	}
	if got, _ := inputs.ApplyMemoryLimit("auto", 1<<40); got != int64(inputs.AutoMemoryShare*float64(have)) {
		t.Errorf("a huge log: limit %d, want 90%% of %d", got, have)
	}
	if got, _ := inputs.ApplyMemoryLimit("auto", -1); got != int64(inputs.AutoMemoryShare*float64(have)) {
		t.Errorf("before the log is read: limit %d, want 90%% of %d", got, have)
	}
}
