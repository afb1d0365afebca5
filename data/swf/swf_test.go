package swf

import (
	"os"
	"testing"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/data/internal/logtest"
)

// The tests read through data.ReadLog and data.ReadBytes, which need the
// format in the table (package data/logs, which registers every format,
// imports this one).
func init() { data.RegisterLogFormat(Format) }

func TestSWFGolden(t *testing.T) {
	// Hand-checked: job 1 runs 3600 s on 64 processors (230400 task-s) and
	// starts 10 s after submission; job 3 has no wait time (no start) and
	// uses its 16 requested processors; job 7 keeps its summary line (700 s ×
	// 32); jobs 4 (failed) and 5 (cancelled), 6 (no run time), job 7's
	// partial line and job 8's "three" are dropped.
	lg := logtest.Golden(t, "sample.swf", "../testdata/logs/sample.swf", data.ReadOptions{})
	if lg.Summary.Header["MaxProcs"] != "128" {
		t.Errorf("header MaxProcs = %q", lg.Summary.Header["MaxProcs"])
	}
	kept := logtest.Golden(t, "sample.swf.keep-failed", "../testdata/logs/sample.swf", data.ReadOptions{Log: data.LogOptions{KeepFailed: true}})
	if kept.Jobs.Len() != lg.Jobs.Len()+2 {
		t.Errorf("--keep-failed kept %d jobs, want %d", kept.Jobs.Len(), lg.Jobs.Len()+2)
	}
}

func TestSWFBadRecord(t *testing.T) {
	logtest.CheckBadRecord(t, Name, "; MaxProcs: 4\n1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n2 5 x 10 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n", "log.swf", 3, "wait time")
	logtest.CheckBadRecord(t, Name, "1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n2 5 0 10\n", "log.swf", 2, "")
}

func FuzzReadSWF(f *testing.F) {
	b, _ := os.ReadFile("../testdata/logs/sample.swf")
	f.Add(b)
	f.Add([]byte("1 0 0 10 1e308 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n"))
	f.Add([]byte("1 1e300 0 1e300 3 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n"))
	f.Add([]byte("1 0 NaN 10 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n1 0 0 10 1 -1 -1 1 -1 -1 1 1 1 1 1 1 -1 -1\n"))
	f.Fuzz(func(t *testing.T, b []byte) { logtest.CheckRead(t, b, Name) })
}
