package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Config files named by a flag are refused up front when they are a
// device, a directory or larger than a configuration file may be, and the
// error names the flag (issue 26: `emit --config /dev/zero` read 24 GB
// until the kernel killed it, `run --cluster /dev/zero` 21 GB).
func TestConfigFilesBounded(t *testing.T) {
	big := filepath.Join(t.TempDir(), "big.xml")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(100 << 20); err != nil { // sparse
		t.Fatal(err)
	}
	f.Close()
	out := t.TempDir()
	checkCmdErrors(t, []cmdError{
		{[]string{"emit"}, []string{"--config", "/dev/zero", "--out", filepath.Join(out, "e")}, []string{"--config", "/dev/zero", "not a regular file"}},
		{[]string{"run"}, []string{"--cluster", "/dev/zero", "--out", filepath.Join(out, "r1")}, []string{"--cluster", "not a regular file"}},
		{[]string{"run"}, []string{"--current-config", big, "--out", filepath.Join(out, "r2")}, []string{"--current-config", "larger than"}},
		{[]string{"run"}, []string{"--current-config", "/dev/zero", "--out", filepath.Join(out, "r3")}, []string{"--current-config", "character device"}},
		{[]string{"simulate"}, []string{"--config", t.TempDir()}, []string{"directory"}},
		{[]string{"classify"}, []string{"--cluster", "/dev/zero"}, []string{"--cluster", "not a regular file"}},
		{[]string{"yarn-controller"}, []string{"/dev/zero", "--rm", "http://127.0.0.1:1", "--once", "--dry-run"}, []string{"/dev/zero", "not a regular file"}},
	})
}

// SIGTERM stops a command within a second even in a phase that does not
// check its context: here a read of a FIFO no one writes to (issue 26:
// `timeout 20 schedplan emit --config /dev/zero` could not stop it). The
// exit status is 130 and the message says it was interrupted.
func TestSIGTERMStopsBlockedRead(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "bundle.yaml")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	bin := buildBinary(t)
	cmd := exec.Command(bin, "emit", "--config", fifo, "--out", filepath.Join(dir, "out"))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond) // blocked opening the FIFO
	sent := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		took := time.Since(sent)
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 130 {
			t.Errorf("exit: %v, want status 130\n%s", err, stderr.String())
		}
		if took > time.Second {
			t.Errorf("exited %v after SIGTERM, want within 1 s", took)
		}
		if !strings.Contains(stderr.String(), "interrupted") {
			t.Errorf("no clear message: %s", stderr.String())
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatal("still running 10 s after SIGTERM")
	}
}
