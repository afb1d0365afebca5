package pipeline

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestRunTinyLogs runs the whole pipeline on the first n jobs of the
// embedded trace: a validation window of one or two jobs has no span, and
// its task-level load terms were NaN, which failed validate ("state: json:
// unsupported value: NaN") on logs of 3 to 5 jobs.
func TestRunTinyLogs(t *testing.T) {
	full, err := os.ReadFile(filepath.Join("..", "data", "traces", "FB-2009_samples_24_times_1hr_0_first50jobs.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(full, []byte("\n"))
	for _, n := range []int{3, 4, 5, 8} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			dir := t.TempDir()
			log := filepath.Join(dir, "log.tsv")
			if err := os.WriteFile(log, bytes.Join(lines[:n], nil), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg := testConfig()
			cfg.Trace = log
			if _, _, err := runInto(t, filepath.Join(dir, "out"), cfg, nil); err != nil {
				t.Fatalf("%d jobs: %v", n, err)
			}
		})
	}
}
