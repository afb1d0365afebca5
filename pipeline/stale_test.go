package pipeline

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/pipeline/inputs"
)

// A stage that no longer writes one of its earlier outputs (its parameters
// changed) does not leave it looking current: without Force the stage is
// refused and the directory is as it was; with Force the file is removed
// and the stage's new stamp vouches for what is there. A file the stamp
// never listed is not schedplan's and stays.
func TestRunnerStaleOutputs(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	stage := func(r *Runner, param string, files map[string][]byte) (ran bool, err error) {
		t.Helper()
		if err := r.Open(); err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		key, err := r.KeyOf("v", param, nil)
		if err != nil {
			t.Fatal(err)
		}
		var st counterState
		err = r.Stage("v", key, &st, func() (map[string][]byte, error) { ran = true; return files, nil })
		return ran, err
	}
	exists := func(n string) bool {
		_, err := os.Stat(filepath.Join(dir, n))
		return err == nil
	}
	all := map[string][]byte{"summary.txt": []byte("s"), "results.parquet": []byte("rows"), "sub/cal.parquet": []byte("c")}
	if _, err := stage(&Runner{Dir: dir}, "all", all); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	// A file of the stamp directory the stamp lists (the runner's own
	// bookkeeping, such as a side file of the state) is never stale.
	stampPath := filepath.Join(dir, StampDir, "v.json")
	b, err := os.ReadFile(stampPath)
	if err != nil {
		t.Fatal(err)
	}
	var st stamp
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	side := filepath.Join(StampDir, "v.side")
	if err := os.WriteFile(filepath.Join(dir, side), []byte("cols"), 0o644); err != nil {
		t.Fatal(err)
	}
	st.Files[side] = "whatever"
	if b, err = json.Marshal(st); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stampPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	none := map[string][]byte{"summary.txt": []byte("s")}
	_, err = stage(&Runner{Dir: dir}, "none", none)
	if err == nil || !strings.Contains(err.Error(), "v: results.parquet, sub/cal.parquet in") || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("without force: %v, want a refusal naming both files", err)
	}
	if !exists("results.parquet") || !exists("sub/cal.parquet") {
		t.Fatal("a refused stage removed files")
	}
	if after, _ := os.ReadFile(stampPath); string(after) != string(b) {
		t.Fatal("a refused stage rewrote its stamp")
	}
	if _, err := stage(&Runner{Dir: dir, Force: true}, "none", none); err != nil {
		t.Fatal(err)
	}
	if exists("results.parquet") || exists("sub/cal.parquet") {
		t.Error("stale outputs left after a forced run")
	}
	if !exists("notes.txt") || !exists("summary.txt") || !exists(side) {
		t.Error("a file the stage did not write earlier, or writes now, was removed")
	}
	if ran, err := stage(&Runner{Dir: dir}, "none", none); err != nil || ran {
		t.Fatalf("rerun: ran %v, %v, want skipped", ran, err)
	}
	// Back to all: the files come back, nothing to remove.
	if _, err := stage(&Runner{Dir: dir}, "all", all); err != nil {
		t.Fatal(err)
	}
	if !exists("results.parquet") {
		t.Error("results.parquet not written again")
	}
}

// A run stopped by --until after a stage, when an earlier run's outputs of
// the later stages no longer match it (their parameters changed), is
// refused before its first stage, as any stale output is; with Force they
// are removed with their stamps, so that the directory holds no report of
// another run, and the next whole run needs no Force. A stop that changed
// nothing removes nothing.
func TestUntilRefusesOrRemovesOutdatedLaterOutputs(t *testing.T) {
	cfg := inputs.DefaultRunConfig()
	cfg.Budget, cfg.Runs, cfg.Trace = 40, 2, "embedded:fb2009-50"
	dir := filepath.Join(t.TempDir(), "out")
	run := func(c inputs.RunConfig, so inputs.StageOptions, force bool) (*Runner, error) {
		t.Helper()
		c.Stages = so
		in, err := Prepare(c)
		if err != nil {
			t.Fatal(err)
		}
		r := &Runner{Dir: dir, Force: force}
		_, err = Run(context.Background(), in, r)
		return r, err
	}
	exists := func(n string) bool {
		_, err := os.Stat(filepath.Join(dir, n))
		return err == nil
	}
	if _, err := run(cfg, inputs.StageOptions{}, false); err != nil {
		t.Fatal(err)
	}
	if r, err := run(cfg, inputs.StageOptions{Until: "classify"}, false); err != nil || len(r.Removed) != 0 {
		t.Fatalf("nothing changed: error %v, removed %v", err, r.Removed)
	}
	runs3 := cfg
	runs3.Runs = 3 // validate's key changes; the stages up to emit are current
	before := tree(t, dir)
	_, err := run(runs3, inputs.StageOptions{Until: "emit"}, false)
	if err == nil || !strings.Contains(err.Error(), "results.parquet") || !strings.Contains(err.Error(), "summary.json") || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("without force: error %v, want a refusal naming validate's and report's files", err)
	}
	if after := tree(t, dir); len(after) != len(before) {
		t.Fatalf("a refused run changed the directory: %d files, was %d", len(after), len(before))
	}
	r, err := run(runs3, inputs.StageOptions{Until: "emit"}, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"results.parquet", "summary.json", "report.html", filepath.Join(StampDir, "validate.json"), filepath.Join(StampDir, "report.json")} {
		if exists(n) {
			t.Errorf("%s stays after --until emit --force", n)
		}
	}
	if !slices.Contains(r.Removed, "summary.json") || !exists("schedplan.yaml") || !exists(filepath.Join(StampDir, "emit.json")) {
		t.Errorf("removed %v; want summary.json among them and emit's outputs kept", r.Removed)
	}
	if _, err := run(runs3, inputs.StageOptions{}, false); err != nil {
		t.Fatalf("the whole run after --until --force: %v", err)
	}
}
