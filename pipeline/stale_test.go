package pipeline

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
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

// A run stopped by --until after a stage whose inputs changed leaves the
// later stages' files of an earlier run in the directory: they are not
// removed (no --force, and the user may want them) but they do not pass
// for current either: the runner names them. A stop that changed nothing
// names none.
func TestUntilNamesOutdatedLaterOutputs(t *testing.T) {
	cfg := DefaultRunConfig()
	cfg.Budget, cfg.Runs, cfg.Trace = 40, 2, "embedded:fb2009-50"
	dir := filepath.Join(t.TempDir(), "out")
	run := func(c RunConfig, so StageOptions, force bool) *Runner {
		t.Helper()
		c.Stages = so
		in, err := Prepare(c)
		if err != nil {
			t.Fatal(err)
		}
		r := &Runner{Dir: dir, Force: force}
		if _, err := Run(context.Background(), in, r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	run(cfg, StageOptions{Until: "emit"}, false)
	if r := run(cfg, StageOptions{Until: "classify"}, false); len(r.Outdated) != 0 {
		t.Errorf("nothing changed, yet outdated: %v", r.Outdated)
	}
	k3 := cfg
	k3.K = 3
	r := run(k3, StageOptions{Until: "classify"}, true)
	if !slices.Contains(r.Outdated, "capacity-scheduler.xml") || !slices.Contains(r.Outdated, "schedplan.yaml") {
		t.Errorf("outdated %v, want emit's files", r.Outdated)
	}
	if _, err := os.Stat(filepath.Join(dir, "schedplan.yaml")); err != nil {
		t.Errorf("an --until run removed a later stage's file: %v", err)
	}
}
