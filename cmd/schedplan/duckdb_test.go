package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// duckdbModules returns the node_modules folder holding @duckdb/node-api
// ($SCHEDPLAN_NODE_MODULES, else ~/.cache/schedplan-node/node_modules, where
// scripts/deps.sh installs it), or "" when it or node is missing.
func duckdbModules() string {
	if _, err := exec.LookPath("node"); err != nil {
		return ""
	}
	dir := os.Getenv("SCHEDPLAN_NODE_MODULES")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(home, ".cache", "schedplan-node", "node_modules")
	}
	if _, err := os.Stat(filepath.Join(dir, "@duckdb", "node-api", "package.json")); err != nil {
		return ""
	}
	return dir
}

// writeObservedLog writes a CSV log of n jobs with observed start and
// finish times (so that run writes calibration.parquet) and some jobs of
// size 0 (whose slowdown does not exist).
func writeObservedLog(t *testing.T, n int) string {
	t.Helper()
	r := rand.New(rand.NewPCG(7, 26))
	var b strings.Builder
	b.WriteString("job_id,submit_time,start_time,finish_time,user,size\n")
	at := 0.0
	for i := range n {
		at += r.ExpFloat64() * 20
		size := r.ExpFloat64() * 50
		if i%97 == 5 {
			size = 0
		}
		start := at + r.Float64()*5
		fmt.Fprintf(&b, "j%d,%.3f,%.3f,%.3f,u%d,%.4f\n", i, at, start, start+size/4+1, i%5, size)
	}
	p := filepath.Join(t.TempDir(), "observed.csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// DuckDB, a Parquet reader independent of the one that wrote them, computes
// avg() over every numeric column of every Parquet file `schedplan run`
// writes without a NaN: a value that does not exist (the slowdown of a job
// of size 0, a fluid row's simulated wait, an inapplicable class mean) is
// NULL, not NaN (issue 26). Skipped unless node and @duckdb/node-api are
// installed (scripts/deps.sh --duckdb).
func TestParquetOutputsAverageInDuckDB(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the pipeline")
	}
	mods := duckdbModules()
	if mods == "" {
		t.Skip("node or @duckdb/node-api missing: run scripts/deps.sh --duckdb")
	}
	dir := filepath.Join(t.TempDir(), "out")
	if out, err := runCmd(t, []string{"run"}, "--trace", writeObservedLog(t, 1500), "--out", dir, "--budget", "20", "--runs", "1"); err != nil {
		t.Fatal(err, out)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.parquet"))
	for _, want := range []string{"results.parquet", "classes.parquet", "calibration.parquet"} {
		if _, err := os.Stat(filepath.Join(dir, want)); err != nil {
			t.Errorf("run wrote no %s: %v", want, err)
		}
	}
	script, err := filepath.Abs(filepath.Join("..", "..", "scripts", "duckdb-check.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("node", append([]string{script}, files...)...)
	cmd.Env = append(os.Environ(), "NODE_PATH="+mods)
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Errorf("DuckDB check: %v\n%s", err, out)
	}
	if n := strings.Count(string(out), "avg("); n < 20 {
		t.Errorf("DuckDB averaged %d columns, want every numeric column of %d files", n, len(files))
	}
}
