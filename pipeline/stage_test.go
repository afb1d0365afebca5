package pipeline

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type counterState struct{ N int }

// runTwoStages runs stage a (writes a.txt from param) and stage b (writes
// b.txt from a's state) and reports how often each body ran.
func runTwoStages(t *testing.T, r *Runner, param string) (ranA, ranB bool, err error) {
	t.Helper()
	if err := r.Open(); err != nil {
		return false, false, err
	}
	ka, err := r.KeyOf("a", param, nil, []byte("input bytes"))
	if err != nil {
		t.Fatal(err)
	}
	var sa counterState
	err = r.Stage("a", ka, &sa, func() (map[string][]byte, error) {
		ranA = true
		sa.N = len(param)
		return map[string][]byte{"a.txt": []byte(param), "sub/a2.txt": []byte("x")}, nil
	})
	if err != nil {
		return ranA, ranB, err
	}
	kb, err := r.KeyOf("b", nil, []string{"a"})
	if err != nil {
		t.Fatal(err)
	}
	var sb counterState
	err = r.Stage("b", kb, &sb, func() (map[string][]byte, error) {
		ranB = true
		sb.N = sa.N * 2
		return map[string][]byte{"b.txt": []byte(strings.Repeat("b", sb.N))}, nil
	})
	return ranA, ranB, err
}

func TestRunnerSkipsUnchangedStages(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	a, b, err := runTwoStages(t, &Runner{Dir: dir}, "hello")
	if err != nil || !a || !b {
		t.Fatalf("first run: %v %v %v", a, b, err)
	}
	a, b, err = runTwoStages(t, &Runner{Dir: dir}, "hello")
	if err != nil || a || b {
		t.Fatalf("second run re-ran stages: %v %v %v", a, b, err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "b.txt")); string(got) != "bbbbbbbbbb" {
		t.Errorf("b.txt = %q: state was not restored from the stamp", got)
	}
	// A changed parameter must not overwrite without force...
	if _, _, err = runTwoStages(t, &Runner{Dir: dir}, "hi"); err == nil || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("changed inputs overwrote without --force: %v", err)
	}
	// ...and does with it, re-running the dependent stage too.
	a, b, err = runTwoStages(t, &Runner{Dir: dir, Force: true}, "hi")
	if err != nil || !a || !b {
		t.Fatalf("forced run: %v %v %v", a, b, err)
	}
	// A file edited by hand makes its stage run again.
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("tampered"), 0o644)
	a, _, err = runTwoStages(t, &Runner{Dir: dir, Force: true}, "hi")
	if err != nil || !a {
		t.Fatalf("tampered output not redone: %v %v", a, err)
	}
}

func TestRunnerRefusesForeignDirectory(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "precious.txt"), []byte("mine"), 0o644)
	if err := (&Runner{Dir: dir}).Open(); err == nil {
		t.Fatal("a directory schedplan did not write was accepted without --force")
	}
	if err := (&Runner{Dir: dir, Force: true}).Open(); err != nil {
		t.Fatal(err)
	}
}

func TestRunnerInterruptedLeavesNoPartialFileAndResumes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	boom := errors.New("killed")
	r := &Runner{Dir: dir, Fail: func(stage, file string) error {
		if stage == "a" && file == "a.txt" {
			return boom
		}
		return nil
	}}
	if _, _, err := runTwoStages(t, r, "hello"); !errors.Is(err, boom) {
		t.Fatalf("want the injected failure, got %v", err)
	}
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if strings.Contains(filepath.Base(p), ".tmp-") {
			t.Errorf("temporary file left behind: %s", p)
		}
		return nil
	})
	if _, err := os.Stat(filepath.Join(dir, StampDir, "a.json")); err == nil {
		t.Error("the interrupted stage left a stamp")
	}
	a, b, err := runTwoStages(t, &Runner{Dir: dir}, "hello")
	if err != nil || !a || !b {
		t.Fatalf("resume: %v %v %v", a, b, err)
	}
}
