package data

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// countedFormat registers, for the test, a log format whose sniffer counts
// the detections that consult the table, and whose content is "COUNTED"
// lines (one job each).
func countedFormat(t *testing.T) *int {
	t.Helper()
	saved := logFormats
	t.Cleanup(func() { logFormats = saved })
	logFormats = slices.DeleteFunc(slices.Clone(saved), func(f *LogFormat) bool { return f.Name == "counted" })
	calls := new(int)
	RegisterLogFormat(LogFormat{
		Name: "counted",
		Sniff: func(h *Head) bool {
			*calls++
			return bytes.HasPrefix(h.Trim, []byte("COUNTED"))
		},
		Read: func(path string, src io.Reader, opt *ReadOptions) (*Log, error) {
			var b JobBuilder
			r := NewJobRow()
			r.ID, r.Submit, r.Size = "j1", 1, 2
			b.Add(&r)
			return &Log{Jobs: b.Jobs(path), Summary: LogSummary{Format: "counted", Files: 1, Records: 1}}, nil
		},
	})
	return calls
}

// ReadFile tells a file's format with one detection: a log of another
// system and a SWIM trace without an extension were each detected twice
// before (once for the logs, once more for the SWIM .tsv fallback or by
// ReadLog).
func TestReadFileDetectsOnce(t *testing.T) {
	dir := t.TempDir()
	raw, err := os.ReadFile(swimWithPaths)
	if err != nil {
		t.Fatal(err)
	}
	swim := filepath.Join(dir, "FB-2010_samples_24_times_1hr_withInputPaths_0")
	counted := filepath.Join(dir, "log.csv")
	if err := os.WriteFile(swim, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(counted, []byte("COUNTED\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		jobs int
	}{{swim, 200}, {counted, 1}} {
		calls := countedFormat(t)
		j, err := ReadFile(c.path, ReadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		if j.Len() != c.jobs || *calls != 1 {
			t.Errorf("%s: %d jobs, %d detections; want %d jobs, 1 detection", filepath.Base(c.path), j.Len(), *calls, c.jobs)
		}
		calls = countedFormat(t)
		f, err := ResolveFormat(c.path, "")
		if err != nil || *calls != 1 {
			t.Fatalf("ResolveFormat(%s): %q, %v, %d detections", c.path, f, err, *calls)
		}
		if _, err := ReadFile(c.path, ReadOptions{Format: f}); err != nil || *calls != 1 {
			t.Errorf("ReadFile(%s) with the resolved format %q: %v, %d detections in all; want 1", c.path, f, err, *calls)
		}
	}
}
