package inputs

import (
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/schedplan/schedplan/data"
)

// The Go runtime collects garbage when the heap has grown by GOGC (100%)
// since the last collection, so a run's heap peaks near twice its live
// memory: 2.3 GB live in classify at 10 M jobs made 4.5 GB. A soft memory
// limit (runtime/debug.SetMemoryLimit) makes it collect sooner as the heap
// nears the limit, trading CPU time for memory; it never fails a run (a
// live heap above the limit only makes collections more frequent, the
// runtime capping them at about half the CPU).
//
// `run --memory-limit` sets it:
//
//   - a size ("3.5GiB", "4GB", "800MiB", bytes without a unit): that limit;
//   - "none": none (GOGC alone);
//   - "auto" (the default): GOMEMLIMIT when the environment sets it (the
//     runtime reads it itself), else the least of
//       - 90% of the memory the process may have (the least of the
//         machine's RAM, MemTotal, and its cgroup's limit, memory.max): a
//         run in a container limited to 4 GiB then collects before it is
//         killed, instead of growing to twice its live heap;
//       - the heap the log needs with some to spare: autoSpare (1.3) ×
//         (autoBaseBytes (250 MB) + autoBytesPerJob (105 B) per job), at
//         least autoMinLimit (512 MiB): at 1 M jobs 512 MiB, at 10 M
//         1.69 GB. It was fitted when the live heap peaked at 375 MB at
//         1 M jobs and 1.42–1.49 GB at 10 M (validate's load-factor
//         runs); since then (no simulation jobs built by Prepare, no
//         window kept from one stage to the next, COSHH's times computed
//         where read, the tuning window's ids, bytes and class labels
//         dropped as their last readers finish, LAS_MQ's state per job in
//         the system, 48-byte simulation jobs) it peaks at 271–308 MB
//         (1 M, no task counts) and 0.82–0.89 GB (10 M: classify's
//         feature matrix and k-means bounds beside the log's columns;
//         0.68–0.82 GB in tune, 0.73 in validate), so the limit is about
//         90% over the peak: the heap grows to at most the limit (RSS
//         1.68–1.69 GB at 10 M, 1.92–2.01 GB with "none") and
//         collections come a little sooner only near it. The jobs' arrays hold no
//         pointers, so a collection marks little: the limit costs a few
//         more collections, not CPU time that counts. The fit is of runs
//         on 2 cores; more workers hold more simulations at once.

// MemoryLimitAuto and MemoryLimitNone are --memory-limit's words.
const (
	MemoryLimitAuto = "auto"
	MemoryLimitNone = "none"
)

// AutoMemoryShare is the share of the memory the process may have that
// "auto" sets as the soft limit.
const AutoMemoryShare = 0.9

// autoBaseBytes, autoBytesPerJob, autoSpare and autoMinLimit size
// "auto"'s limit by the log: a part that does not grow with the log (the
// sampled windows' task level, the program) and one that does (the jobs'
// columns and validate's runs), autoSpare times their sum, and a floor for
// small logs; fitted to the measured live peaks (ApplyMemoryLimit).
const (
	autoBaseBytes   = 250e6
	autoBytesPerJob = 105
	autoSpare       = 1.3
	autoMinLimit    = 512 << 20
)

// autoLimit is "auto"'s limit for a log of jobs jobs before the share of
// the process's memory caps it: autoSpare × (autoBaseBytes +
// autoBytesPerJob × jobs), at least autoMinLimit.
func autoLimit(jobs int) float64 {
	return max(autoMinLimit, autoSpare*(autoBaseBytes+autoBytesPerJob*float64(jobs)))
}

// minMemoryLimit is the least limit a size may give: below it the runtime
// would collect without end on any log.
const minMemoryLimit = 64 << 20

// ParseMemoryLimit parses a --memory-limit: "auto", "none" (−1, 0) or a
// size in bytes with an optional unit (B, KB, MB, GB, TB in powers of
// 1000; KiB, MiB, GiB, TiB in powers of 1024).
func ParseMemoryLimit(s string) (bytes int64, auto bool, err error) {
	t := strings.TrimSpace(s)
	switch strings.ToLower(t) {
	case MemoryLimitAuto, "":
		return -1, true, nil
	case MemoryLimitNone:
		return 0, false, nil
	}
	units := []struct {
		suffix string
		mult   float64
	}{{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
		{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12}, {"b", 1}}
	num, mult := strings.ToLower(t), 1.0
	for _, u := range units {
		if rest, ok := strings.CutSuffix(num, u.suffix); ok {
			num, mult = strings.TrimSpace(rest), u.mult
			break
		}
	}
	v, err := strconv.ParseFloat(num, 64)
	if err != nil || !(v > 0) || math.IsInf(v, 0) {
		return 0, false, fmt.Errorf("want auto, none or a size such as 3.5GiB or 4000MB")
	}
	b := v * mult
	if b < minMemoryLimit || b > float64(math.MaxInt64/2) {
		return 0, false, fmt.Errorf("%s is %.4g bytes: want 64 MiB to 4 EiB", s, b)
	}
	return int64(b), false, nil
}

// ApplyMemoryLimit sets the soft memory limit --memory-limit asks for (s
// was checked by ParseMemoryLimit) for a log of jobs jobs (−1: not read
// yet, when "auto" is the share of the process's memory alone) and returns
// it in bytes (0: none) and where it came from.
func ApplyMemoryLimit(s string, jobs int) (int64, string) {
	b, auto, err := ParseMemoryLimit(s)
	switch {
	case err != nil:
		return 0, ""
	case !auto && b == 0:
		debug.SetMemoryLimit(math.MaxInt64)
		return 0, "--memory-limit none"
	case !auto:
		debug.SetMemoryLimit(b)
		return b, "--memory-limit"
	}
	if os.Getenv("GOMEMLIMIT") != "" {
		if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
			return l, "GOMEMLIMIT"
		}
		return 0, "GOMEMLIMIT"
	}
	have := ProcessMemory()
	if have <= 0 {
		return 0, "auto: the memory the process may have is unknown"
	}
	l := int64(AutoMemoryShare * float64(have))
	from := fmt.Sprintf("auto: %.0f%% of the %s the process may have", 100*AutoMemoryShare, data.ByteSize(have))
	if need := autoLimit(jobs); jobs >= 0 && need < float64(l) {
		l, from = int64(need), fmt.Sprintf("auto: %.3g × (%s + %d B per job of %d jobs), at least %s (%.3g × a fit of the live peaks measured on 2 cores; --memory-limit sets another)",
			autoSpare, data.ByteSize(autoBaseBytes), autoBytesPerJob, jobs, data.ByteSize(autoMinLimit), autoSpare)
	}
	debug.SetMemoryLimit(l)
	return l, from
}

// ProcessMemory returns the memory this process may have: the least of
// the machine's RAM (MemTotal) and its cgroup's limit (memory.max), 0 when
// neither is known.
func ProcessMemory() int64 {
	have := int64(0)
	limit, _ := data.CgroupMemory()
	for _, v := range []int64{data.MemInfo("MemTotal"), limit} {
		if v > 0 && (have == 0 || v < have) {
			have = v
		}
	}
	return have
}

// returnMemoryJobs is the fewest jobs of a log for which ReturnFreeMemory
// returns the freed heap: below it the heap is small enough to leave to
// the runtime.
const returnMemoryJobs = 1_000_000

// ReturnFreeMemory collects the garbage and returns the free heap to the
// system (debug.FreeOSMemory) when the log has at least returnMemoryJobs
// jobs. The run calls it once, as classify starts: reading a Parquet log
// leaves its decoding buffers and the tuning window's job ids as garbage
// (about 0.45 GB at 10 M jobs), and the runtime, which returns free heap
// to the system only beyond 110 % of its next goal, would otherwise keep
// it resident beside classify's buffers off the heap (0.42 GB), the
// run's peak. One collection of a heap of columns without pointers costs
// tens of milliseconds.
func ReturnFreeMemory(jobs int) {
	if jobs >= returnMemoryJobs {
		debug.FreeOSMemory()
	}
}
