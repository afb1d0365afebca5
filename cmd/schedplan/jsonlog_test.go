package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/schedplan/schedplan/internal/gcpause"
)

// buildBinary returns schedplan built into a temporary directory, once
// for all the tests of the process.
func buildBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "schedplan-test-bin-")
		if err != nil {
			built.err = err
			return
		}
		built.dir = dir
		bin := filepath.Join(dir, "schedplan")
		if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		built.bin = bin
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

// built is the binary the tests share: built once per test process (by
// the first test that needs it), removed by TestMain.
var built struct {
	once     sync.Once
	dir, bin string
	err      error
}

func TestMain(m *testing.M) {
	gcpause.Resume() // the tests collect from the start
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// jsonLines parses stderr as JSON lines; every line must be one object.
func jsonLines(t *testing.T, stderr string) []map[string]any {
	t.Helper()
	var recs []map[string]any
	for _, l := range strings.Split(strings.TrimRight(stderr, "\n"), "\n") {
		if l == "" {
			continue
		}
		var r map[string]any
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Errorf("stderr line is not a JSON object: %q (%v)", l, err)
			continue
		}
		recs = append(recs, r)
	}
	return recs
}

// With --log-format json, everything the real command writes to stderr is
// JSON lines, its final error included: one object at level ERROR with
// event "exit", the message and the exit code (and the flag when one is to
// blame), wherever --log-format stands among the arguments and whether the
// error comes from the flag parser, the checks or a stage.
func TestJSONLogFinalError(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	dir := t.TempDir()
	missing := filepath.Join(dir, "no-such-trace.parquet")
	for _, tc := range []struct {
		name string
		args []string
		code int
		msg  string // in the message
		flag string // the "flag" field, "" for none
	}{
		{"bad flag value", []string{"run", "--log-format", "json", "--runs", "abc"}, 1, `"abc"`, "runs"},
		{"bad value before --log-format", []string{"run", "--runs=abc", "--log-format=json"}, 1, `"abc"`, "runs"},
		{"checked flag", []string{"--log-format", "json", "run", "--split", "2", "--out", filepath.Join(dir, "o1")}, 1, "--split", "split"},
		{"missing trace", []string{"run", "--log-format", "json", "--trace", missing, "--out", filepath.Join(dir, "o2")}, 1, "no-such-trace.parquet", ""},
		{"unknown command", []string{"--log-format", "json", "bogus"}, 1, "bogus", ""},
		{"unknown flag", []string{"run", "--log-format", "json", "--bogus", "--out", filepath.Join(dir, "o3")}, 1, "--bogus", "bogus"},
		{"unknown flag with a value", []string{"simulate", "--bogus=3", "--log-format=json"}, 1, "--bogus", "bogus"},
		{"unknown shorthand flag", []string{"run", "--log-format", "json", "-x"}, 1, "'x'", "x"},
		{"bad policy parameter", []string{"simulate", "--log-format", "json", "-p", "las_mq:k=x"}, 1, "k=", "policy"},
		{"deprecated flag, then a missing trace", []string{"tune", "--log-format", "json", "--blocks", "3", "--trace", missing}, 1, "no-such-trace.parquet", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, tc.args...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != tc.code {
				t.Fatalf("exit: %v, want status %d\n%s", err, tc.code, stderr.String())
			}
			recs := jsonLines(t, stderr.String())
			if len(recs) == 0 {
				t.Fatalf("no JSON on stderr:\n%s", stderr.String())
			}
			last := recs[len(recs)-1]
			if last["level"] != "ERROR" || last["event"] != "exit" || last["exit_code"] != float64(tc.code) {
				t.Errorf("final record %v: want level ERROR, event exit, exit_code %d", last, tc.code)
			}
			if msg, _ := last["msg"].(string); !strings.Contains(msg, tc.msg) {
				t.Errorf("final message %q does not contain %q", msg, tc.msg)
			}
			if got, _ := last["flag"].(string); got != tc.flag {
				t.Errorf("flag field %q, want %q", got, tc.flag)
			}
			for _, r := range recs[:len(recs)-1] {
				if r["event"] == "exit" {
					t.Errorf("more than one exit record: %v", r)
				}
			}
		})
	}
	// The text format keeps its one line.
	out, err := exec.Command(bin, "run", "--runs", "abc").CombinedOutput()
	if err == nil || !strings.HasPrefix(string(out), "schedplan: invalid argument \"abc\" for \"--runs\"") || strings.Count(string(out), "\n") != 1 {
		t.Errorf("text format: %v\n%s", err, out)
	}
}

// A whole run's stderr is JSON lines in JSON mode; a deprecated flag is a
// warning of the log (a JSON object), not a line the flag parser prints.
func TestJSONLogDeprecatedFlagWarning(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildBinary(t)
	cmd := exec.Command(bin, "run", "--log-format", "json", "--blocks", "3", "--out", filepath.Join(t.TempDir(), "o"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	warned := false
	for _, r := range jsonLines(t, stderr.String()) {
		if r["level"] == "WARN" && r["flag"] == "blocks" {
			warned = true
		}
	}
	if !warned {
		t.Errorf("no warning about --blocks:\n%s", stderr.String())
	}
}

// Progress bars are never drawn in JSON mode, even on a terminal.
func TestJSONLogNoProgressBars(t *testing.T) {
	if (&app{logFormat: "json"}).barsOn(true) {
		t.Error("progress bars on a terminal in JSON mode")
	}
	if !(&app{logFormat: "text"}).barsOn(true) {
		t.Error("no progress bars on a terminal in text mode")
	}
	if (&app{logFormat: "text", quiet: true}).barsOn(true) {
		t.Error("progress bars with --quiet")
	}
}

// A parameter error about a flag that was not given names the flag without
// an empty value ("--stage: …", not "--stage : …").
func TestCLIErrorFlagNotGiven(t *testing.T) {
	_, err := runCmd(t, []string{"run"}, "--out", filepath.Join(t.TempDir(), "o"), "--shard", "0/2")
	if err == nil {
		t.Fatal("--shard without --stage was accepted")
	}
	if msg := cliError(err).Error(); !strings.HasPrefix(msg, "--stage: ") {
		t.Errorf("message %q, want it to start with \"--stage: \"", msg)
	}
}
