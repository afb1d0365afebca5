package swimfull

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

func TestSWIMFullGolden(t *testing.T) {
	// Hand-checked: job_3 is dropped (a 5-field line); job_1's 12 fields
	// give 3 maps, 1 reduce, 35.5 and 10 task-seconds.
	logtest.Golden(t, "sample.swimfull.tsv", "../testdata/logs/sample.swimfull.tsv", data.ReadOptions{Format: Name})
}

func TestSWIMFullBadRecord(t *testing.T) {
	logtest.CheckBadRecord(t, Name, "j1\tn\t1\t2\t3\t10\t5\t6\t7\t13\t1\t1\t\t\nj2\tn\t1\t2\t3\tsoon\t5\t6\t7\t13\t1\t1\t\t\n", "full.tsv", 2, "submit time")
}

func FuzzReadSWIMFull(f *testing.F) {
	b, _ := os.ReadFile("../testdata/logs/sample.swimfull.tsv")
	f.Add(b)
	f.Add([]byte("j1\tn\t1\t2\t3\t10\t5\t6\t7\t13\t1\t1\t\t\n"))
	f.Add([]byte("j1\tn\t1e30\t2\t3\t10\t5\t6\t7\t13\t1e12\t1\n"))
	f.Fuzz(func(t *testing.T, b []byte) { logtest.CheckRead(t, b, Name) })
}

// A sampled SWIM .tsv read as a full-format SWIM trace says to read it
// with --format tsv.
func TestSWIMTSVIsNotSWIMFull(t *testing.T) {
	if _, err := data.ReadLog("../testdata/corpus/swim/FB-2010_samples_24_times_1hr_withInputPaths_0_first200.tsv", data.ReadOptions{Format: Name}); err == nil || !strings.Contains(err.Error(), "--format tsv") {
		t.Errorf("swim-full: %v", err)
	}
}
