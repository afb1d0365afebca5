// Package cputime measures the CPU time a process spends, for tests whose
// time bounds must hold on a shared, busy machine: other processes stretch
// the wall time between a cancel and the return of the code that honours
// it, but not the CPU time that code spends in between. A test that asks
// "does this stop soon after a cancel" bounds the CPU time spent after it
// (how much work the code does before it looks at its context), and keeps
// only a generous wall-clock bound against hangs.
package cputime

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Self returns the CPU time (user + system, every thread) this process has
// used so far.
func Self() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return rusage(&ru)
}

// Exited returns the CPU time a finished child used, from its rusage
// (os.ProcessState.SysUsage); 0 when the platform gives none.
func Exited(ps *os.ProcessState) time.Duration {
	if ps == nil {
		return 0
	}
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return rusage(ru)
	}
	return 0
}

func rusage(ru *syscall.Rusage) time.Duration {
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// clockTicks is the kernel's USER_HZ, the unit of /proc/<pid>/stat's CPU
// times: 100 on every Linux architecture Go supports.
const clockTicks = 100

// Of returns the CPU time (user + system) process pid has used so far, from
// /proc/<pid>/stat (Linux), to 1/100 s.
func Of(pid int) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	return parseStat(string(b))
}

// parseStat reads utime and stime, fields 14 and 15 of a /proc/<pid>/stat
// line; the command name (field 2) is in parentheses and may hold spaces,
// so the fields are counted from its closing parenthesis.
func parseStat(s string) (time.Duration, error) {
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, fmt.Errorf("cputime: no command name in %q", s)
	}
	f := strings.Fields(s[i+1:]) // f[0] is field 3 (state)
	if len(f) < 13 {
		return 0, fmt.Errorf("cputime: %d fields after the command name, want at least 13", len(f))
	}
	var ticks int64
	for _, v := range f[11:13] { // fields 14 and 15
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("cputime: %w", err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / clockTicks, nil
}
