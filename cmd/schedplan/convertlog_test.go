package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/data"
)

// TestConvertSparkEventLogDir runs the command of the issue,
//
//	schedplan convert --format spark-eventlog DIR -o jobs.parquet --tasks tasks.parquet
//
// on a directory holding the real Spark 1.2 event log of data's testdata,
// and checks the written tables: one job, eight tasks, 0.12 s of executor
// run time (8 × 15 ms in the log).
func TestConvertSparkEventLogDir(t *testing.T) {
	dir := t.TempDir()
	logs := filepath.Join(dir, "spark-events")
	os.Mkdir(logs, 0o755)
	b, err := os.ReadFile("../../data/testdata/logs/spark/local-1426633911242")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(logs, "local-1426633911242"), b, 0o644)
	jobs, tasks := filepath.Join(dir, "jobs.parquet"), filepath.Join(dir, "tasks.parquet")
	out, err := convertCLI(t, "convert", "--format", "spark-eventlog", logs, "-o", jobs, "--tasks", tasks)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "1 jobs, 8 tasks kept") || !strings.Contains(out, "wrote 8 tasks") {
		t.Errorf("output:\n%s", out)
	}
	j, err := data.ReadFile(jobs, data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, _ := j.ReduceTasks.At(0)
	rs, _ := j.ReduceTaskSeconds.At(0)
	if j.Len() != 1 || r != 8 || rs != 0.12 {
		t.Errorf("jobs: %d rows, %d tasks, %v s", j.Len(), r, rs)
	}
	tk, err := data.ReadTasksFile(tasks, data.ReadOptions{})
	if err != nil || tk.Len() != 8 {
		t.Fatalf("tasks: %v", err)
	}
	// Existing outputs are kept without --force; --spark-job is checked.
	if _, err := convertCLI(t, "convert", logs, "-o", jobs); err == nil {
		t.Error("overwrote without --force")
	}
	if _, err := convertCLI(t, "convert", logs, "-o", filepath.Join(dir, "x.csv"), "--spark-job", "stage"); err == nil || !strings.Contains(err.Error(), "--spark-job") {
		t.Errorf("--spark-job stage: %v", err)
	}
	if _, err := convertCLI(t, "convert", "--trace", "embedded:fb2009-50", "-o", filepath.Join(dir, "y.csv"), "--tasks", filepath.Join(dir, "t.csv")); err == nil || !strings.Contains(err.Error(), "--tasks") {
		t.Errorf("--tasks on a job log without tasks: %v", err)
	}
}

// TestConvertEveryLogFormat converts each format's sample through the CLI
// with --format, as the README's table shows.
func TestConvertEveryLogFormat(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		format, path string
		jobs         int
	}{
		{"spark-eventlog", "spark/app-synthetic-3x", 1},
		{"jhist", "job_1700000000000_0001-1700000000000-bob-word+count-1700000030000-2-1-SUCCEEDED-prod-1700000002000.jhist", 1},
		{"rm-app-summary", "rm-app-summary.log", 2},
		{"sls", "sls/inputsls.json", 2},
		{"rumen", "sls/rumen.json", 1},
		{"google-2019", "google-2019", 2},
		{"alibaba-2018", "alibaba", 2},
		{"swf", "sample.swf", 4},
		{"swim-full", "sample.swimfull.tsv", 3},
	} {
		out := filepath.Join(dir, c.format+".csv")
		msg, err := convertCLI(t, "convert", "--format", c.format, filepath.Join("../../data/testdata/logs", c.path), "-o", out)
		if err != nil {
			t.Errorf("%s: %v\n%s", c.format, err, msg)
			continue
		}
		j, err := data.ReadFile(out, data.ReadOptions{})
		if err != nil || j.Len() != c.jobs {
			t.Errorf("%s: %v, want %d jobs", c.format, err, c.jobs)
		}
	}
}
