package spark

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/data/internal/compress"
	"github.com/schedplan/schedplan/data/internal/logtest"
)

const sparkLegacyDir = "../testdata/logs/spark/spark1-dir/local-1426533911241"

// TestSparkLegacyDir reads Spark 1.2's directory format (EVENT_LOG_1 beside
// SPARK_VERSION_1.2.0 and APPLICATION_COMPLETE): the golden of the sample,
// the same jobs and tasks as the single-file log of the same events, read
// as the application's directory and as the directory of such directories,
// and detected from the content.
func TestSparkLegacyDir(t *testing.T) {
	got := logtest.Golden(t, "spark1-dir", sparkLegacyDir, data.ReadOptions{})
	want, err := data.ReadLog(sparkReal, data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{sparkLegacyDir, filepath.Dir(sparkLegacyDir)} {
		lg, err := data.ReadLog(p, data.ReadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		lg.Jobs.Source = want.Jobs.Source
		if d := logtest.DiffJobs(want.Jobs, lg.Jobs); d != "" {
			t.Errorf("%s: jobs differ from the single file's: %s", p, d)
		}
		if d := logtest.DiffTasks(want.Tasks, lg.Tasks); d != "" {
			t.Errorf("%s: tasks differ: %s", p, d)
		}
		if f, err := data.DetectFormat(p); err != nil || f != Name {
			t.Errorf("%s detected as %q, %v", p, f, err)
		}
	}
	if got.Tasks.Len() != 8 {
		t.Errorf("%d tasks, want 8", got.Tasks.Len())
	}
}

// TestSparkLZFDirs reads the real log compressed with Spark's lzf codec
// (compress-lzf chunks) in both directory formats: a Spark 1.x directory
// with COMPRESSION_CODEC_lzf, and a rolling directory whose second event
// file is .lzf beside an appstatus file; an application still in progress
// (no APPLICATION_COMPLETE, no ApplicationEnd) is dropped as incomplete;
// a damaged line is named by file and line.
func TestSparkLZFDirs(t *testing.T) {
	plain, err := os.ReadFile(sparkReal)
	if err != nil {
		t.Fatal(err)
	}
	want, err := data.ReadLog(sparkReal, data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	write := func(p string, b []byte) {
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	legacy := filepath.Join(root, "v1", "local-1426533911241")
	write(filepath.Join(legacy, "EVENT_LOG_1"), compress.LZFStream(plain, 0xffff))
	write(filepath.Join(legacy, "SPARK_VERSION_1.2.0"), nil)
	write(filepath.Join(legacy, "COMPRESSION_CODEC_lzf"), nil)
	write(filepath.Join(legacy, "APPLICATION_COMPLETE"), nil)
	lines := bytes.SplitAfter(bytes.TrimSuffix(plain, []byte("\n")), []byte("\n"))
	roll := filepath.Join(root, "v2", "eventlog_v2_local-1426533911241")
	write(filepath.Join(roll, "events_1_local-1426533911241"), bytes.Join(lines[:10], nil))
	write(filepath.Join(roll, "events_2_local-1426533911241.lzf"), compress.LZFStream(bytes.Join(lines[10:], nil), 4096))
	write(filepath.Join(roll, "appstatus_local-1426533911241"), nil)
	for _, p := range []string{legacy, filepath.Dir(legacy), roll, filepath.Dir(roll)} {
		lg, err := data.ReadLog(p, data.ReadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		lg.Jobs.Source = want.Jobs.Source
		if d := logtest.DiffJobs(want.Jobs, lg.Jobs); d != "" {
			t.Errorf("%s: jobs differ: %s", p, d)
		}
		if d := logtest.DiffTasks(want.Tasks, lg.Tasks); d != "" {
			t.Errorf("%s: tasks differ: %s", p, d)
		}
	}
	// In progress: the last line (ApplicationEnd) not yet written.
	running := filepath.Join(root, "v1run", "local-1")
	write(filepath.Join(running, "EVENT_LOG_1"), compress.LZFStream(bytes.Join(lines[:len(lines)-1], nil), 0xffff))
	write(filepath.Join(running, "COMPRESSION_CODEC_lzf"), nil)
	if _, err := data.ReadLog(running, data.ReadOptions{}); err == nil || !strings.Contains(err.Error(), "incomplete Spark application") {
		t.Errorf("in progress: %v", err)
	}
	// A damaged third line, named by file and line.
	bad := filepath.Join(root, "v1bad", "local-2")
	damaged := append(append(bytes.Join(lines[:2], nil), `{"Event":"SparkListenerApplicationStart","App ID":`+"\n"...), bytes.Join(lines[3:], nil)...)
	write(filepath.Join(bad, "EVENT_LOG_1"), compress.LZFStream(damaged, 0xffff))
	if _, err := data.ReadLog(bad, data.ReadOptions{Strict: true}); err == nil || !strings.Contains(err.Error(), filepath.Join(bad, "EVENT_LOG_1")+": row 3") {
		t.Errorf("damaged line: %v", err)
	}
}
