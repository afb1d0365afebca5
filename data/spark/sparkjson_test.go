package spark

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/data/internal/logtest"
)

// pythonJSON re-encodes one JSON line the way Python's json.dumps writes it
// by default (", " and ": " separators) after Go's encoder has put the
// object's keys in sorted order, as `jq -S -c` and re-saving scripts do.
func pythonJSON(tb testing.TB, line []byte) []byte {
	var v any
	if err := json.Unmarshal(line, &v); err != nil {
		tb.Fatal(err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	var out []byte
	in, esc := false, false
	for _, c := range b {
		out = append(out, c)
		switch {
		case esc:
			esc = false
		case in && c == '\\':
			esc = true
		case c == '"':
			in = !in
		case !in && (c == ':' || c == ','):
			out = append(out, ' ')
		}
	}
	return out
}

// TestSparkReSavedJSON reads the real Spark log after a JSON tool re-saved
// it (a space after every colon and comma, keys sorted, so "Event" is no
// longer first): the same jobs and tasks as the log Spark wrote, detected
// as a Spark event log by content.
func TestSparkReSavedJSON(t *testing.T) {
	raw, err := os.ReadFile(sparkReal)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, line := range bytes.Split(bytes.TrimSpace(raw), []byte("\n")) {
		b.Write(pythonJSON(t, line))
		b.WriteByte('\n')
	}
	if !bytes.Contains(b.Bytes(), []byte(`"Event": "SparkListener`)) || bytes.HasPrefix(b.Bytes(), []byte(`{"Event"`)) {
		t.Fatalf("re-saved log starts %q", b.Bytes()[:40])
	}
	p := filepath.Join(t.TempDir(), "local-1426633911242")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	want, err := data.ReadLog(sparkReal, data.ReadOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, opt := range []data.ReadOptions{{Strict: true}, {Strict: true, Format: Name}} {
		got, err := data.ReadLog(p, opt)
		if err != nil {
			t.Fatalf("format %q: %v", opt.Format, err)
		}
		got.Jobs.Source = want.Jobs.Source
		if d := logtest.DiffJobs(want.Jobs, got.Jobs); d != "" {
			t.Errorf("jobs differ: %s", d)
		}
		if d := logtest.DiffTasks(want.Tasks, got.Tasks); d != "" {
			t.Errorf("tasks differ: %s", d)
		}
	}

}
