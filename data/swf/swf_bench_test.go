package swf

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/schedplan/schedplan/data"
)

// BenchmarkConvertSWF10M converts a 10,000,000-line SWF log to Parquet:
// ReadLog (streamed, validated, sorted) then WriteFileAtomic. It reports
// lines/s over the whole conversion and the process's peak resident set
// (VmHWM from /proc/self/status) in MiB. The bar is ≥ 1 M lines/s on
// one core and ≤ 1 GiB peak RSS:
//
//	go test ./data -run '^$' -bench ConvertSWF10M -benchtime 1x -cpu 1
//
// (one iteration: the peak RSS is the process's, so later iterations would
// only repeat it). Like `schedplan convert` (SoftMemoryLimit), it runs under
// a soft memory limit of 900 MiB, so that Go's collector does not let the
// heap grow to twice the table before collecting. It also reports lines per
// CPU-second (user + system time of the process), which the shared machine's
// load does not distort.
func BenchmarkConvertSWF10M(b *testing.B) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(data.SoftMemoryLimit))
	lines := 10_000_000
	if testing.Short() {
		lines = 1_000_000
	}
	dir := b.TempDir()
	in := filepath.Join(dir, "big.swf")
	writeSyntheticSWF(b, in, lines)
	runtime.GC()
	b.ResetTimer()
	var elapsed, cpu time.Duration
	for it := 0; it < b.N; it++ {
		t0, c0 := time.Now(), cpuTime()
		lg, err := data.ReadLog(in, data.ReadOptions{Format: Name})
		if err != nil {
			b.Fatal(err)
		}
		out := filepath.Join(dir, "jobs.parquet")
		if err := data.WriteFileAtomic(out, true, func(w io.Writer) error { return data.Write(w, lg.Jobs, data.FormatParquet) }); err != nil {
			b.Fatal(err)
		}
		elapsed += time.Since(t0)
		cpu += cpuTime() - c0
		if lg.Jobs.Len() != lines {
			b.Fatalf("%d jobs, want %d", lg.Jobs.Len(), lines)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(lines)*float64(b.N)/elapsed.Seconds(), "lines/s")
	b.ReportMetric(float64(lines)*float64(b.N)/cpu.Seconds(), "lines/cpu-s")
	b.ReportMetric(float64(peakRSS(b))/(1<<20), "peak-RSS-MiB")
}

// writeSyntheticSWF writes n SWF job lines with realistic values (a
// header, then jobs one to three seconds apart).
func writeSyntheticSWF(tb testing.TB, path string, n int) {
	f, err := os.Create(path)
	if err != nil {
		tb.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	w.WriteString("; Version: 2.2\n; MaxProcs: 1024\n")
	var line []byte
	t := int64(0)
	x := uint64(88172645463325252)
	for i := 1; i <= n; i++ {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		t += int64(1 + x%3)
		run := int64(10 + x%3600)
		procs := int64(1 << (x >> 20 % 8))
		line = line[:0]
		line = strconv.AppendInt(line, int64(i), 10)
		for _, v := range []int64{t, int64(x >> 30 % 100), run, procs, run - 1, -1, procs, 2 * run, -1, 1, int64(x >> 40 % 500), int64(x >> 50 % 20), -1, int64(1 + x>>55%3), 1, -1, -1} {
			line = append(line, ' ')
			line = strconv.AppendInt(line, v, 10)
		}
		line = append(line, '\n')
		w.Write(line)
	}
	if err := w.Flush(); err != nil {
		tb.Fatal(err)
	}
	if err := f.Close(); err != nil {
		tb.Fatal(err)
	}
}

// peakRSS returns the process's peak resident set size in bytes (VmHWM),
// or 0 where /proc is not available.
func peakRSS(tb testing.TB) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			f := strings.Fields(l)
			if len(f) >= 2 {
				kb, _ := strconv.ParseInt(f[1], 10, 64)
				return kb << 10
			}
		}
	}
	return 0
}

// cpuTime returns the CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
