package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
)

// simJobsKeyOf is the key Prepare stamped the stages with before it read
// the columns: the SHA-256 of the capacity and every simulation job's
// arrival, size, estimate, weight and cap, one float64 at a time.
func simJobsKeyOf(jobs []sim.Job, capacity float64) []byte {
	h := sha256.New()
	var b [8]byte
	put := func(v float64) {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
		h.Write(b[:])
	}
	put(capacity)
	for _, j := range jobs {
		put(j.Arrival)
		put(j.Size)
		put(j.Estimate)
		put(j.Weight)
		put(j.Cap)
	}
	return h.Sum(nil)
}

// TestPrepareFromColumns checks that Prepare builds no simulation job
// (SimJobs nil, every window built from the columns) and that what it
// computes from the columns — the split, the offered load, the stages'
// JobsKey, the clock and windows checks — is the bits of the whole jobs',
// on the embedded trace and on one with users weighted by the spec.
func TestPrepareFromColumns(t *testing.T) {
	dir := t.TempDir()
	weighted := testConfig()
	weighted.Trace, weighted.Cluster = filepath.Join(dir, "log.parquet"), filepath.Join(dir, "cluster.yaml")
	if err := data.WriteFileAtomic(weighted.Trace, true, func(w io.Writer) error { return data.Write(w, synthJobs(3000, 2), data.FormatParquet) }); err != nil {
		t.Fatal(err)
	}
	spec := "version: 1\nresources:\n  - {name: a, count: 4, slots: 4, exec_rate: 1}\nusers:\n  - {name: user3, weight: 2.5}\n  - {name: user7, priority: 3}\n"
	if err := os.WriteFile(weighted.Cluster, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, cfg := range []inputs.RunConfig{testConfig(), weighted} {
		in, err := Prepare(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if in.SimJobs != nil || in.NumSimJobs() != in.Jobs.Len() {
			t.Fatalf("%s: Prepare left SimJobs %d jobs, NumSimJobs %d; want nil and %d", cfg.Trace, len(in.SimJobs), in.NumSimJobs(), in.Jobs.Len())
		}
		key, load, split := in.JobsKey, in.OfferedLoad, in.Split
		if err := in.HoldSimJobs(); err != nil {
			t.Fatal(err)
		}
		jobs := in.SimJobs
		if want := simJobsKeyOf(jobs, in.Capacity); !bytes.Equal(key, want) {
			t.Errorf("%s: JobsKey %x, the whole jobs' %x", cfg.Trace, key, want)
		}
		if got, err := in.SimJobsKey(); err != nil || !bytes.Equal(got, key) {
			t.Errorf("%s: SimJobsKey of the held jobs %x (%v), of the columns %x", cfg.Trace, got, err, key)
		}
		if want := experiment.OfferedLoad(jobs, in.Capacity); math.Float64bits(load) != math.Float64bits(want) {
			t.Errorf("%s: offered load %v, the whole jobs' %v", cfg.Trace, load, want)
		}
		if want, err := experiment.SplitByTime(jobs, cfg.Split); err != nil || want != split {
			t.Errorf("%s: split %+v, the whole jobs' %+v (%v)", cfg.Trace, split, want, err)
		}
		for _, c := range []float64{in.Capacity, 1e-320, 1e-12} {
			a, b := tasklevel.CheckClock(jobs, c, "given"), tasklevel.CheckClockColumns(in.Jobs.Submit, in.Sizes, c, "given")
			if (a == nil) != (b == nil) || a != nil && a.Error() != b.Error() {
				t.Errorf("%s: at capacity %v CheckClock says %v, from the columns %v", cfg.Trace, c, a, b)
			}
		}
	}
}

// TestSplitByArrivalsTies checks the split from the submit column against
// SplitByTime's on arrivals with ties at the split point and every error.
func TestSplitByArrivalsTies(t *testing.T) {
	for _, c := range []struct {
		arr  []float64
		frac float64
	}{{[]float64{0, 1, 2, 3}, 0.5}, {[]float64{0, 1, 1, 1, 2}, 0.6}, {[]float64{1, 1, 1}, 0.5}, {[]float64{0}, 0.5}, {[]float64{0, 1}, 1}} {
		jobs := make([]sim.Job, len(c.arr))
		for i, a := range c.arr {
			jobs[i].Arrival = a
		}
		want, werr := experiment.SplitByTime(jobs, c.frac)
		got, gerr := experiment.SplitByArrivals(c.arr, c.frac)
		if got != want || (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
			t.Errorf("%v at %v: %+v (%v), SplitByTime %+v (%v)", c.arr, c.frac, got, gerr, want, werr)
		}
	}
}

// TestPrepareAllocatesNoSimJobs checks that Prepare, beyond reading and
// sizing the log, allocates less than a simulation job (64 B) per job:
// the old code built the whole log's jobs (0.6 GB at 10 M) to take the
// split, the load and the key from them.
func TestPrepareAllocatesNoSimJobs(t *testing.T) {
	const n = 200_000
	path := filepath.Join(t.TempDir(), "log.parquet")
	if err := data.WriteFileAtomic(path, true, func(w io.Writer) error { return data.Write(w, synthJobs(n, 1), data.FormatParquet) }); err != nil {
		t.Fatal(err)
	}
	cfg := inputs.DefaultRunConfig()
	cfg.Trace = path
	alloc := func(f func()) uint64 {
		var a, b runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&a)
		f()
		runtime.ReadMemStats(&b)
		return b.TotalAlloc - a.TotalAlloc
	}
	read := alloc(func() {
		in, err := inputs.ReadInput(inputs.InputOptions{Trace: path})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := estimate.Sizes(in.Jobs, cfg.Sizes); err != nil {
			t.Fatal(err)
		}
	})
	var in *inputs.Inputs
	prep := alloc(func() {
		var err error
		if in, err = Prepare(cfg); err != nil {
			t.Fatal(err)
		}
	})
	if in.Jobs.Len() != n {
		t.Fatalf("%d jobs read, want %d", in.Jobs.Len(), n)
	}
	extra := float64(prep) - float64(read)
	t.Logf("%d jobs: reading and sizing %.1f B/job, Prepare %.1f B/job, the difference %.1f B/job", n, float64(read)/n, float64(prep)/n, extra/n)
	if extra/n >= 64 {
		t.Errorf("Prepare allocates %.1f B a job beyond reading and sizing the log: a whole simulation job (64 B) or more", extra/n)
	}
}
