package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/schedplan/schedplan/pipeline/inputs"
)

// fastConfig is the default configuration cut down to seconds per run.
func fastConfig(trace string) inputs.RunConfig {
	cfg := inputs.DefaultRunConfig()
	cfg.Trace = trace
	cfg.Budget, cfg.Runs = 16, 2
	cfg.Sigmas = []float64{0, 0.5}
	cfg.LoadFactors = []float64{0.5, 1}
	cfg.Baselines = []string{"fifo", "srpt"}
	return cfg
}

// extremeLogs are the logs of issue 10 ("Report stage panics") that made
// the report stage panic after 12 files were written: every figure input
// degenerate in one way or another.
func extremeLogs() map[string]string {
	logs := map[string]string{}
	var b strings.Builder
	b.WriteString("job_id,submit_time,input_bytes\n")
	for i := range 200 {
		fmt.Fprintf(&b, "j%d,%d,%d\n", i, 10*i, 1000+i*i*1000)
	}
	logs["only input_bytes"] = b.String()
	b.Reset()
	b.WriteString("input_bytes\n")
	for i := range 200 {
		fmt.Fprintf(&b, "%d\n", 1000+i*i*1000)
	}
	logs["only input_bytes column"] = b.String()
	logs["two jobs same"] = "job_id,submit_time,size\na,0,10\nb,0,10\n"
	logs["two jobs bytes"] = "job_id,submit_time,input_bytes\na,0,10\nb,5,20\n"
	b.Reset()
	b.WriteString("job_id,submit_time,size\n")
	for i := range 50 {
		fmt.Fprintf(&b, "j%d,%d,%d\n", i, 1000*i, []int{0, 0, 0, 0, 1}[i%5])
	}
	logs["mostly zero"] = b.String()
	b.Reset()
	b.WriteString("job_id,submit_time,size\n")
	for i := range 50 {
		fmt.Fprintf(&b, "j%d,%d,%d\n", i, 1000*i, 0)
	}
	logs["all zero"] = b.String()
	b.Reset()
	b.WriteString("job_id,submit_time,size\n")
	for i := range 50 {
		fmt.Fprintf(&b, "j%d,%d,1e-300\n", i, 1000*i)
	}
	logs["tiny"] = b.String()
	logs["two jobs"] = "job_id,submit_time,size\na,0,10\nb,5,20\n"
	b.Reset()
	b.WriteString("job_id,submit_time,user,priority,size\n")
	for i := range 60 {
		fmt.Fprintf(&b, "j%d,%d,u%d,%d,%d\n", i, 7*i, i%3, []int64{0, -5, 1<<31 - 1}[i%3], 1+i%9)
	}
	logs["priorities 0 -5 2^31-1"] = b.String()
	b.Reset()
	b.WriteString("job_id,submit_time,size\n")
	for i := range 60 {
		fmt.Fprintf(&b, "j%d,%d,%d\n", i, int64(1e15)+int64(3*i), 1+i%7)
	}
	logs["submit near 1e15"] = b.String()
	b.Reset()
	b.WriteString("job_id,submit_time,size\n")
	t0 := time.Date(2024, 3, 1, 12, 0, 0, 0, time.UTC)
	for i := range 60 {
		fmt.Fprintf(&b, "j%d,%s,%d\n", i, t0.Add(time.Duration(11*i)*time.Second).Format(time.RFC3339), 1+i%5)
	}
	logs["RFC 3339 times"] = b.String()
	b.Reset()
	b.WriteString("job_id,submit_time,input_bytes,shuffle_bytes,output_bytes\n")
	for i := range 60 {
		fmt.Fprintf(&b, "j%d,%d,%d,%d,%d\n", i, 5*i, int64(1<<63-1), int64(1<<63-1), int64(1<<63-1))
	}
	logs["int64-max bytes"] = b.String()
	b.Reset()
	b.WriteString("job_id,submit_time,size\n")
	for i := range 60 {
		fmt.Fprintf(&b, "j%d,%d,%g\n", i, 4*i, 1e305*float64(1+i%3))
	}
	logs["sizes 1e305"] = b.String()
	return logs
}

// TestRunReportSurvivesExtremeLogs: pipeline.Run on each log either
// refuses the input (an error from the stage that checks it) or writes
// report.html and summary.json; it never panics.
func TestRunReportSurvivesExtremeLogs(t *testing.T) {
	if testing.Short() {
		t.Skip("end to end")
	}
	for name, csv := range extremeLogs() {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "log.csv")
			if err := os.WriteFile(path, []byte(csv), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out")
			panicked, err := runCaught(fastConfig(path), out)
			if panicked != nil {
				t.Fatalf("panic: %v", panicked)
			}
			if err != nil {
				if strings.Contains(err.Error(), "stage report") {
					t.Fatalf("the report stage failed: %v", err)
				}
				t.Logf("refused: %v", err)
				return
			}
			html, err := os.ReadFile(filepath.Join(out, "report.html"))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(out, "summary.json")); err != nil {
				t.Fatal(err)
			}
			// Verdict: the task-level Pareto front; tuning: Pareto front,
			// α0 and k sensitivity, fold scores; validation: CDFs, per
			// class, σ, load; COSHH's allocation.
			if n := strings.Count(string(html), "<figure>"); n != 10 {
				t.Errorf("report.html has %d figures, want 10 (drawn or noted)", n)
			}
			if !strings.Contains(string(html), `id="coshh"`) {
				t.Error("report.html has no COSHH section")
			}
		})
	}
}

// runCaught runs Prepare and Run, turning a panic into a value.
func runCaught(cfg inputs.RunConfig, out string) (panicked any, err error) {
	defer func() { panicked = recover() }()
	in, err := Prepare(cfg)
	if err != nil {
		return nil, err
	}
	r := &Runner{Dir: out}
	defer r.Close()
	_, err = Run(context.Background(), in, r)
	return nil, err
}
