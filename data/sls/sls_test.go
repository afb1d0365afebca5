package sls

import (
	"os"
	"testing"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/data/internal/logtest"
)

// The tests read through data.ReadLog and data.ReadBytes, which need the
// format in the table (package data/logs, which registers every format,
// imports this one).
func init() {
	data.RegisterLogFormat(Format)
	data.RegisterLogFormat(Rumen)
}

func TestSLSGolden(t *testing.T) {
	// Hand-checked: Hadoop's inputsls.json: job_1's three maps run 17.043 +
	// 14.928 + 17.843 = 49.814 s; job_2's two 22.163 + 19.589 = 41.752 s.
	// sls-extra.json: the nameless job becomes sls_1 with three 20 s maps
	// (count 3, duration only: from the job's start) and one 30 s reduce;
	// job_late's task ends before it starts (line 7, dropped).
	logtest.Golden(t, "sls-inputsls", "../testdata/logs/sls/inputsls.json", data.ReadOptions{})
	logtest.Golden(t, "sls-extra", "../testdata/logs/sls/sls-extra.json", data.ReadOptions{Format: Name})
}

func TestSLSBadRecord(t *testing.T) {
	logtest.CheckBadRecord(t, Name, "{\"job.id\":\"a\",\"job.start.ms\":0,\"job.tasks\":[{\"container.start.ms\":1,\"container.end.ms\":2}]}\n\n{\"job.id\":\"b\",\n\"job.start.ms\":\"soon\"}\n", "sls.json", 3, "")
	logtest.CheckBadRecord(t, Name, "{\"job.id\":\"a\",\"job.start.ms\":0,\"job.tasks\":[{\"container.start.ms\":1,\"container.end.ms\":2}]}\nnonsense\n", "sls.json", 2, "")
}

func FuzzReadSLS(f *testing.F) {
	for _, p := range []string{"../testdata/logs/sls/inputsls.json", "../testdata/logs/sls/sls-extra.json"} {
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	f.Add([]byte(`{"job.start.ms":1e300,"job.count":1e9,"job.tasks":[{"count":1e12}]}`))
	f.Fuzz(func(t *testing.T, b []byte) { logtest.CheckRead(t, b, Name) })
}

func TestRumenGolden(t *testing.T) {
	// Hand-checked: maps 17.043 s and 19 s (the failed attempt is a task,
	// not counted), one reduce of 58.5 s (shuffle 8.5 s, merge 1 s, reduce
	// 49 s); input = 2 × 134217728 bytes read by the maps, shuffle = 142234,
	// output = 268435456 written by the reduce; the KILLED job is dropped.
	logtest.Golden(t, "rumen", "../testdata/logs/sls/rumen.json", data.ReadOptions{})
}

func TestRumenBadRecord(t *testing.T) {
	logtest.CheckBadRecord(t, RumenName, "{\"jobID\":\"j1\",\"submitTime\":1000,\"mapTasks\":[{\"attempts\":[{\"attemptID\":\"a\",\"startTime\":1000,\"finishTime\":2000,\"result\":\"SUCCESS\"}]}]}\n{\"jobID\":\"j2\",\n\"submitTime\":\"x\"}\n", "rumen.json", 2, "")
}

func FuzzReadRumen(f *testing.F) {
	b, _ := os.ReadFile("../testdata/logs/sls/rumen.json")
	f.Add(b)
	f.Add([]byte(`{"jobID":"j","submitTime":1,"mapTasks":[{"attempts":[{"attemptID":"a","startTime":1,"finishTime":4e18,"hdfsBytesRead":4e18,"result":"SUCCESS"},{"attemptID":"b","startTime":1,"finishTime":2,"hdfsBytesRead":4e18,"result":"SUCCESS"}]}]}`))
	f.Fuzz(func(t *testing.T, b []byte) { logtest.CheckRead(t, b, RumenName) })
}
