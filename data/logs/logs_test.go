package logs

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/data/alibaba"
	"github.com/schedplan/schedplan/data/google"
	"github.com/schedplan/schedplan/data/jhist"
	"github.com/schedplan/schedplan/data/rmsummary"
	"github.com/schedplan/schedplan/data/sls"
	"github.com/schedplan/schedplan/data/spark"
	"github.com/schedplan/schedplan/data/swf"
	"github.com/schedplan/schedplan/data/swimfull"
)

var updateGolden = flag.Bool("update", false, "rewrite the golden files of the log readers and testdata/arrowgo-v2.parquet")

// logGolden reads a sample log and compares what came out (summary, jobs
// and tasks as CSV) with its golden file, testdata/logs/NAME.golden. The
// golden files were checked by hand against the samples (see each format's
// test for the figures checked); -update rewrites them.
func logGolden(t *testing.T, name, path string, opt data.ReadOptions) *data.Log {
	t.Helper()
	lg, err := data.ReadLog(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	b.WriteString(strings.ReplaceAll(lg.Summary.String(), path, "SAMPLE"))
	b.WriteString("\n-- jobs --\n")
	if err := data.Write(&b, lg.Jobs, data.FormatCSV); err != nil {
		t.Fatal(err)
	}
	if lg.Tasks != nil {
		b.WriteString("-- tasks --\n")
		if err := data.WriteTasks(&b, lg.Tasks, data.FormatCSV); err != nil {
			t.Fatal(err)
		}
	}
	golden := filepath.Join("..", "testdata", "logs", name+".golden")
	if *updateGolden {
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(b.Bytes(), want) {
		t.Errorf("%s differs from %s:\n%s", name, golden, b.String())
	}
	return lg
}

// checkLogRead asserts what every log reader guarantees on any input: an
// error is an *InputError (or a plain I/O error); an accepted log is a
// valid table that survives Parquet.
func checkLogRead(t *testing.T, content []byte, f data.Format) {
	t.Helper()
	opt := data.ReadOptions{Format: f}
	j, err := data.ReadBytes(content, "fuzz", opt)
	if err != nil {
		var ie *data.InputError
		if !errors.As(err, &ie) {
			t.Fatalf("error is not an *InputError: %v", err)
		}
		return
	}
	if err := data.Validate(j); err != nil {
		t.Fatalf("accepted table fails validation: %v", err)
	}
	var b bytes.Buffer
	if err := data.Write(&b, j, data.FormatParquet); err != nil {
		t.Fatal(err)
	}
	back, err := data.ReadBytes(b.Bytes(), "fuzz", data.ReadOptions{Format: data.FormatParquet, Strict: true})
	if err != nil {
		t.Fatalf("Parquet written from an accepted log does not read back: %v", err)
	}
	if d := diffJobs(j, back, nil); d != "" {
		t.Fatalf("Parquet round trip: %s", d)
	}
}

// checkBadRecord asserts that a malformed record is dropped and named by
// file and line in the summary, and is an error naming them in strict
// mode.
func checkBadRecord(t *testing.T, f data.Format, content, file string, line int, col string) {
	t.Helper()
	opt := data.ReadOptions{Format: f}
	var sum *data.LogSummary
	opt.Log.Summary = func(s *data.LogSummary) { sum = s }
	lg, err := data.ReadBytes([]byte(content), file, opt)
	if err != nil {
		t.Fatalf("lenient read: %v", err)
	}
	_ = lg
	found := false
	for _, d := range sum.Dropped {
		if d.Reason == "unparseable record" && strings.HasPrefix(d.First, file+":"+strconv.Itoa(line)+": ") {
			found = true
		}
	}
	if !found {
		t.Errorf("summary does not name %s:%d: %+v", file, line, sum.Dropped)
	}
	opt.Strict = true
	_, err = data.ReadBytes([]byte(content), file, opt)
	var ie *data.InputError
	if !errors.As(err, &ie) || ie.File != file || ie.Row != line || ie.Column != col {
		t.Errorf("strict read: %v; want an error at %s row %d column %q", err, file, line, col)
	}
}

func TestSWFGolden(t *testing.T) {
	// Hand-checked: job 1 runs 3600 s on 64 processors (230400 task-s) and
	// starts 10 s after submission; job 3 has no wait time (no start) and
	// uses its 16 requested processors; job 7 keeps its summary line (700 s ×
	// 32); jobs 4 (failed) and 5 (cancelled), 6 (no run time), job 7's
	// partial line and job 8's "three" are dropped.
	lg := logGolden(t, "sample.swf", "../testdata/logs/sample.swf", data.ReadOptions{})
	if lg.Summary.Header["MaxProcs"] != "128" {
		t.Errorf("header MaxProcs = %q", lg.Summary.Header["MaxProcs"])
	}
	kept := logGolden(t, "sample.swf.keep-failed", "../testdata/logs/sample.swf", data.ReadOptions{Log: data.LogOptions{KeepFailed: true}})
	if kept.Jobs.Len() != lg.Jobs.Len()+2 {
		t.Errorf("--keep-failed kept %d jobs, want %d", kept.Jobs.Len(), lg.Jobs.Len()+2)
	}
}

func TestSWFBadRecord(t *testing.T) {
	checkBadRecord(t, swf.Name, "; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n2 5 x 10 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n", "log.swf", 3, "wait time")
	checkBadRecord(t, swf.Name, "1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n2 5 0 10\n", "log.swf", 2, "")
}

func FuzzReadSWF(f *testing.F) {
	b, _ := os.ReadFile("../testdata/logs/sample.swf")
	f.Add(b)
	f.Add([]byte("1 0 0 10 1e308 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n"))
	f.Add([]byte("1 1e300 0 1e300 3 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n"))
	f.Add([]byte("1 0 NaN 10 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n"))
	f.Fuzz(func(t *testing.T, b []byte) { checkLogRead(t, b, swf.Name) })
}

func TestSWIMFullGolden(t *testing.T) {
	// Hand-checked: job_3 is dropped (a 5-field line); job_1's 12 fields
	// give 3 maps, 1 reduce, 35.5 and 10 task-seconds.
	logGolden(t, "sample.swimfull.tsv", "../testdata/logs/sample.swimfull.tsv", data.ReadOptions{Format: swimfull.Name})
}

func TestSWIMFullBadRecord(t *testing.T) {
	checkBadRecord(t, swimfull.Name, "j1\tn\t1\t2\t3\t10\t5\t6\t7\t13\t1\t1\t\t\nj2\tn\t1\t2\t3\tsoon\t5\t6\t7\t13\t1\t1\t\t\n", "full.tsv", 2, "submit time")
}

func FuzzReadSWIMFull(f *testing.F) {
	b, _ := os.ReadFile("../testdata/logs/sample.swimfull.tsv")
	f.Add(b)
	f.Add([]byte("j1\tn\t1\t2\t3\t10\t5\t6\t7\t13\t1\t1\t\t\n"))
	f.Add([]byte("j1\tn\t1e30\t2\t3\t10\t5\t6\t7\t13\t1e12\t1\n"))
	f.Fuzz(func(t *testing.T, b []byte) { checkLogRead(t, b, swimfull.Name) })
}

const jhistSample = "../testdata/logs/job_1700000000000_0001-1700000000000-bob-word+count-1700000030000-2-1-SUCCEEDED-prod-1700000002000.jhist"

func TestJHistGolden(t *testing.T) {
	// Hand-checked: two successful map attempts (11 − 3 = 8 s and 12.5 −
	// 5.5 = 7 s: 15 map task-seconds; the failed first attempt of map 1 is a
	// task, not counted) and one reduce attempt (29 − 12.6 = 16.4 s, of which
	// shuffle 2.4 s, merge 1 s, reduce 13 s); bytes from JOB_FINISHED's
	// totalCounters.
	lg := logGolden(t, "jhist", jhistSample, data.ReadOptions{})
	if lg.Summary.Format != jhist.Name || lg.Tasks.Len() != 4 {
		t.Errorf("format %s, %d tasks", lg.Summary.Format, lg.Tasks.Len())
	}
}

func TestJHistBadRecord(t *testing.T) {
	b, _ := os.ReadFile(jhistSample)
	lines := strings.SplitAfter(string(b), "\n")
	bad := strings.Join(lines[:6], "") + "{\"type\":\"JOB_INITED\",\"event\":\n" + strings.Join(lines[6:], "")
	checkBadRecord(t, jhist.Name, bad, "job.jhist", 7, "")
}

func FuzzReadJHist(f *testing.F) {
	b, _ := os.ReadFile(jhistSample)
	f.Add(b)
	f.Add([]byte("Avro-Json\n{}\n{\"type\":\"JOB_SUBMITTED\",\"event\":{\"x\":{\"jobid\":\"j\",\"submitTime\":-1}}}\n{\"type\":\"JOB_FINISHED\",\"event\":{\"x\":{\"jobid\":\"j\",\"finishTime\":9223372036854775807}}}\n"))
	f.Fuzz(func(t *testing.T, b []byte) { checkLogRead(t, b, jhist.Name) })
}

func TestRMAppSummaryGolden(t *testing.T) {
	// Hand-checked: applications 1 (name with an escaped comma) and 3 are
	// kept with their vcoreSeconds as task-seconds; 2 (FAILED) and 6
	// (KILLED) are dropped, 4 has no vcoreSeconds, 5 has a bad submitTime;
	// the audit-log line is not a summary.
	logGolden(t, "rm-app-summary", "../testdata/logs/rm-app-summary.log", data.ReadOptions{})
}

func TestRMAppSummaryBadRecord(t *testing.T) {
	checkBadRecord(t, rmsummary.Name, "x appId=a,submitTime=1000,vcoreSeconds=5\nx appId=b,submitTime=2000,vcoreSeconds=-5\n", "rm.log", 2, "vcoreSeconds")
}

func FuzzReadRMAppSummary(f *testing.F) {
	b, _ := os.ReadFile("../testdata/logs/rm-app-summary.log")
	f.Add(b)
	f.Add([]byte("appId=a\\,b\\\\,submitTime=9223372036854775807,vcoreSeconds=9223372036854775807\n"))
	f.Fuzz(func(t *testing.T, b []byte) { checkLogRead(t, b, rmsummary.Name) })
}

func TestSLSGolden(t *testing.T) {
	// Hand-checked: Hadoop's inputsls.json: job_1's three maps run 17.043 +
	// 14.928 + 17.843 = 49.814 s; job_2's two 22.163 + 19.589 = 41.752 s.
	// sls-extra.json: the nameless job becomes sls_1 with three 20 s maps
	// (count 3, duration only: from the job's start) and one 30 s reduce;
	// job_late's task ends before it starts (line 7, dropped).
	logGolden(t, "sls-inputsls", "../testdata/logs/sls/inputsls.json", data.ReadOptions{})
	logGolden(t, "sls-extra", "../testdata/logs/sls/sls-extra.json", data.ReadOptions{Format: sls.Name})
}

func TestSLSBadRecord(t *testing.T) {
	checkBadRecord(t, sls.Name, "{\"job.id\":\"a\",\"job.start.ms\":0,\"job.tasks\":[{\"container.start.ms\":1,\"container.end.ms\":2}]}\n\n{\"job.id\":\"b\",\n\"job.start.ms\":\"soon\"}\n", "sls.json", 3, "")
	checkBadRecord(t, sls.Name, "{\"job.id\":\"a\",\"job.start.ms\":0,\"job.tasks\":[{\"container.start.ms\":1,\"container.end.ms\":2}]}\nnonsense\n", "sls.json", 2, "")
}

func FuzzReadSLS(f *testing.F) {
	for _, p := range []string{"../testdata/logs/sls/inputsls.json", "../testdata/logs/sls/sls-extra.json"} {
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	f.Add([]byte(`{"job.start.ms":1e300,"job.count":1e9,"job.tasks":[{"count":1e12}]}`))
	f.Fuzz(func(t *testing.T, b []byte) { checkLogRead(t, b, sls.Name) })
}

func TestRumenGolden(t *testing.T) {
	// Hand-checked: maps 17.043 s and 19 s (the failed attempt is a task,
	// not counted), one reduce of 58.5 s (shuffle 8.5 s, merge 1 s, reduce
	// 49 s); input = 2 × 134217728 bytes read by the maps, shuffle = 142234,
	// output = 268435456 written by the reduce; the KILLED job is dropped.
	logGolden(t, "rumen", "../testdata/logs/sls/rumen.json", data.ReadOptions{})
}

func TestRumenBadRecord(t *testing.T) {
	checkBadRecord(t, sls.RumenName, "{\"jobID\":\"j1\",\"submitTime\":1000,\"mapTasks\":[{\"attempts\":[{\"attemptID\":\"a\",\"startTime\":1000,\"finishTime\":2000,\"result\":\"SUCCESS\"}]}]}\n{\"jobID\":\"j2\",\n\"submitTime\":\"x\"}\n", "rumen.json", 2, "")
}

func FuzzReadRumen(f *testing.F) {
	b, _ := os.ReadFile("../testdata/logs/sls/rumen.json")
	f.Add(b)
	f.Add([]byte(`{"jobID":"j","submitTime":1,"mapTasks":[{"attempts":[{"attemptID":"a","startTime":1,"finishTime":4e18,"hdfsBytesRead":4e18,"result":"SUCCESS"},{"attemptID":"b","startTime":1,"finishTime":2,"hdfsBytesRead":4e18,"result":"SUCCESS"}]}]}`))
	f.Fuzz(func(t *testing.T, b []byte) { checkLogRead(t, b, sls.RumenName) })
}

func TestGoogle2019Golden(t *testing.T) {
	// Hand-checked: collection 101 runs instance 0 from 600.5 s to 609 s
	// and instance 1 twice (evicted after 4.5 s, then 606 s to 610 s): two
	// successful runs, 8.5 + 4 = 12.5 task-seconds; 104 runs one instance 14
	// s. 100 never ends in the window, 102 was killed, 103 is an alloc set,
	// line 12's time is not a number.
	lg := logGolden(t, "google-2019", "../testdata/logs/google-2019", data.ReadOptions{})
	if lg.Summary.Format != google.Name {
		t.Errorf("detected %s", lg.Summary.Format)
	}
	logGolden(t, "google-2019-collections", "../testdata/logs/google-2019/collection_events-000000000000.json", data.ReadOptions{Format: google.Name})
}

func TestGoogle2019BadRecord(t *testing.T) {
	checkBadRecord(t, google.Name, "time,type,collection_id,collection_type\n600000000,0,1,0\n610000000,FINISH,1,0\n611000000,EXPLODE,2,0\n", "coll.csv", 4, "type")
}

func FuzzReadGoogle2019(f *testing.F) {
	b, _ := os.ReadFile("../testdata/logs/google-2019/collection_events-000000000000.json")
	f.Add(b)
	f.Add([]byte("time,type,collection_id\n0,0,1\n9223372036854775806,6,1\n"))
	f.Fuzz(func(t *testing.T, b []byte) { checkLogRead(t, b, google.Name) })
}

func TestAlibaba2018Golden(t *testing.T) {
	// Hand-checked: j_1's instances: M1 runs 50 s and 59 s (map), R2 30 s
	// and J3 10 s (not the first stage: reduce): 109 and 40 task-seconds;
	// j_3's independent task runs two instances, 20 s and 29 s (its second
	// instance's retry has no times). j_2 has a Failed task, j_4 a Running
	// one, j_5's instance_num is "x"; the last instance row is short.
	logGolden(t, "alibaba-2018", "../testdata/logs/alibaba", data.ReadOptions{})
	// batch_task alone: tasks are whole tasks (containers = instance_num).
	dir := t.TempDir()
	b, _ := os.ReadFile("../testdata/logs/alibaba/batch_task.csv")
	os.WriteFile(filepath.Join(dir, "batch_task.csv"), b, 0o644)
	lg, err := data.ReadLog(filepath.Join(dir, "batch_task.csv"), data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// j_1: M1 2 instances × 60 s = 120 (map), R2 30 s and J3 10 s (reduce).
	ms, _ := lg.Jobs.MapTaskSeconds.At(0)
	rs, _ := lg.Jobs.ReduceTaskSeconds.At(0)
	if lg.Jobs.ID.At(0) != "j_1" || ms != 120 || rs != 40 {
		t.Errorf("batch_task only: %s map %v s, reduce %v s; want j_1 120, 40", lg.Jobs.ID.At(0), ms, rs)
	}
}

func TestAlibaba2018BadRecord(t *testing.T) {
	checkBadRecord(t, alibaba.Name, "M1,1,j_1,1,Terminated,1,5,100,0.5\nM1,1,j_2,1,Terminated,9,x,100,0.5\n", "batch_task.csv", 2, "end_time")
}

func FuzzReadAlibaba2018(f *testing.F) {
	b, _ := os.ReadFile("../testdata/logs/alibaba/batch_task.csv")
	f.Add(b)
	f.Add([]byte("M1,2147483647,j_1,1,Terminated,1,999999999999,1e300,0.5\n"))
	f.Fuzz(func(t *testing.T, b []byte) { checkLogRead(t, b, alibaba.Name) })
}

// TestDetectFormat checks that every sample's format is told from its
// name or content, and that the canonical formats are left to ReadFile.
func TestDetectFormat(t *testing.T) {
	for path, want := range map[string]data.Format{
		sparkReal:                                                  spark.Name,
		"../testdata/logs/spark":                                   spark.Name,
		jhistSample:                                                jhist.Name,
		"../testdata/logs/rm-app-summary.log":                      rmsummary.Name,
		"../testdata/logs/sls/inputsls.json":                       sls.Name,
		"../testdata/logs/sls/sls-extra.json":                      sls.Name,
		"../testdata/logs/sls/rumen.json":                          sls.RumenName,
		"../testdata/logs/google-2019":                             google.Name,
		"../testdata/logs/alibaba":                                 alibaba.Name,
		"../testdata/logs/alibaba/batch_task.csv":                  alibaba.Name,
		"../testdata/logs/sample.swf":                              swf.Name,
		"../testdata/logs/sample.swimfull.tsv":                     swimfull.Name,
		"../testdata/cluster-log.csv":                              data.FormatCSV,
		"../traces/FB-2009_samples_24_times_1hr_0_first50jobs.tsv": data.FormatTSV,
	} {
		got, err := data.DetectFormat(path)
		if err != nil || got != want {
			t.Errorf("DetectFormat(%s) = %q, %v; want %q", path, got, err, want)
		}
	}
	// A file of another kind says how to name its format.
	p := filepath.Join(t.TempDir(), "notes.txt")
	os.WriteFile(p, []byte("hello\n"), 0o644)
	if _, err := data.DetectFormat(p); err == nil || !strings.Contains(err.Error(), "--format") {
		t.Errorf("unknown content: %v", err)
	}
}

// diffJobs says how two tables differ, "" when their CSV renderings (every
// column, every value exactly) are the same.
func diffJobs(a, b *data.Jobs, _ []string) string {
	var x, y bytes.Buffer
	if err := data.Write(&x, a, data.FormatCSV); err != nil {
		return err.Error()
	}
	if err := data.Write(&y, b, data.FormatCSV); err != nil {
		return err.Error()
	}
	if !bytes.Equal(x.Bytes(), y.Bytes()) {
		return fmt.Sprintf("the tables differ:\n%s\nand\n%s", x.String(), y.String())
	}
	return ""
}

// diffTasks is diffJobs for tasks tables.
func diffTasks(a, b *data.Tasks) string {
	var x, y bytes.Buffer
	if err := data.WriteTasks(&x, a, data.FormatCSV); err != nil {
		return err.Error()
	}
	if err := data.WriteTasks(&y, b, data.FormatCSV); err != nil {
		return err.Error()
	}
	if !bytes.Equal(x.Bytes(), y.Bytes()) {
		return fmt.Sprintf("the tasks differ:\n%s\nand\n%s", x.String(), y.String())
	}
	return ""
}

// A sampled SWIM .tsv read as a full-format SWIM trace says to read it
// with --format tsv.
func TestSWIMTSVIsNotSWIMFull(t *testing.T) {
	if _, err := data.ReadLog("../testdata/corpus/swim/FB-2010_samples_24_times_1hr_withInputPaths_0_first200.tsv", data.ReadOptions{Format: swimfull.Name}); err == nil || !strings.Contains(err.Error(), "--format tsv") {
		t.Errorf("swim-full: %v", err)
	}
}
