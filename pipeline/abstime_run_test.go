package pipeline

import (
	"context"
	"fmt"
	"github.com/schedplan/schedplan/pipeline/runreport"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A log with Unix-epoch submit times gives the same run as the same log
// starting at 0 (issue 10: "Logs with Unix-epoch submit times break run";
// at 1.7e9 s a float64 resolves 2.4e-7 s, and the deadline check allowed
// 1e-9 × 1.7e9 = 1.7 s of lateness, hiding misses). Arrivals are multiples
// of 1/8 s, so both logs hold the same instance exactly.
func TestRunSameResultsAtEpochTimes(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end")
	}
	rng := rand.New(rand.NewPCG(5, 5))
	const n = 3000
	arrival, size := make([]float64, n), make([]float64, n)
	a := 0.0
	for i := range arrival {
		a += math.Round(rng.ExpFloat64()*3.7*8) / 8 // load ~0.9 at capacity 1
		arrival[i], size[i] = a, math.Exp(rng.NormFloat64()*1.5)
	}
	run := func(off float64) *runreport.RunResult {
		var b strings.Builder
		b.WriteString("job_id,submit_time,user,size\n")
		for i := range arrival {
			fmt.Fprintf(&b, "j%d,%.3f,u%d,%.9g\n", i, arrival[i]+off, i%5, size[i])
		}
		dir := t.TempDir()
		path := filepath.Join(dir, "log.csv")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg := fastConfig(path)
		cfg.Baselines = []string{"fifo", "srpt", "fsp+ps", "pfsp", "las"}
		in, err := Prepare(cfg)
		if err != nil {
			t.Fatal(err)
		}
		r := &Runner{Dir: filepath.Join(dir, "out")}
		defer r.Close()
		res, err := Run(context.Background(), in, r)
		if err != nil {
			t.Fatalf("offset %g: %v", off, err)
		}
		return res
	}
	want := run(0)
	for _, off := range []float64{1e7, 1.7e9} {
		got := run(off)
		if len(got.Validation) != len(want.Validation) || got.TunedSpec != want.TunedSpec {
			t.Fatalf("offset %g: tuned %s and %d rows, at 0 %s and %d rows", off, got.TunedSpec, len(got.Validation), want.TunedSpec, len(want.Validation))
		}
		for i, w := range want.Validation {
			g := got.Validation[i]
			if g.Missed != w.Missed || !near(g.Mean, w.Mean) || !near(g.P99, w.P99) || !near(g.MeanSlowdown, w.MeanSlowdown) {
				t.Errorf("offset %g, %s σ=%v: mean %v p99 %v slowdown %v missed %v; at 0: %v %v %v %v", off, w.Name, w.Sigma, g.Mean, g.P99, g.MeanSlowdown, g.Missed, w.Mean, w.P99, w.MeanSlowdown, w.Missed)
			}
		}
	}
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b)) }
