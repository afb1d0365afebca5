// Package logtest holds what the tests of the log readers (data/spark,
// data/swf, …, and data/logs) share: golden files of what a reader makes
// of a sample, the guarantees every reader keeps on any input (the fuzz
// targets' check), and how a bad record must be reported. It is imported
// by tests only.
//
// It imports data.
package logtest

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/data"
)

// update (-update) rewrites the golden files.
var update = flag.Bool("update", false, "rewrite the golden files of the log readers")

// Golden reads a sample log and compares what came out (summary, jobs
// and tasks as CSV) with its golden file, testdata/logs/NAME.golden. The
// golden files were checked by hand against the samples (see each format's
// test for the figures checked); -update rewrites them.
func Golden(t testing.TB, name, path string, opt data.ReadOptions) *data.Log {
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
	if *update {
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

// CheckRead asserts what every log reader guarantees on any input: an
// error is an *InputError (or a plain I/O error); an accepted log is a
// valid table that survives Parquet.
func CheckRead(t testing.TB, content []byte, f data.Format) {
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
	if d := DiffJobs(j, back); d != "" {
		t.Fatalf("Parquet round trip: %s", d)
	}
}

// CheckBadRecord asserts that a malformed record is dropped and named by
// file and line in the summary, and is an error naming them in strict
// mode.
func CheckBadRecord(t testing.TB, f data.Format, content, file string, line int, col string) {
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

// DiffJobs says how two tables differ, "" when their CSV renderings (every
// column, every value exactly) are the same.
func DiffJobs(a, b *data.Jobs) string {
	return diffCSV("tables", func(w io.Writer) error { return data.Write(w, a, data.FormatCSV) },
		func(w io.Writer) error { return data.Write(w, b, data.FormatCSV) })
}

// DiffTasks is DiffJobs for tasks tables.
func DiffTasks(a, b *data.Tasks) string {
	return diffCSV("tasks", func(w io.Writer) error { return data.WriteTasks(w, a, data.FormatCSV) },
		func(w io.Writer) error { return data.WriteTasks(w, b, data.FormatCSV) })
}

// diffCSV compares what x and y write: "" when the same, else both.
func diffCSV(what string, x, y func(io.Writer) error) string {
	var bx, by bytes.Buffer
	if err := x(&bx); err != nil {
		return err.Error()
	}
	if err := y(&by); err != nil {
		return err.Error()
	}
	if !bytes.Equal(bx.Bytes(), by.Bytes()) {
		return fmt.Sprintf("the %s differ:\n%s\nand\n%s", what, bx.String(), by.String())
	}
	return ""
}
