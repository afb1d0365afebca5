package pipeline

import (
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/inputs"
)

// synthJobs is cmd/synthlog's log (Poisson arrivals, 20 users, Weibull(0.5)
// bytes) for benchmarks of this package.
func synthJobs(n int, seed uint64) *data.Jobs {
	rng := rand.New(rand.NewPCG(seed, 0x5ca1e))
	weibull := func(scale float64) int64 {
		return int64(min(scale*math.Pow(-math.Log(1-rng.Float64()), 2), 1e15))
	}
	j := &data.Jobs{Source: "synth"}
	for u := 0; u < 20; u++ {
		j.User.Values = append(j.User.Values, "user"+strconv.Itoa(u))
	}
	j.Submit, j.User.Codes = make([]float64, n), make([]int32, n)
	in, sh, out := make([]int64, n), make([]int64, n), make([]int64, n)
	t := 0.0
	for i := 0; i < n; i++ {
		t += rng.ExpFloat64()
		j.Submit[i] = math.Round(t*1000) / 1000
		j.ID.Append("j" + strconv.Itoa(i))
		j.User.Codes[i] = int32(rng.IntN(20))
		in[i] = weibull(1e9)
		if rng.IntN(3) == 0 {
			sh[i] = weibull(1e8)
		}
		out[i] = weibull(1e8)
	}
	j.InputBytes.Values, j.ShuffleBytes.Values, j.OutputBytes.Values = in, sh, out
	return j
}

// heapInUse returns the heap in use after a full collection.
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// BenchmarkResidentPerJob prints the bytes per job resident (HeapInuse
// after GC) of the jobs table as read from Parquet, and of everything
// Prepare keeps for the stages (the table, sizes, simulation jobs, keys).
// Issue 17's target: ≤ 100 B/job for the jobs table at 10 M jobs. The log
// is SCHEDPLAN_SCALE_TRACE when set, else a synthetic one of
// SCHEDPLAN_BENCH_JOBS jobs (default 1,000,000) written to a temporary file.
func BenchmarkResidentPerJob(b *testing.B) {
	path := os.Getenv("SCHEDPLAN_SCALE_TRACE")
	if path == "" {
		n := 1_000_000
		if s := os.Getenv("SCHEDPLAN_BENCH_JOBS"); s != "" {
			var err error
			if n, err = strconv.Atoi(s); err != nil || n < 1 {
				b.Fatalf("SCHEDPLAN_BENCH_JOBS=%q: want a positive integer", s)
			}
		}
		path = filepath.Join(b.TempDir(), "log.parquet")
		j := synthJobs(n, 1)
		if err := data.WriteFileAtomic(path, true, func(w io.Writer) error { return data.Write(w, j, data.FormatParquet) }); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; i < b.N; i++ {
		base := heapInUse()
		j, err := data.Open(path, data.ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		table := heapInUse() - base
		n := float64(j.Len())
		runtime.KeepAlive(j)
		j = nil
		cfg := inputs.DefaultRunConfig()
		cfg.Trace = path
		var in *inputs.Inputs
		peak := peakDuring(func() {
			if in, err = Prepare(cfg); err != nil {
				b.Fatal(err)
			}
		})
		runtime.KeepAlive(in)
		in = nil
		base = heapInUse()
		if in, err = Prepare(cfg); err != nil {
			b.Fatal(err)
		}
		all := heapInUse() - base
		runtime.KeepAlive(in)
		b.ReportMetric(float64(table)/n, "table-B/job")
		b.ReportMetric(float64(all)/n, "prepared-B/job")
		b.ReportMetric(float64(peak)/n, "prepare-peak-B/job")
		b.Logf("%d jobs: jobs table %.1f B/job; Prepare's inputs (table, sizes, simulation jobs, keys) %.1f B/job; Prepare's peak heap %.1f B/job", int(n), float64(table)/n, float64(all)/n, float64(peak)/n)
	}
}

// peakDuring returns the largest heap in use, sampled every 5 ms, while f
// runs, above the heap in use (after GC) before it.
func peakDuring(f func()) uint64 {
	base := heapInUse()
	done := make(chan struct{})
	peak := make(chan uint64)
	go func() {
		var p uint64
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			p = max(p, m.HeapInuse)
			select {
			case <-done:
				peak <- p
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
	}()
	f()
	close(done)
	p := <-peak
	if p < base {
		return 0
	}
	return p - base
}

// BenchmarkDescribePerJob prints the peak heap per job of describe on a
// Parquet log in row groups of 64 Ki jobs: scanned (DescribeLog) and read
// whole (Open, Sizes, Describe: what describe did before). Jobs:
// SCHEDPLAN_BENCH_JOBS (default 1,000,000).
func BenchmarkDescribePerJob(b *testing.B) {
	n := 1_000_000
	if s := os.Getenv("SCHEDPLAN_BENCH_JOBS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil || n < 1 {
			b.Fatalf("SCHEDPLAN_BENCH_JOBS=%q: want a positive integer", s)
		}
	}
	path := filepath.Join(b.TempDir(), "log.parquet")
	j := synthJobs(n, 1)
	if err := data.WriteFileAtomic(path, true, func(w io.Writer) error { return data.WriteParquetGroups(w, j, 1<<16) }); err != nil {
		b.Fatal(err)
	}
	j = nil
	sopt := estimate.DefaultSizeOptions()
	for i := 0; i < b.N; i++ {
		var scanned, whole inputs.Workload
		var err error
		ps := peakDuring(func() { scanned, err = inputs.DescribeLog(inputs.InputOptions{Trace: path}, sopt) })
		if err != nil {
			b.Fatal(err)
		}
		pw := peakDuring(func() {
			jj, err := data.Open(path, data.ReadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			sizes, src, err := estimate.Sizes(jj, sopt)
			if err != nil {
				b.Fatal(err)
			}
			whole = inputs.Describe(jj, sizes, src)
		})
		if !reflect.DeepEqual(scanned, whole) {
			b.Fatal("scanned and whole descriptions differ")
		}
		b.ReportMetric(float64(ps)/float64(n), "scan-peak-B/job")
		b.ReportMetric(float64(pw)/float64(n), "whole-peak-B/job")
		b.Logf("%d jobs, row groups of 65,536: describe's peak heap %.1f B/job scanned, %.1f B/job read whole", n, float64(ps)/float64(n), float64(pw)/float64(n))
	}
}
