package main

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
)

// End to end: the CLI reproduces schedsim's mean sojourn times on the
// 50-job SWIM sample (d/n 4, load 0.9, exact sizes).
func TestSimulateParityCLI(t *testing.T) {
	out, err := runCmd(t, []string{"simulate"}, "-t", "embedded:fb2009-50", "--policy", "fifo,ps,srpt,fsp,las", "--json")
	if err != nil {
		t.Fatal(err, out)
	}
	var rep tasklevel.SimulateReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err, out)
	}
	want := map[string]float64{"fifo": 553.9013261998157, "ps": 161.95307053523496, "srpt": 97.68891090830128, "fsp": 100.74518010262766, "las": 152.3193327738292}
	for _, p := range rep.Policies {
		if w := want[p.Policy]; math.Abs(p.Mean.Response.Mean-w) > 1e-4*w {
			t.Errorf("%s: mean response %v, schedsim %v", p.Policy, p.Mean.Response.Mean, w)
		}
	}
	if len(rep.Policies) != 5 || rep.Jobs != 50 {
		t.Errorf("report: %+v", rep)
	}
}

func TestSimulateRunsDeterministic(t *testing.T) {
	args := []string{"-t", "embedded:fb2009-50", "--policy", "srpt,fsp+ps,las_mq:k=3,alpha0=1,p=10", "--sigma", "0.5", "--runs", "5", "--seed", "7", "--json"}
	a, err := runCmd(t, []string{"simulate"}, append(args, "--workers", "1")...)
	if err != nil {
		t.Fatal(err, a)
	}
	b, err := runCmd(t, []string{"simulate"}, append(args, "--workers", "3")...)
	if err != nil {
		t.Fatal(err, b)
	}
	if a != b {
		t.Error("results depend on the number of workers")
	}
	c, _ := runCmd(t, []string{"simulate"}, append(args[:len(args)-3], "--seed", "8", "--json")...)
	if a == c {
		t.Error("different seeds give the same results")
	}
	var rep tasklevel.SimulateReport
	if err := json.Unmarshal([]byte(a), &rep); err != nil {
		t.Fatal(err)
	}
	if p := rep.Policies[0]; p.Runs != 5 || !(p.MeanResponse.Min <= p.MeanResponse.P50 && p.MeanResponse.P50 <= p.MeanResponse.Max) || p.MeanResponse.Min == p.MeanResponse.Max {
		t.Errorf("spread across runs: %+v", p)
	}
}

func TestSimulateText(t *testing.T) {
	out, err := runCmd(t, []string{"simulate"}, "-t", "embedded:fb2009-50", "--policy", "ps,fsp+ps", "--uniform", "0.4", "--runs", "3")
	if err != nil {
		t.Fatal(err, out)
	}
	for _, s := range []string{"uniform(I=0.4)", "3 runs", "fsp+ps", "mean resp", "median", "missed"} {
		if !strings.Contains(out, s) {
			t.Errorf("output lacks %q:\n%s", s, out)
		}
	}
}

func TestSimulateOut(t *testing.T) {
	path := filepath.Join(t.TempDir(), "res.parquet")
	if out, err := runCmd(t, []string{"simulate"}, "-t", "embedded:fb2009-50", "--policy", "ps,srpt", "--sigma", "1", "--runs", "2", "--out", path); err != nil {
		t.Fatal(err, out)
	}
	tab, err := data.ReadTable(path, "")
	if err != nil {
		t.Fatal(err)
	}
	if tab.Len() != 50*2*2 {
		t.Errorf("%d rows, want 200", tab.Len())
	}
	ids := tab.Col("job_id").([]string)
	if ids[0] != "job0" || ids[49] != "job49" {
		t.Errorf("job ids %q … %q", ids[0], ids[49])
	}
	if _, err := runCmd(t, []string{"simulate"}, "-t", "embedded:fb2009-50", "--policy", "ps", "--out", path); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("existing --out without --force: %v", err)
	}
	if _, err := runCmd(t, []string{"simulate"}, "-t", "embedded:fb2009-50", "--policy", "ps", "--out", path, "--force"); err != nil {
		t.Errorf("--force: %v", err)
	}
}

func TestSimulateBadFlags(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--policy", "nope"}, "known: fifo"},
		{[]string{"--policy", "las_mq:k=0"}, "las_mq"},
		{[]string{"--sigma", "0.5", "--uniform", "0.2"}, "exclusive"},
		{[]string{"--uniform", "2"}, "[0, 1]"},
		{[]string{"--sigma", "-1"}, "sigma"},
		{[]string{"--runs", "0"}, "--runs"},
		{[]string{"--capacity", "-1"}, "--capacity"},
		{[]string{"--capacity", "NaN"}, "--capacity"},
		{[]string{"--out", "x.unknown"}, "--out"},
	} {
		_, err := runCmd(t, []string{"simulate"}, append([]string{"-t", "embedded:fb2009-50"}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: error %v, want it to mention %q", tc.args, err, tc.want)
		}
	}
}

// Sharded sweeps merged equal an unsharded sweep, byte for byte.
func TestSweepShardMerge(t *testing.T) {
	dir := t.TempDir()
	common := []string{"-t", "embedded:fb2009-50", "--sigmas", "0,0.5,1", "--loads", "0.5,0.9", "--policy", "srpt,fsp+ps", "--runs", "3"}
	full := filepath.Join(dir, "full.parquet")
	if out, err := runCmd(t, []string{"sweep"}, append(common, "--out", full)...); err != nil {
		t.Fatal(err, out)
	}
	var parts []string
	for i := 0; i < 4; i++ {
		p := filepath.Join(dir, "part-"+string(rune('0'+i))+".parquet")
		if out, err := runCmd(t, []string{"sweep"}, append(common, "--shard", string(rune('0'+i))+"/4", "--workers", "1", "--out", p)...); err != nil {
			t.Fatal(err, out)
		}
		parts = append(parts, p)
	}
	merged := filepath.Join(dir, "merged.parquet")
	if out, err := runCmd(t, []string{"sweep", "merge"}, append([]string{"--out", merged}, parts...)...); err != nil {
		t.Fatal(err, out)
	}
	a, _ := os.ReadFile(full)
	b, _ := os.ReadFile(merged)
	if !bytes.Equal(a, b) {
		t.Error("merged shards differ from the unsharded sweep")
	}
	tab, err := data.ReadTable(full, "")
	if err != nil {
		t.Fatal(err)
	}
	if tab.Len() != 3*2*3*2 {
		t.Errorf("%d rows, want 36", tab.Len())
	}
	if _, err := runCmd(t, []string{"sweep", "merge"}, "--out", filepath.Join(dir, "dup.parquet"), parts[0], parts[0]); err == nil || !strings.Contains(err.Error(), "given twice") {
		t.Errorf("overlapping parts: %v", err)
	}
	for _, bad := range [][]string{{"--shard", "4/4"}, {"--shard", "x"}, {"--experiment", "nope"}, {"--sigmas", "-1"}} {
		if _, err := runCmd(t, []string{"sweep"}, append([]string{"-t", "embedded:fb2009-50", "--out", filepath.Join(dir, "bad.parquet")}, bad...)...); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}

// simulate's help says what a task-level slowdown and missed deadline are
// (a bounded slowdown over the time alone; later than under the reference
// scheduler), not only the fluid meaning.
func TestSimulateHelpTaskMetrics(t *testing.T) {
	out, err := runCmd(t, []string{"simulate"}, "--help")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"max(time alone, min(response, 1 s))", "only job on the empty cluster", "than under the reference scheduler", "ps_deadline"} {
		if !strings.Contains(out, want) {
			t.Errorf("simulate --help does not say %q", want)
		}
	}
}
