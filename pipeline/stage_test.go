package pipeline

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
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

// A damaged stamp means "stage not done" (issue 10: a stamp with "state":
// null panicked Run with a nil dereference; {} was taken as up to date).
func TestRunnerDamagedStampIsNotDone(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	stage := func(t *testing.T) (ran bool, n int) {
		t.Helper()
		r := &Runner{Dir: dir}
		if err := r.Open(); err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		k, _ := r.KeyOf("a", "p", nil)
		var st *counterState // a pointer state: null leaves it nil
		err := r.Stage("a", k, &st, func() (map[string][]byte, error) {
			ran = true
			st = &counterState{N: 5}
			return map[string][]byte{"a.txt": []byte("a")}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return ran, st.N
	}
	if ran, _ := stage(t); !ran {
		t.Fatal("first run skipped")
	}
	stampPath := filepath.Join(dir, StampDir, "a.json")
	good, err := os.ReadFile(stampPath)
	if err != nil {
		t.Fatal(err)
	}
	if ran, n := stage(t); ran || n != 5 {
		t.Fatalf("an intact stamp: ran %v, state %d", ran, n)
	}
	var s map[string]any
	if err := json.Unmarshal(good, &s); err != nil {
		t.Fatal(err)
	}
	edit := func(f func(m map[string]any)) []byte {
		m := map[string]any{}
		for k, v := range s {
			m[k] = v
		}
		f(m)
		b, _ := json.Marshal(m)
		return b
	}
	for name, b := range map[string][]byte{
		"state null":    edit(func(m map[string]any) { m["state"] = nil }),
		"state missing": edit(func(m map[string]any) { delete(m, "state") }),
		"state {}":      edit(func(m map[string]any) { m["state"] = map[string]any{} }),
		"state other":   edit(func(m map[string]any) { m["state"] = map[string]any{"N": 5, "X": 1} }),
		"state string":  edit(func(m map[string]any) { m["state"] = "x" }),
		"files missing": edit(func(m map[string]any) { delete(m, "files") }),
		"other stage":   edit(func(m map[string]any) { m["stage"] = "b" }),
		"empty object":  []byte("{}"),
		"null":          []byte("null"),
		"truncated":     good[:len(good)/2],
		"empty":         nil,
	} {
		if err := os.WriteFile(stampPath, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if ran, n := stage(t); !ran || n != 5 {
			t.Errorf("stamp %s: ran %v (want a re-run), state %d", name, ran, n)
		}
	}
}

// lockChildEnv makes the test binary a second schedplan run holding the
// lock on the directory it names until its standard input closes.
const lockChildEnv = "SCHEDPLAN_TEST_LOCK_CHILD"

func TestRunnerLockChild(t *testing.T) {
	dir := os.Getenv(lockChildEnv)
	if dir == "" {
		t.Skip("helper process for TestRunnerLocksOutputDirectory")
	}
	r := &Runner{Dir: dir}
	if err := r.Open(); err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println("locked")
	io.Copy(io.Discard, os.Stdin)
	r.Close()
}

// Two runs into one output directory: the second fails at once with a
// clear message, or waits for the first with Wait (issue 10: two runs left
// a mix of both runs' files).
func TestRunnerLocksOutputDirectory(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	cmd := exec.Command(os.Args[0], "-test.run=^TestRunnerLockChild$")
	cmd.Env = append(os.Environ(), lockChildEnv+"="+dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer stdin.Close()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || line != "locked\n" {
		t.Fatalf("helper: %q %v", line, err)
	}
	err = (&Runner{Dir: dir}).Open()
	if err == nil || !strings.Contains(err.Error(), "another schedplan run") || !strings.Contains(err.Error(), dir) {
		t.Fatalf("a second run into a locked directory: %v", err)
	}
	// With Wait, Open returns once the first run ends.
	waited := make(chan error, 1)
	w := &Runner{Dir: dir, Wait: true}
	go func() { waited <- w.Open() }()
	select {
	case err := <-waited:
		t.Fatalf("Open with Wait returned while the directory was locked: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	stdin.Close()
	select {
	case err := <-waited:
		if err != nil {
			t.Fatal(err)
		}
		w.Close()
	case <-time.After(20 * time.Second):
		t.Fatal("Open with Wait did not return after the first run ended")
	}
}

// Temporary files left by a killed run (schedplan's pattern .NAME.tmp-DIGITS)
// are removed by the next run; nothing else is.
func TestRunnerRemovesLeftoverTemporaryFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	r := &Runner{Dir: dir}
	if err := r.Open(); err != nil {
		t.Fatal(err)
	}
	r.Close()
	leftovers := []string{".classes.parquet.tmp-123456", filepath.Join(StampDir, ".classify.json.tmp-42"), filepath.Join("sub", ".a2.txt.tmp-7")}
	kept := []string{".keep.tmp-abc", "mine.tmp-1", ".x.tmp-", "notes.txt", filepath.Join("sub", "a2.txt"), filepath.Join("sub", "deep", ".y.tmp-3")}
	for _, n := range append(leftovers, kept...) {
		p := filepath.Join(dir, n)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r = &Runner{Dir: dir}
	if err := r.Open(); err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, n := range leftovers {
		if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
			t.Errorf("leftover %s not removed", n)
		}
	}
	for _, n := range kept {
		if _, err := os.Stat(filepath.Join(dir, n)); err != nil {
			t.Errorf("%s removed: %v", n, err)
		}
	}
}

// Write errors name the file the user asked for, not the temporary file;
// an output directory that cannot be written is refused before any stage
// computes.
func TestRunnerWriteErrorsNameTheDestination(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	r := &Runner{Dir: dir}
	if err := r.Open(); err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	k, _ := r.KeyOf("a", nil, nil)
	// The name fits in 255 bytes; its temporary name does not.
	long := strings.Repeat("n", 240) + ".txt"
	var st counterState
	err := r.Stage("a", k, &st, func() (map[string][]byte, error) {
		return map[string][]byte{long: []byte("x")}, nil
	})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dir, long)) || strings.Contains(err.Error(), ".tmp-") {
		t.Fatalf("write error: %v", err)
	}

	// .schedplan is a file: nothing can be written there.
	bad := filepath.Join(t.TempDir(), "bad")
	os.MkdirAll(bad, 0o755)
	os.WriteFile(filepath.Join(bad, StampDir), []byte("x"), 0o644)
	rb := &Runner{Dir: bad, Force: true}
	if err := rb.Open(); err == nil || !strings.Contains(err.Error(), bad) {
		t.Fatalf("Open of an unwritable directory: %v", err)
	}
}

// The hook hears the end of every stage it heard start, whatever the path.
func TestRunnerHookOnEveryPath(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	open := map[string]int{}
	r := &Runner{Dir: dir, Hook: func(stage string, ev StageEvent, err error) {
		switch ev {
		case StageStart:
			open[stage]++
		case StageDone:
			open[stage]--
		}
	}}
	if err := r.Open(); err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	k, _ := r.KeyOf("a", nil, nil)
	bad := struct{ X float64 }{math.NaN()} // a state JSON cannot hold
	if err := r.Stage("nan", k, &bad, func() (map[string][]byte, error) { return nil, nil }); err == nil {
		t.Error("a NaN state was stamped")
	}
	os.WriteFile(filepath.Join(dir, "sub"), []byte("a file"), 0o644)
	if err := r.Stage("mkdir", k, &bad, func() (map[string][]byte, error) {
		return map[string][]byte{"sub/x.txt": nil}, nil
	}); err == nil {
		t.Error("a file under a regular file was written")
	}
	for s, n := range open {
		if n != 0 {
			t.Errorf("stage %s: %d starts without an end", s, n)
		}
	}
	if len(open) != 2 {
		t.Errorf("hook saw %v", open)
	}
}
