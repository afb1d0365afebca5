package data

import (
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// BenchmarkParquetMillion writes a 1,000,000-job Parquet log with every
// column, then reads it back with ReadFile. It reports read jobs/s and the
// heap bytes per job that the table holds after a GC. Run on one core with
//
//	go test ./data -run '^$' -bench ParquetMillion -benchtime 5x -cpu 1
func BenchmarkParquetMillion(b *testing.B) {
	benchmarkMillion(b, FormatParquet, false)
}

// BenchmarkParquetMillionNulls is BenchmarkParquetMillion with one value in
// ten of each optional column null.
func BenchmarkParquetMillionNulls(b *testing.B) {
	benchmarkMillion(b, FormatParquet, true)
}

// BenchmarkArrowMillion reads the same table from an Arrow IPC file.
func BenchmarkArrowMillion(b *testing.B) {
	benchmarkMillion(b, FormatArrow, false)
}

func benchmarkMillion(b *testing.B, f Format, nulls bool) {
	const n = 1_000_000
	j := randomJobs(rand.New(rand.NewPCG(1, 2)), n, nulls)
	path := filepath.Join(b.TempDir(), "jobs."+string(f))
	t0 := time.Now()
	if err := WriteFileAtomic(path, false, func(w io.Writer) error { return Write(w, j, f) }); err != nil {
		b.Fatal(err)
	}
	write := time.Since(t0)
	st, _ := os.Stat(path)
	j = nil

	var held float64
	var cpu time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		b.StartTimer()
		c0 := cpuTime()
		got, err := ReadFile(path, ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		cpu += cpuTime() - c0
		b.StopTimer()
		if got.Len() != n {
			b.Fatalf("read %d jobs", got.Len())
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		held = float64(int64(after.HeapAlloc)-int64(before.HeapAlloc)) / n
		runtime.KeepAlive(got)
		b.StartTimer()
	}
	b.StopTimer()
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "jobs/s")
	b.ReportMetric(held, "heap-B/job")
	// Jobs per second of this process's CPU time: robust to other processes
	// competing for the cores (with -cpu 1 it equals the wall-clock rate on
	// an idle machine, GC included).
	b.ReportMetric(float64(n)*float64(b.N)/cpu.Seconds(), "jobs/cpu-s")
	b.ReportMetric(float64(n)/write.Seconds(), "write-jobs/s")
	b.ReportMetric(float64(st.Size())/n, "file-B/job")
}

// cpuTime returns the user+system CPU time the process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkDuplicateIDs measures the duplicate-id check on a million ids.
func BenchmarkDuplicateIDs(b *testing.B) {
	var s Strings
	for i := 0; i < 1_000_000; i++ {
		s.Append("job_" + strconv.Itoa(i))
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if d := duplicateIDs(&s, 5); len(d) != 0 {
			b.Fatal(d)
		}
	}
	b.ReportMetric(float64(s.Len())*float64(b.N)/b.Elapsed().Seconds(), "ids/s")
}
