package pipeline

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/report"
	"github.com/schedplan/schedplan/pipeline/runreport"
	"github.com/schedplan/schedplan/pipeline/tuner"
	"github.com/schedplan/schedplan/pipeline/validation"
)

// testConfig is the default configuration with a smaller search and fewer
// runs, so the end-to-end tests stay quick.
func testConfig() inputs.RunConfig {
	cfg := inputs.DefaultRunConfig()
	cfg.Budget, cfg.Runs = 120, 3
	return cfg
}

var runOutputs = []string{"schedplan.yaml", "capacity-scheduler.xml", "fair-scheduler.xml", "results.parquet", "classes.parquet", "coshh.parquet", "summary.json", "report.html"}

func runInto(t *testing.T, dir string, cfg inputs.RunConfig, fail func(stage, file string) error) (*runreport.RunResult, *Runner, error) {
	t.Helper()
	in, err := Prepare(cfg)
	if err != nil {
		t.Fatal(err)
	}
	r := &Runner{Dir: dir, Fail: fail}
	res, err := Run(context.Background(), in, r)
	return res, r, err
}

func snapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, n := range runOutputs {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatalf("output %s: %v", n, err)
		}
		out[n] = b
	}
	return out
}

func TestRunEndToEndOnEmbeddedTrace(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	res, _, err := runInto(t, dir, testConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	first := snapshot(t, dir)

	// The emitted configurations obey YARN's rules and load back.
	if err := bundle.CheckCapacitySchedulerXML(first["capacity-scheduler.xml"]); err != nil {
		t.Error(err)
	}
	if err := bundle.CheckFairSchedulerXML(first["fair-scheduler.xml"]); err != nil {
		t.Error(err)
	}
	b, err := bundle.ParseBundle(first["schedplan.yaml"], "schedplan.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if b.LASMQ == nil || b.LASMQ.K != res.Tuned.K || b.Capacity == nil || len(b.Classes) == 0 || b.Trace.Jobs != 5894 {
		t.Errorf("bundle incomplete: %+v", b)
	}
	// results.parquet: one row per validation job and configuration.
	tab, err := data.ReadTable(filepath.Join(dir, "results.parquet"), "")
	if err != nil {
		t.Fatal(err)
	}
	vc, err := validation.ValidatedConfigs(testConfig(), &tuner.TuneReport{Best: res.Tuned, Result: &tuner.TuneResult{FirstGuess: tuner.LASMQParams{K: 1}}}, res.Tuned)
	if err != nil {
		t.Fatal(err)
	}
	configs := len(vc)
	if n := len(tab.Cols[0].([]string)); n != configs*res.Split.ValidJobs {
		t.Errorf("results.parquet has %d rows, want %d configurations × %d jobs", n, configs, res.Split.ValidJobs)
	}
	if !bytes.Contains(first["summary.json"], []byte(`"tuned_policy": "las_mq:`)) {
		t.Error("summary.json lacks the tuned policy")
	}
	// COSHH: tuned, emitted, and simulated from the emitted plan beside
	// FIFO and Fair (rows of the task-level table, coshh.parquet).
	checkCOSHHRun(t, res, b, dir)
	if res.Bounds.SRPTMean <= 0 || res.Lambda <= 0 {
		t.Errorf("bounds %+v, λ %v", res.Bounds, res.Lambda)
	}

	// A second run with nothing changed skips every stage and changes no byte.
	res2, r2, err := runInto(t, dir, testConfig(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(r2.Ran) != 0 {
		t.Errorf("second run re-ran stages %v", r2.Ran)
	}
	for n, b := range snapshot(t, dir) {
		if !bytes.Equal(b, first[n]) {
			t.Errorf("second run changed %s", n)
		}
	}
	// The same inputs and seed into a new directory give the same bytes.
	dir2 := filepath.Join(t.TempDir(), "out2")
	if _, _, err := runInto(t, dir2, testConfig(), nil); err != nil {
		t.Fatal(err)
	}
	for n, b := range snapshot(t, dir2) {
		if !bytes.Equal(b, first[n]) {
			t.Errorf("a fresh run wrote a different %s", n)
		}
	}
	_ = res2

	// The report opens in Chromium with every plot loaded and nothing fetched.
	c := openInBrowser(t, filepath.Join(dir, "report.html"))
	if c.Images < 6 || c.Loaded != c.Images || len(c.External) != 0 {
		t.Errorf("report in Chromium: %v; external requests %v", c, c.External)
	}
	for _, want := range []string{"workload", "classes", "capacity", "tuning", "cv", "bounds", "validation", "coshh"} {
		if !strings.Contains(strings.Join(c.SectionsIDs, " "), want) {
			t.Errorf("report lacks section %s (has %v)", want, c.SectionsIDs)
		}
	}
	// Issue 18: the Pareto front and the fold scores are drawn and shown.
	for _, want := range []string{"Pareto front", "Fold scores"} {
		if !slices.Contains(c.LoadedAlts, want) {
			t.Errorf("report lacks a loaded %q figure (loaded: %v)", want, c.LoadedAlts)
		}
	}
	for _, want := range []string{"Fold scores: improvement over the current scheduler", "Pareto front over the five fold-mean metrics"} {
		if !slices.ContainsFunc(c.Captions, func(s string) bool { return strings.HasPrefix(s, want) }) {
			t.Errorf("report lacks the table %q (captions: %q)", want, c.Captions)
		}
	}
	// Issue 29: the verdict sentence is on the first screen (1,000 px at
	// 1400 px wide), and every plot labels both axes with values.
	if c.DecisionTop < 0 || c.DecisionBottom > 1000 {
		t.Errorf("the verdict sentence spans %v..%v px, want it within the first 1,000 px", c.DecisionTop, c.DecisionBottom)
	}
	if len(c.Plots) != c.Images {
		t.Errorf("%d of %d images are PNG data", len(c.Plots), c.Images)
	}
	for _, p := range c.Plots {
		if x, y, ok := report.TicksOf(p.PNG); !ok || x < 1 || y < 1 {
			t.Errorf("plot %q: labelled ticks x=%d y=%d (chunk found: %v), want at least one on each axis (a heat map of one machine type has one column)", p.Alt, x, y, ok)
		}
	}
	shot := filepath.Join(os.TempDir(), "schedplan-report-screenshot.png")
	if err := os.WriteFile(shot, c.Screenshot, 0o644); err == nil {
		t.Logf("report screenshot: %s (%d bytes); %v", shot, len(c.Screenshot), c)
	}
}

func TestRunInterruptedLeavesNoPartialFileAndResumes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	killed := errors.New("killed mid-way")
	_, _, err := runInto(t, dir, testConfig(), func(stage, file string) error {
		if stage == "validate" {
			return killed
		}
		return nil
	})
	if !errors.Is(err, killed) {
		t.Fatalf("want the injected kill, got %v", err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("partial file left: %s", e.Name())
		}
	}
	for _, n := range []string{"summary.json", "report.html"} {
		if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
			t.Errorf("%s exists although the run was killed before the report stage", n)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, StampDir, "validate.json")); err == nil {
		t.Error("the killed stage left a stamp")
	}
	_, r, err := runInto(t, dir, testConfig(), nil)
	if err != nil {
		t.Fatalf("resume: %v", err)
	}
	if strings.Join(r.Ran, ",") != "validate,report" {
		t.Errorf("resume ran %v, want only validate and report", r.Ran)
	}
	snapshot(t, dir)
}

func TestPrepareRejectsBadInputsBeforeWriting(t *testing.T) {
	dir := t.TempDir()
	badCluster := filepath.Join(dir, "cluster.yaml")
	os.WriteFile(badCluster, []byte("version: 1\nresources: [{name: a, slots: 0, count: 1, exec_rate: 1}]\n"), 0o644)
	noSize := filepath.Join(dir, "nosize.csv")
	os.WriteFile(noSize, []byte("job_id,submit_time,user\na,1,u\nb,2,u\n"), 0o644)
	for _, tc := range []struct {
		name string
		edit func(*inputs.RunConfig)
		want string
	}{
		{"unknown policy", func(c *inputs.RunConfig) { c.Baselines = []string{"fifo", "shortest-first"} }, `unknown policy "shortest-first"`},
		{"bad current", func(c *inputs.RunConfig) { c.Current = "las_mq:k=0" }, "las_mq"},
		{"malformed cluster", func(c *inputs.RunConfig) { c.Cluster = badCluster }, "slots must be positive"},
		{"no size column", func(c *inputs.RunConfig) { c.Trace = noSize }, "no usable size column"},
		{"split", func(c *inputs.RunConfig) { c.Split = 1 }, "split"},
		// 1e308 made sizes or estimates +Inf in the validate stage, after
		// the stages before had written their files.
		{"load factor 1e308", func(c *inputs.RunConfig) { c.LoadFactors = []float64{1, 1e308} }, "load-factors"},
		{"sigma 1e308", func(c *inputs.RunConfig) { c.Sigmas = []float64{0, 1e308} }, "sigmas"},
	} {
		cfg := testConfig()
		tc.edit(&cfg)
		_, err := Prepare(cfg)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}
