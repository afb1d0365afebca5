package spark

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/snappy/xerial"
	"github.com/klauspost/compress/zstd"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/data/internal/compress"
	"github.com/schedplan/schedplan/data/internal/logtest"
)

const (
	sparkReal      = "../testdata/logs/spark/local-1426633911242"
	sparkSynthetic = "../testdata/logs/spark/app-synthetic-3x"
)

// TestSparkRealLog converts the event log of a real Spark run (Apache
// Spark's test resource local-1426633911242: spark-shell, one foreach over
// eight partitions) and checks the task count and the total executor run
// time against the log itself, counted here independently of the reader.
func TestSparkRealLog(t *testing.T) {
	raw, err := os.ReadFile(sparkReal)
	if err != nil {
		t.Fatal(err)
	}
	var wantTasks int
	var wantRunMS int64
	for _, line := range bytes.Split(bytes.TrimSpace(raw), []byte("\n")) {
		var ev map[string]any
		if err := json.Unmarshal(line, &ev); err != nil {
			t.Fatal(err)
		}
		if ev["Event"] == "SparkListenerTaskEnd" {
			wantTasks++
			wantRunMS += int64(ev["Task Metrics"].(map[string]any)["Executor Run Time"].(float64))
		}
	}
	if wantTasks != 8 || wantRunMS != 120 {
		t.Fatalf("the sample changed: %d tasks, %d ms", wantTasks, wantRunMS)
	}
	lg, err := data.ReadLog(sparkReal, data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if lg.Summary.Format != Name {
		t.Errorf("detected %s", lg.Summary.Format)
	}
	if lg.Jobs.Len() != 1 || lg.Tasks.Len() != wantTasks {
		t.Fatalf("%d jobs, %d tasks; want 1, %d", lg.Jobs.Len(), lg.Tasks.Len(), wantTasks)
	}
	m, _ := lg.Jobs.MapTasks.At(0)
	r, _ := lg.Jobs.ReduceTasks.At(0)
	ms, _ := lg.Jobs.MapTaskSeconds.At(0)
	rs, _ := lg.Jobs.ReduceTaskSeconds.At(0)
	if int(m+r) != wantTasks || ms+rs != float64(wantRunMS)/1e3 {
		t.Errorf("job has %d tasks and %v s of executor run time; the log %d and %v s", m+r, ms+rs, wantTasks, float64(wantRunMS)/1e3)
	}
	// The application ran from its start event to its end event.
	if lg.Jobs.Submit[0] != 1426633910.242 || lg.Jobs.Finish.Values[0] != 1426633945.177 {
		t.Errorf("times %v .. %v", lg.Jobs.Submit[0], lg.Jobs.Finish.Values[0])
	}
	// The same through the CLI's path: ReadFile detects the format.
	j, err := data.ReadFile(sparkReal, data.ReadOptions{})
	if err != nil || j.Len() != 1 {
		t.Fatalf("ReadFile: %v", err)
	}
}

func TestSparkGolden(t *testing.T) {
	// Hand-checked against app-synthetic-3x: the application holds two
	// successful ShuffleMapTasks (1.9 + 1.95 s of executor run time, 2000
	// input bytes, 200 + 300 shuffle bytes written) and one successful
	// ResultTask (6.5 s, 50 output bytes); the two ExceptionFailure attempts
	// are tasks but not counted. In job mode job 1 failed and is dropped
	// with its task; job 0 runs from 1704164650 s to 1704164660 s in the
	// application's YARN queue analytics (its Spark pool is etl-pool).
	logtest.Golden(t, "spark-app", sparkSynthetic, data.ReadOptions{})
	logtest.Golden(t, "spark-job", sparkSynthetic, data.ReadOptions{Log: data.LogOptions{Spark: data.SparkJob}})
	logtest.Golden(t, "spark-job-keep-failed", sparkSynthetic, data.ReadOptions{Log: data.LogOptions{Spark: data.SparkJob, KeepFailed: true}})
	logtest.Golden(t, "spark-real", sparkReal, data.ReadOptions{})
}

// sparkCodecs compress an event log the way Spark's codecs do.
func sparkCodecs(tb testing.TB) map[string]func([]byte) []byte {
	return map[string]func([]byte) []byte{
		".lz4": func(b []byte) []byte { return compress.LZ4BlockStream(b, 4096) },
		".lzf": func(b []byte) []byte { return compress.LZFStream(b, 0xffff) },
		".snappy": func(b []byte) []byte {
			// xerial framing, in 4 KiB chunks, and two streams back to back.
			var out []byte
			half := len(b) / 2
			for _, part := range [][]byte{b[:half], b[half:]} {
				var chunks []byte
				for len(part) > 0 {
					n := min(4096, len(part))
					chunks = xerial.Encode(chunks, part[:n])
					part = part[n:]
				}
				out = append(out, chunks...)
			}
			return out
		},
		".zstd": func(b []byte) []byte {
			e, _ := zstd.NewWriter(nil)
			return e.EncodeAll(b, nil)
		},
		".gz": func(b []byte) []byte {
			var buf bytes.Buffer
			w := gzip.NewWriter(&buf)
			w.Write(b)
			w.Close()
			return buf.Bytes()
		},
	}
}

// TestSparkCompressedAndRolling reads the synthetic log compressed with
// each of Spark's codecs, and as a rolling event-log directory whose files
// use different codecs, and checks that the jobs and tasks are those of the
// plain log.
func TestSparkCompressedAndRolling(t *testing.T) {
	plain, err := os.ReadFile(sparkSynthetic)
	if err != nil {
		t.Fatal(err)
	}
	want, err := data.ReadLog(sparkSynthetic, data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	same := func(name string, got *data.Log) {
		t.Helper()
		got.Jobs.Source = want.Jobs.Source
		if d := logtest.DiffJobs(want.Jobs, got.Jobs); d != "" {
			t.Errorf("%s: jobs differ: %s", name, d)
		}
		if d := logtest.DiffTasks(want.Tasks, got.Tasks); d != "" {
			t.Errorf("%s: tasks differ: %s", name, d)
		}
	}
	for ext, enc := range sparkCodecs(t) {
		p := filepath.Join(dir, "app-20240102030405-0001"+ext)
		if err := os.WriteFile(p, enc(plain), 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := data.ReadLog(p, data.ReadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", ext, err)
		}
		same(ext, got)
	}
	// A rolling directory: three event files, the second lz4, the third
	// zstd, beside Spark's appstatus file.
	roll := filepath.Join(dir, "logs", "eventlog_v2_app-20240102030405-0001")
	os.MkdirAll(roll, 0o755)
	lines := bytes.SplitAfter(plain, []byte("\n"))
	parts := [][]byte{bytes.Join(lines[:6], nil), bytes.Join(lines[6:14], nil), bytes.Join(lines[14:], nil)}
	codecs := sparkCodecs(t)
	files := map[string][]byte{
		"events_1_app-20240102030405-0001":       parts[0],
		"events_2_app-20240102030405-0001.lz4":   codecs[".lz4"](parts[1]),
		"events_10_app-20240102030405-0001.zstd": codecs[".zstd"](parts[2]),
		"appstatus_app-20240102030405-0001":      nil,
	}
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(roll, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{roll, filepath.Dir(roll)} {
		f, err := data.DetectFormat(p)
		if err != nil || f != Name {
			t.Fatalf("DetectFormat(%s) = %v, %v", p, f, err)
		}
		got, err := data.ReadLog(p, data.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		same(p, got)
	}
}

func TestSparkBadRecord(t *testing.T) {
	b, _ := os.ReadFile(sparkSynthetic)
	lines := strings.SplitAfter(string(b), "\n")
	bad := strings.Join(lines[:9], "") + `{"Event":"SparkListenerTaskEnd","Stage ID":0,"Task Info":{"Task ID":` + "\n" + strings.Join(lines[9:], "")
	logtest.CheckBadRecord(t, Name, bad, "app.log", 10, "")
	logtest.CheckBadRecord(t, Name, strings.Join(lines[:3], "")+"not json at all\n"+strings.Join(lines[3:], ""), "app.log", 4, "Event")
}

// TestSparkTruncatedLZ4 reads an lz4 log cut in its middle (a log still
// being written): what was read before the cut is kept, and the cut is in
// the summary.
func TestSparkTruncatedLZ4(t *testing.T) {
	plain, _ := os.ReadFile(sparkSynthetic)
	z := compress.LZ4BlockStream(plain, 1024)
	cut := z[:len(z)-100] // loses the last block: job 1 and the application never end
	var sum *data.LogSummary
	opt := data.ReadOptions{Format: Name, Log: data.LogOptions{Spark: data.SparkJob, Summary: func(s *data.LogSummary) { sum = s }}}
	j, err := data.ReadBytes(cut, "cut.lz4", opt)
	if err != nil {
		t.Fatal(err)
	}
	if j.Len() != 1 {
		t.Errorf("%d jobs", j.Len())
	}
	found := false
	for _, d := range sum.Dropped {
		found = found || strings.Contains(d.Reason, "truncated")
	}
	if !found {
		t.Errorf("the cut is not in the summary: %+v", sum.Dropped)
	}
}

// sparkFuzzSeeds are compact event logs for FuzzReadSparkEventLog. The real
// logs (10–17 KB) are read by the golden tests; as fuzz seeds they stalled
// the run after the baseline, because Go's minimizer tries O(n²)
// candidates for each new-coverage input of n bytes (for up to 60 s by
// default) and one exec of this target costs milliseconds (read, then a
// Parquet round trip).
func sparkFuzzSeeds() [][]byte {
	return [][]byte{
		[]byte(`{"Event":"SparkListenerApplicationStart","App Name":"n","App ID":"app-1","Timestamp":1000,"User":"u"}` + "\n" +
			`{"Event":"SparkListenerJobStart","Job ID":0,"Submission Time":1100,"Stage IDs":[0]}` + "\n" +
			`{"Event":"SparkListenerTaskEnd","Stage ID":0,"Task Info":{"Task ID":0,"Launch Time":1200,"Finish Time":3200,"Failed":false},"Task Metrics":{"Executor Run Time":1900,"Executor CPU Time":1500000000}}` + "\n" +
			`{"Event":"SparkListenerJobEnd","Job ID":0,"Completion Time":3300,"Job Result":{"Result":"JobSucceeded"}}` + "\n" +
			`{"Event":"SparkListenerApplicationEnd","Timestamp":4000}`),
		[]byte(`{"Event":"SparkListenerApplicationStart","App ID":"a","Timestamp":-5}` + "\n" + `{"Event":"SparkListenerApplicationEnd","Timestamp":1e300}`),
		[]byte(`{"Event":"SparkListenerApplicationStart","App ID":"a","Timestamp":5}` + "\n" + `{"Event":"SparkListenerTaskEnd","Stage ID":0,"Task Info":{"Task ID":1,"Launch Time":9223372036854775807,"Finish Time":9223372036854775807},"Task Metrics":{"Executor Run Time":9223372036854775807}}` + "\n" + `{"Event":"SparkListenerApplicationEnd","Timestamp":6}`),
		// Re-saved by a JSON tool (keys sorted, spaces), an attempt.
		[]byte(`{"App Attempt ID": "2", "App ID": "application_1_0001", "Event": "SparkListenerApplicationStart", "Timestamp": 1000, "User": "u"}` + "\n" +
			`{"Event": "SparkListenerTaskEnd", "Stage ID": 0, "Task Info": {"Finish Time": 1500, "Launch Time": 1200, "Task ID": 0}}` + "\n" +
			`{"Event" : "SparkListenerApplicationEnd", "Timestamp": 2000}`),
	}
}

// maxSparkFuzzSeed bounds a seed's length in bytes (see sparkFuzzSeeds).
const maxSparkFuzzSeed = 640

func TestSparkFuzzSeedsSmall(t *testing.T) {
	for i, s := range sparkFuzzSeeds() {
		if len(s) > maxSparkFuzzSeed {
			t.Errorf("seed %d is %d bytes, over %d: the fuzzer's minimizer stalls on it", i, len(s), maxSparkFuzzSeed)
		}
		if _, err := data.ReadBytes(s, "seed", data.ReadOptions{Format: Name}); err != nil && i == 0 {
			t.Errorf("seed 0 should read: %v", err)
		}
	}
}

func FuzzReadSparkEventLog(f *testing.F) {
	for _, s := range sparkFuzzSeeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) { logtest.CheckRead(t, b, Name) })
}

// A Spark job's queue is its application's YARN queue (spark.yarn.queue),
// which YARN routes by; a fair-scheduler pool inside the application
// (spark.scheduler.pool) names the queue only when no YARN queue is known
// (a standalone cluster's pools).
func TestSparkJobQueueIsYARNQueue(t *testing.T) {
	log := func(env string) string {
		return `{"Event":"SparkListenerApplicationStart","App Name":"n","App ID":"app-1","Timestamp":1000,"User":"u"}` + "\n" + env +
			`{"Event":"SparkListenerJobStart","Job ID":0,"Submission Time":1100,"Stage IDs":[0],"Properties":{"spark.scheduler.pool":"etl"}}` + "\n" +
			`{"Event":"SparkListenerTaskEnd","Stage ID":0,"Task Info":{"Task ID":0,"Launch Time":1200,"Finish Time":3200,"Failed":false},"Task Metrics":{"Executor Run Time":1900}}` + "\n" +
			`{"Event":"SparkListenerJobEnd","Job ID":0,"Completion Time":3300,"Job Result":{"Result":"JobSucceeded"}}` + "\n" +
			`{"Event":"SparkListenerApplicationEnd","Timestamp":4000}` + "\n"
	}
	for _, c := range []struct{ env, want string }{
		{`{"Event":"SparkListenerEnvironmentUpdate","Spark Properties":{"spark.yarn.queue":"prod"}}` + "\n", "prod"},
		{"", "etl"},
	} {
		opt := data.ReadOptions{Format: Name}
		opt.Log.Spark = data.SparkJob
		j, err := data.ReadBytes([]byte(log(c.env)), "app-1", opt)
		if err != nil {
			t.Fatal(err)
		}
		if q, ok := j.Queue.At(0); j.Len() != 1 || !ok || q != c.want {
			t.Errorf("env %q: queue %q (%v), want %q", c.env, q, ok, c.want)
		}
	}
}
