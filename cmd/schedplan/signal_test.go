package main

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/schedplan/schedplan/internal/cputime"
	"github.com/schedplan/schedplan/pipeline"
)

// Ctrl-C during `run` stops within a second with a clear message, leaves no
// partial file and no stamp of the interrupted stage, and the next run
// resumes from the stages that were done (issue 11). The test builds the
// binary and sends it SIGINT while it tunes.
func TestRunInterruptedBySIGINTResumes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	tmp := t.TempDir()
	bin := buildBinary(t)
	dir := filepath.Join(tmp, "out")
	args := []string{"run", "--out", dir, "--budget", "4000", "--runs", "2", "--log-format", "json"}
	cmd := exec.Command(bin, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		log.WriteString(sc.Text() + "\n")
		if strings.Contains(sc.Text(), `"stage started"`) && strings.Contains(sc.Text(), `"stage":"tune"`) {
			break
		}
	}
	time.Sleep(200 * time.Millisecond) // well into the search
	// The child's CPU time after the signal, not the wall time, is what
	// it controls (cputime's doc); 30 s of wall time is a hang.
	cpuAt, cpuErr := cputime.Of(cmd.Process.Pid)
	sent := time.Now()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	for sc.Scan() {
		log.WriteString(sc.Text() + "\n")
	}
	err = cmd.Wait()
	took := time.Since(sent)
	cpu := cputime.Exited(cmd.ProcessState) - cpuAt
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 130 {
		t.Errorf("exit: %v, want status 130\n%s", err, log.String())
	}
	t.Logf("exited %v after SIGINT, %v of CPU after it", took, cpu)
	if cpuErr == nil && cpu > time.Second || took > 30*time.Second {
		t.Errorf("exited %v after SIGINT, %v of CPU after it; want within 1 s of CPU", took, cpu)
	}
	if !strings.Contains(log.String(), "interrupted") || !strings.Contains(log.String(), "resumes") {
		t.Errorf("no clear message:\n%s", log.String())
	}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".tmp-") {
			t.Errorf("partial file left: %s", p)
		}
		return nil
	})
	for _, f := range []string{"summary.json", "schedplan.yaml", filepath.Join(pipeline.StampDir, "tune.json")} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s exists after the interrupt", f)
		}
	}
	out, err := runCmd(t, []string{"run"}, append(args[1:5], "--budget", "60")...)
	if err != nil {
		t.Fatal(err, out)
	}
	if !strings.Contains(out, "up to date: ingest, classify, capacity") {
		t.Errorf("the next run did not resume:\n%s", out)
	}
}
