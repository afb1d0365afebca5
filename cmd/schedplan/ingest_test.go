package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// csvLog writes a CSV job log with the given header and rows into a fresh
// directory and returns its path.
func csvLog(t *testing.T, name, header string, rows []string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(header+"\n"+strings.Join(rows, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// rowsOf returns n rows "j<i>,<10·i>,<f(i)>".
func rowsOf(n int, f func(i int) string) []string {
	rows := make([]string, n)
	for i := range rows {
		rows[i] = fmt.Sprintf("j%d,%d,%s", i, 10*i, f(i))
	}
	return rows
}

func normalSize(i int) string { return fmt.Sprint(1 + i%7) }

// TestDescribeRejectsUnrepresentable runs `schedplan describe` on the logs of
// issue 10 whose values cannot be represented (they made `run` spin forever,
// print +Inf or NaN, or panic in the report) and checks that each is
// rejected at ingest with the file, row and column of the value.
func TestDescribeRejectsUnrepresentable(t *testing.T) {
	prio := func(p string) []string {
		return rowsOf(200, func(i int) string {
			if i == 5 {
				return "1," + p
			}
			return "1,1"
		})
	}
	for _, tc := range []struct {
		name, header string
		rows         []string
		row          int
		col, msg     string
	}{
		{"size 1e307 among 200", "job_id,submit_time,size", append(rowsOf(200, normalSize), "jx,300,1e307"), 201, "size", "larger than 1e+12 s"},
		{"size 1e308 among 200", "job_id,submit_time,size", append(rowsOf(200, normalSize), "jx,300,1e308"), 201, "size", "larger than 1e+12 s"},
		{"200 sizes of 1e308", "job_id,submit_time,size", rowsOf(200, func(int) string { return "1e308" }), 1, "size", "larger than 1e+12 s"},
		{"all sizes 0", "job_id,submit_time,size", rowsOf(200, func(int) string { return "0" }), 0, "size", "every job has size 0"},
		{"submit 1e308", "job_id,submit_time,size", append(rowsOf(200, normalSize), "jx,1e308,1"), 201, "submit_time", "later than 1e+11 s"},
		{"submit near 1e15", "job_id,submit_time,size", []string{"a,1e15,1", "b,1.000000000001e15,2"}, 1, "submit_time", "later than 1e+11 s"},
		{"int64-max bytes", "job_id,submit_time,input_bytes", rowsOf(200, func(int) string { return "9223372036854775807" }), 1, "input_bytes", "larger than 9007199254740992 B"},
		{"priority 0", "job_id,submit_time,size,priority", prio("0"), 6, "priority", "outside 1..10000"},
		{"priority -5", "job_id,submit_time,size,priority", prio("-5"), 6, "priority", "outside 1..10000"},
		{"priority 2^31-1", "job_id,submit_time,size,priority", prio("2147483647"), 6, "priority", "outside 1..10000"},
		{"start before submit", "job_id,submit_time,start_time,finish_time,size", []string{"a,1,2,3,1", "b,10,9,12,1"}, 2, "start_time", "before the submit time"},
		{"finish before start", "job_id,submit_time,start_time,finish_time,size", []string{"a,1,5,4,1"}, 1, "finish_time", "before the start time"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := csvLog(t, "bad.csv", tc.header, tc.rows)
			out, err := runCmd(t, []string{"describe"}, "--trace", p)
			if err == nil {
				t.Fatalf("accepted:\n%s", out)
			}
			want := p + ": "
			if tc.row > 0 {
				want += fmt.Sprintf("row %d: ", tc.row)
			}
			want += fmt.Sprintf("column %q: ", tc.col)
			if msg := err.Error(); !strings.HasPrefix(msg, want) || !strings.Contains(msg, tc.msg) {
				t.Errorf("error %q\nwant %q ... %q", msg, want, tc.msg)
			}
		})
	}
}

// TestDescribeErrorsArePrintable checks that a file name holding terminal
// escape sequences reaches the error message quoted, not raw (issue 10:
// user-provided strings printed raw to the terminal).
func TestDescribeErrorsArePrintable(t *testing.T) {
	p := csvLog(t, "evil\x1b]0;pwned\x07\x1b[2J.csv", "job_id,submit_time,size", []string{"a,1,-1"})
	_, err := runCmd(t, []string{"describe"}, "--trace", p)
	if err == nil {
		t.Fatal("a negative size was accepted")
	}
	if msg := err.Error(); strings.ContainsAny(msg, "\x1b\x07") || !strings.Contains(msg, `\x1b]0;pwned\a\x1b[2J.csv`) {
		t.Errorf("error %q shows the file name raw or not at all", msg)
	}
}

// TestDescribeRefusesLargeNonParquet checks that a 1 GiB file named .parquet
// that is not Parquet is refused from its magic bytes, without being read
// (issue 10: "a 3 GB file is read whole before its magic is checked").
func TestDescribeRefusesLargeNonParquet(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big.parquet")
	if err := os.WriteFile(p, []byte("job_id,submit_time\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(p, 1<<30); err != nil { // sparse: nothing stored
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := runCmd(t, []string{"describe"}, "--trace", p)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "not a Parquet file (no PAR1 magic at the start)") {
		t.Errorf("error %v", err)
	}
	if n := after.TotalAlloc - before.TotalAlloc; n > 64<<20 {
		t.Errorf("allocated %d MiB to refuse the file", n>>20)
	}
}
