package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A rerun with --results none into a directory whose earlier run wrote
// results.parquet does not leave it there looking current: without
// --force the run is refused with the file named; with it the file is
// removed and the summary no longer lists it.
func TestRunResultsNoneRemovesStaleResults(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	args := []string{"--trace", "embedded:fb2009-50", "--out", dir}
	if out, err := runCmd(t, []string{"run"}, args...); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	results := filepath.Join(dir, "results.parquet")
	if _, err := os.Stat(results); err != nil {
		t.Fatal("the first run wrote no results.parquet")
	}
	_, err := runCmd(t, []string{"run"}, append(args, "--results", "none")...)
	if err == nil || !strings.Contains(err.Error(), "results.parquet") || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("rerun with --results none: %v, want a refusal naming results.parquet", err)
	}
	if _, err := os.Stat(results); err != nil {
		t.Error("the refused run removed results.parquet")
	}
	if out, err := runCmd(t, []string{"run"}, append(args, "--results", "none", "--force")...); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if _, err := os.Stat(results); err == nil {
		t.Error("results.parquet of the earlier run left beside the new outputs")
	}
	sum, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil || strings.Contains(string(sum), "results.parquet") {
		t.Errorf("summary.json still names results.parquet (%v)", err)
	}
}
