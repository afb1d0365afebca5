package rmsummary

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

func TestRMAppSummaryGolden(t *testing.T) {
	// Hand-checked: applications 1 (name with an escaped comma) and 3 are
	// kept with their vcoreSeconds as task-seconds; 2 (FAILED) and 6
	// (KILLED) are dropped, 4 has no vcoreSeconds, 5 has a bad submitTime;
	// the audit-log line is not a summary.
	logtest.Golden(t, "rm-app-summary", "../testdata/logs/rm-app-summary.log", data.ReadOptions{})
}

func TestRMAppSummaryBadRecord(t *testing.T) {
	logtest.CheckBadRecord(t, Name, "x appId=a,submitTime=1000,vcoreSeconds=5\nx appId=b,submitTime=2000,vcoreSeconds=-5\n", "rm.log", 2, "vcoreSeconds")
}

func FuzzReadRMAppSummary(f *testing.F) {
	b, _ := os.ReadFile("../testdata/logs/rm-app-summary.log")
	f.Add(b)
	f.Add([]byte("appId=a\\,b\\\\,submitTime=9223372036854775807,vcoreSeconds=9223372036854775807\n"))
	f.Fuzz(func(t *testing.T, b []byte) { logtest.CheckRead(t, b, Name) })
}
