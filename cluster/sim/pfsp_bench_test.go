package sim

import (
	"encoding/binary"
	"fmt"
	"math"
	"os"
	"strconv"
	"syscall"
	"testing"

	"github.com/schedplan/schedplan/estimate"
)

// BenchmarkPFSPScale runs PFSP on n synthetic jobs (Weibull(0.5) sizes,
// Poisson arrivals, σ = 0.5 log-normal estimates) at offered loads 0.9, 1.0
// and 1.2 and reports ns/event and seconds per run, to show how the cost
// per event grows with n, overload included (validation's load curves run
// every policy at load factors that push the offered load past 1).
// impl=tree is PFSP; impl=scan is the previous implementation (pfspScan),
// whose cost per event grows about linearly in n under overload: its
// load=1.2/n=1000000 case (more than 9 minutes) is skipped unless
// PFSP_SCAN_LONG is set, and the n=10000000 cases unless PFSP_SCALE_10M
// is. cpu-ns/event is the process's CPU time per event (steadier than
// ns/event, wall time, on a shared machine).
// Run: go test ./cluster/sim -run '^$' -bench PFSPScale -benchtime 1x -timeout 60m
func BenchmarkPFSPScale(b *testing.B) {
	for _, impl := range []string{"tree", "scan"} {
		for _, load := range []float64{0.9, 1.0, 1.2} {
			for _, n := range []int{10_000, 100_000, 1_000_000, 10_000_000} {
				b.Run(fmt.Sprintf("impl=%s/load=%.1f/n=%d", impl, load, n), func(b *testing.B) {
					benchPFSP(b, impl, load, n, 0.5)
				})
			}
		}
	}
}

// BenchmarkPFSPSigma runs PFSP on 1M synthetic jobs as BenchmarkPFSPScale
// does, at load 0.9 and 1.2, with log-normal estimation errors of σ = 0,
// 0.25, 0.5 and 1: with large errors many jobs finish for real long
// before they do in the virtual PS (the estimates' mean is e^{σ²/2} times
// the sizes', so at σ = 1 the virtual PS is overloaded and holds a growing
// number of jobs done for real).
// Run: go test ./cluster/sim -run '^$' -bench PFSPSigma -benchtime 1x
func BenchmarkPFSPSigma(b *testing.B) {
	for _, load := range []float64{0.9, 1.2} {
		for _, sigma := range []float64{0, 0.25, 0.5, 1} {
			b.Run(fmt.Sprintf("load=%.1f/sigma=%g", load, sigma), func(b *testing.B) {
				benchPFSP(b, "tree", load, 1_000_000, sigma)
			})
		}
	}
}

// benchPFSP runs one case of BenchmarkPFSPScale.
func benchPFSP(b *testing.B, impl string, load float64, n int, sigma float64) {
	if impl == "scan" && load > 1 && n >= 1_000_000 && os.Getenv("PFSP_SCAN_LONG") == "" {
		b.Skip("more than 9 minutes; set PFSP_SCAN_LONG to run")
	}
	if n > 1_000_000 && os.Getenv("PFSP_SCALE_10M") == "" {
		b.Skip("10M jobs (about 1 GB, minutes): set PFSP_SCALE_10M to run")
	}
	jobs := synthetic(n, load, sigma, 1)
	var sim Simulator
	var p Policy = &PFSP{}
	if impl == "scan" {
		p = &pfspScan{}
	}
	events := 0
	cpu0 := cpuSeconds()
	b.ResetTimer()
	for b.Loop() {
		r, err := sim.Run(jobs, 1, p)
		if err != nil {
			b.Fatal(err)
		}
		events = r.Events
	}
	sec := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(events), "events/run")
	b.ReportMetric(sec*1e9/float64(events), "ns/event")
	b.ReportMetric((cpuSeconds()-cpu0)/float64(b.N)*1e9/float64(events), "cpu-ns/event")
	b.ReportMetric(sec, "s/run")
}

// cpuSeconds returns the process's user and system CPU time so far, in
// seconds: on a shared machine CPU time per event is steadier than wall
// time (it counts only this process's work, slowed only by cache sharing).
func cpuSeconds() float64 {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return float64(u.Utime.Nano()+u.Stime.Nano()) / 1e9
}

// BenchmarkPFSPFSPWindow runs PFSP and FSP+PS as the validate stage runs
// them on a window of jobs: exact estimates, log-normal estimation errors
// (σ = 0.25, 0.5, 1, as a column: RunEstimates) and arrivals compressed
// to a load factor of 1.2. The window is 300,000 synthetic jobs
// (Weibull(0.5) sizes, Poisson arrivals, load 0.9), or the jobs of the
// file PFSP_BENCH_JOBS names: 48 bytes a job, little-endian float64s
// Arrival, Size, Estimate, Weight, Containers, Cap (capacity 1).
// Run: go test ./cluster/sim -run '^$' -bench PFSPFSPWindow -cpu 1
func BenchmarkPFSPFSPWindow(b *testing.B) {
	jobs := benchWindowJobs(b)
	sizes := make([]float64, len(jobs))
	for i, j := range jobs {
		sizes[i] = j.Size
	}
	fast := append([]Job(nil), jobs...)
	for i := range fast {
		fast[i].Arrival /= 1.2
	}
	for _, spec := range []string{"pfsp", "fsp+ps"} {
		for _, sigma := range []float64{0, 0.25, 0.5, 1} {
			est := sizes
			if sigma > 0 {
				est = estimate.ErrorModel{Kind: estimate.LogNormal, Sigma: sigma}.Apply(sizes, estimate.RunRand(1, 0), nil)
			}
			b.Run(fmt.Sprintf("%s/sigma=%g", spec, sigma), func(b *testing.B) { benchWindow(b, spec, jobs, est) })
		}
		b.Run(spec+"/load=1.2", func(b *testing.B) { benchWindow(b, spec, fast, sizes) })
	}
}

// benchWindow runs one case of BenchmarkPFSPFSPWindow and reports the CPU
// time per run.
func benchWindow(b *testing.B, spec string, jobs []Job, est []float64) {
	var s Simulator
	p := mustPolicy(b, spec)
	cpu0 := cpuSeconds()
	for b.Loop() {
		if _, err := s.RunEstimates(jobs, est, 1, p); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((cpuSeconds()-cpu0)/float64(b.N)*1e3, "cpu-ms/run")
}

// benchWindowJobs returns BenchmarkPFSPFSPWindow's jobs.
func benchWindowJobs(b testing.TB) []Job {
	path := os.Getenv("PFSP_BENCH_JOBS")
	if path == "" {
		n := 300_000
		if v, err := strconv.Atoi(os.Getenv("PFSP_BENCH_N")); err == nil && v > 0 {
			n = v
		}
		return synthetic(n, 0.9, 0, 5)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	if len(raw)%48 != 0 {
		b.Fatalf("%s: %d bytes, not a multiple of 48", path, len(raw))
	}
	jobs := make([]Job, len(raw)/48)
	f := func(k int) float64 { return math.Float64frombits(binary.LittleEndian.Uint64(raw[8*k:])) }
	for i := range jobs {
		k := 6 * i
		jobs[i] = Job{Arrival: f(k), Size: f(k + 1), Estimate: f(k + 2), Weight: f(k + 3), Containers: f(k + 4), Cap: f(k + 5)}
	}
	return jobs
}
