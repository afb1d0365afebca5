package jhist

import (
	"os"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/data/internal/logtest"
)

// The tests read through data.ReadLog and data.ReadBytes, which need the
// format in the table (package data/logs, which registers every format,
// imports this one).
func init() { data.RegisterLogFormat(Format) }

const jhistSample = "../testdata/logs/job_1700000000000_0001-1700000000000-bob-word+count-1700000030000-2-1-SUCCEEDED-prod-1700000002000.jhist"

func TestJHistGolden(t *testing.T) {
	// Hand-checked: two successful map attempts (11 − 3 = 8 s and 12.5 −
	// 5.5 = 7 s: 15 map task-seconds; the failed first attempt of map 1 is a
	// task, not counted) and one reduce attempt (29 − 12.6 = 16.4 s, of which
	// shuffle 2.4 s, merge 1 s, reduce 13 s); bytes from JOB_FINISHED's
	// totalCounters.
	lg := logtest.Golden(t, "jhist", jhistSample, data.ReadOptions{})
	if lg.Summary.Format != Name || lg.Tasks.Len() != 4 {
		t.Errorf("format %s, %d tasks", lg.Summary.Format, lg.Tasks.Len())
	}
}

func TestJHistBadRecord(t *testing.T) {
	b, _ := os.ReadFile(jhistSample)
	lines := strings.SplitAfter(string(b), "\n")
	bad := strings.Join(lines[:6], "") + "{\"type\":\"JOB_INITED\",\"event\":\n" + strings.Join(lines[6:], "")
	logtest.CheckBadRecord(t, Name, bad, "job.jhist", 7, "")
}

func FuzzReadJHist(f *testing.F) {
	b, _ := os.ReadFile(jhistSample)
	f.Add(b)
	f.Add([]byte("Avro-Json\n{}\n{\"type\":\"JOB_SUBMITTED\",\"event\":{\"x\":{\"jobid\":\"j\",\"submitTime\":-1}}}\n{\"type\":\"JOB_FINISHED\",\"event\":{\"x\":{\"jobid\":\"j\",\"finishTime\":9223372036854775807}}}\n"))
	f.Fuzz(func(t *testing.T, b []byte) { logtest.CheckRead(t, b, Name) })
}
