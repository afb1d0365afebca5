//go:build unix

package lp

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestBenchLP is `make bench-lp`: for each size (SCHEDPLAN_BENCH_LP_SIZES,
// default "2000x500,20000x5000", classes × types of randomCOSHH, the
// generator of BenchmarkCOSHH) it times, interleaved in one run,
// schedplan's λ by column generation and in full (in process; CPU seconds
// from getrusage) and the `clp` binary (`clp file.mps -dualsimplex`, its
// CPU seconds from wait4, bounded by SCHEDPLAN_BENCH_LP_TIMEOUT, default
// 300s) on the MPS file the package writes of the same LP, and prints
// |λ_schedplan − λ_clp|. The binary prints its objective to 10 significant
// digits, so the file is also solved by the CLP library (Clp_readMps, full
// precision) for the 1e-9 comparison. Sizes whose full LP has more than
// SCHEDPLAN_BENCH_LP_FULL_MAX columns (default 2e7: the MPS of 20,000 ×
// 5,000 would be ~6 GB) run column generation only, with a note.
//
//	SCHEDPLAN_BENCH_LP=1 go test -run '^TestBenchLP$' -v -timeout 0 ./lp
func TestBenchLP(t *testing.T) {
	if os.Getenv("SCHEDPLAN_BENCH_LP") == "" {
		t.Skip("set SCHEDPLAN_BENCH_LP=1 (make bench-lp)")
	}
	if !CLPAvailable() {
		t.Skip("CLP not available")
	}
	sizes := os.Getenv("SCHEDPLAN_BENCH_LP_SIZES")
	if sizes == "" {
		sizes = "2000x500,20000x5000"
	}
	timeout := 300 * time.Second
	if v := os.Getenv("SCHEDPLAN_BENCH_LP_TIMEOUT"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("SCHEDPLAN_BENCH_LP_TIMEOUT: %v", err)
		}
		timeout = d
	}
	fullMax := 2e7
	if v := os.Getenv("SCHEDPLAN_BENCH_LP_FULL_MAX"); v != "" {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			t.Fatalf("SCHEDPLAN_BENCH_LP_FULL_MAX: %v", err)
		}
		fullMax = f
	}
	clpBin, _ := exec.LookPath("clp")
	for _, size := range strings.Split(sizes, ",") {
		var nc, nt int
		if _, err := fmt.Sscanf(size, "%dx%d", &nc, &nt); err != nil || nc <= 0 || nt <= 0 {
			t.Fatalf("SCHEDPLAN_BENCH_LP_SIZES: %q is not CLASSESxTYPES", size)
		}
		benchLPSize(t, nc, nt, clpBin, timeout, float64(nc)*float64(nt) <= fullMax)
	}
}

// benchLPSize runs one size and prints its lines.
func benchLPSize(t *testing.T, nc, nt int, clpBin string, timeout time.Duration, full bool) {
	p := randomCOSHH(rand.New(rand.NewPCG(uint64(nc), uint64(nt))), nc, nt)
	fmt.Printf("== COSHH LP %d classes × %d types (%d δ columns)\n", nc, nt, nc*nt)
	cg := benchSolve(t, p, ColumnGeneration)
	fmt.Printf("schedplan column generation (λ only): %6.1f CPU-s %6.1f wall-s  λ = %.15g  rounds %d, columns %d, gap to dual bound %.1e; %s\n",
		cg.cpu.Seconds(), cg.wall.Seconds(), cg.sol.Lambda, cg.sol.Rounds, cg.sol.Columns, cg.sol.Bound-cg.sol.Lambda, cg.mem())
	if !full {
		fmt.Printf("full LP and clp binary: not run (%d columns; the MPS file would be ~%.1f GB)\n", nc*nt, float64(nc)*float64(nt)*60/1e9)
		return
	}
	mps := filepath.Join(t.TempDir(), fmt.Sprintf("coshh-%dx%d.mps", nc, nt))
	active := make([]int, nc)
	for i := range active {
		active[i] = i
	}
	m, _ := coshhFullModel(p, active)
	if err := WriteMPS(m, mps); err != nil {
		t.Fatal(err)
	}
	m = nil
	fu := benchSolve(t, p, Full)
	fmt.Printf("schedplan full (λ only):              %6.1f CPU-s %6.1f wall-s  λ = %.15g  |Δλ| cg %.1e; %s\n", fu.cpu.Seconds(), fu.wall.Seconds(), fu.sol.Lambda, math.Abs(cg.sol.Lambda-fu.sol.Lambda), fu.mem())
	if clpBin == "" {
		fmt.Printf("clp binary: not installed (apt-get install coinor-clp); skipped\n")
	} else {
		for _, how := range []string{"-dualsimplex", "-primalsimplex"} {
			lam, cpu, wall, rss, err := runCLPBinary(clpBin, mps, how, timeout)
			if err != nil {
				fmt.Printf("clp %s: %v (%.1f CPU-s %.1f wall-s)\n", how, err, cpu.Seconds(), wall.Seconds())
				continue
			}
			fmt.Printf("clp binary %-15s               %6.1f CPU-s %6.1f wall-s  λ = %.10g (printed to 10 digits)  |Δλ| cg %.1e full %.1e  CPU ratio cg/clp %.2f full/clp %.2f; peak RSS %5.2f GB\n",
				how+":", cpu.Seconds(), wall.Seconds(), lam, math.Abs(cg.sol.Lambda-lam), math.Abs(fu.sol.Lambda-lam), cg.cpu.Seconds()/cpu.Seconds(), fu.cpu.Seconds()/cpu.Seconds(), float64(rss)/1e9)
		}
	}
	c0, w0 := benchCPU(), time.Now()
	ls, err := solveMPSFile(mps)
	if err != nil || ls.Status != Optimal {
		fmt.Printf("CLP library on the MPS file: %v %v\n", err, ls)
		return
	}
	lam := -ls.Objective // the file minimises −λ
	fmt.Printf("CLP library on the MPS file:          %6.1f CPU-s %6.1f wall-s  λ = %.15g  |Δλ| cg %.1e full %.1e\n",
		(benchCPU() - c0).Seconds(), time.Since(w0).Seconds(), lam, math.Abs(cg.sol.Lambda-lam), math.Abs(fu.sol.Lambda-lam))
}

type benchRun struct {
	sol       *COSHHSolution
	cpu, wall time.Duration
	goAlloc   uint64 // bytes the Go heap allocated during the solve
	maxRSS    int64  // the process's peak resident set after it, bytes
}

func benchSolve(t *testing.T, p *COSHHProblem, meth Method) benchRun {
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	a0 := ms.TotalAlloc
	if os.Getenv("SCHEDPLAN_BENCH_LP_TRACE") != "" {
		c0 := benchCPU()
		coshhTrace = func(format string, a ...any) {
			fmt.Printf("  [%6.1f CPU-s] %s\n", (benchCPU() - c0).Seconds(), fmt.Sprintf(format, a...))
		}
		defer func() { coshhTrace = nil }()
	}
	c0, w0 := benchCPU(), time.Now()
	sol, err := SolveCOSHH(p, COSHHOptions{Solver: CLP, Method: meth, LambdaOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	run := benchRun{sol: sol, cpu: benchCPU() - c0, wall: time.Since(w0)}
	runtime.ReadMemStats(&ms)
	run.goAlloc = ms.TotalAlloc - a0
	run.maxRSS = benchMaxRSS()
	return run
}

// mem formats a run's memory figures.
func (r benchRun) mem() string {
	return fmt.Sprintf("Go alloc %5.2f GB, peak RSS so far %5.2f GB", float64(r.goAlloc)/1e9, float64(r.maxRSS)/1e9)
}

// benchMaxRSS is this process's peak resident set (ru_maxrss, KiB on
// Linux), in bytes: it includes CLP's memory, and never falls, so a later
// method's figure covers the earlier ones too.
func benchMaxRSS() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return int64(ru.Maxrss) * 1024
}

// benchCPU is this process's user + system CPU time.
func benchCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

var clpObjective = regexp.MustCompile(`Optimal objective (\S+)`)

// runCLPBinary runs `clp mps how` and returns λ (minus the objective it
// prints), the child's CPU and wall time and its peak resident set (bytes).
func runCLPBinary(bin, mps, how string, timeout time.Duration) (lam float64, cpu, wall time.Duration, rss int64, err error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, mps, how)
	w0 := time.Now()
	out, err := cmd.CombinedOutput()
	wall = time.Since(w0)
	if cmd.ProcessState != nil {
		cpu = cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			rss = int64(ru.Maxrss) * 1024
		}
	}
	if ctx.Err() != nil {
		return 0, cpu, wall, rss, fmt.Errorf("not finished in %v", timeout)
	}
	if err != nil {
		return 0, cpu, wall, rss, fmt.Errorf("%v: %s", err, lastLine(out))
	}
	mt := clpObjective.FindSubmatch(out)
	if mt == nil {
		return 0, cpu, wall, rss, errors.New("no optimal objective in its output: " + lastLine(out))
	}
	v, err := strconv.ParseFloat(string(mt[1]), 64)
	return -v, cpu, wall, rss, err
}

func lastLine(b []byte) string {
	s := strings.TrimSpace(string(b))
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	return s
}
