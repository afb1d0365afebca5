// Package sysmem tells how much memory this process may use (the system's
// available memory, its cgroup's limit, GOMEMLIMIT), so that readers refuse
// an input that would not fit before they read it, and formats byte sizes.
//
// It imports nothing of schedplan.
package sysmem

import (
	"fmt"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// Check returns an error when need bytes, for reading what, exceed the
// memory available.
func Check(need int64, what string) error {
	avail := Available()
	if avail < 0 || need <= avail {
		return nil
	}
	return fmt.Errorf("reading %s needs about %s of memory, more than the %s available", what, ByteSize(need), ByteSize(avail))
}

// Available returns how many bytes of memory this process may still use,
// -1 when unknown: the least of the system's available memory
// (MemAvailable in /proc/meminfo), the cgroup's limit less its use, and
// GOMEMLIMIT less the memory the Go runtime holds. A variable so that tests
// can change it.
var Available = func() int64 {
	avail := int64(-1)
	less := func(v int64) {
		if v >= 0 && (avail < 0 || v < avail) {
			avail = v
		}
	}
	less(MemInfo("MemAvailable"))
	if limit, used := CgroupMemory(); limit >= 0 && used >= 0 {
		less(max(limit-used, 0))
	}
	if limit := debug.SetMemoryLimit(-1); limit != math.MaxInt64 {
		less(limit)
	}
	return avail
}

// MemInfo returns a field of /proc/meminfo ("MemTotal", "MemAvailable")
// in bytes, −1 when unknown.
func MemInfo(field string) int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return -1
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			if kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64); err == nil {
				return kb << 10
			}
		}
	}
	return -1
}

// CgroupMemory returns this process's cgroup (v2) memory limit and use in
// bytes, −1 for one that is unknown or, for the limit, "max" (none).
func CgroupMemory() (limit, used int64) {
	readInt := func(p string) int64 {
		b, err := os.ReadFile(p)
		if err != nil {
			return -1
		}
		v, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64)
		if err != nil {
			return -1
		}
		return v
	}
	return readInt("/sys/fs/cgroup/memory.max"), readInt("/sys/fs/cgroup/memory.current")
}

// ByteSize formats n bytes in binary units.
func ByteSize(n int64) string {
	const units = "KMGTPE"
	if n < 1024 {
		return strconv.FormatInt(n, 10) + " B"
	}
	v, k := float64(n)/1024, 0
	for v >= 1024 && k < len(units)-1 {
		v /= 1024
		k++
	}
	return strconv.FormatFloat(v, 'g', 4, 64) + " " + units[k:k+1] + "iB"
}
