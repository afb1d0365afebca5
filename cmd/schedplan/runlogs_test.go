package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// replicate writes n copies of a sample log into a new directory, copy k
// with every number matched by times shifted by k·shift and its name
// mapped by rename: a cluster's worth of logs from one real (or faithful)
// sample.
func replicate(t *testing.T, sample string, n int, times *regexp.Regexp, shift int64, rename func(k int, s string) string) string {
	t.Helper()
	b, err := os.ReadFile(sample)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for k := 0; k < n; k++ {
		s := times.ReplaceAllStringFunc(string(b), func(m string) string {
			i := strings.LastIndexAny(m, ":\"") + 1
			v, _ := strconv.ParseInt(m[i:], 10, 64)
			return m[:i] + strconv.FormatInt(v+int64(k)*shift, 10)
		})
		s = rename(k, s)
		if err := os.WriteFile(filepath.Join(dir, rename(k, filepath.Base(sample))), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runSummary runs `schedplan run` with args into a new directory and
// returns its output and summary.json.
func runSummary(t *testing.T, args ...string) (string, map[string]any) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "out")
	msg, err := runCmd(t, []string{"run"}, append([]string{"--out", out, "--budget", "10", "--runs", "1", "--folds", "2", "--sigmas", "0", "--load-factors", "1"}, args...)...)
	if err != nil {
		t.Fatalf("%v\n%s", err, msg)
	}
	b, err := os.ReadFile(filepath.Join(out, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	var sum map[string]any
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	html, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil || !strings.Contains(string(html), "Calibration: how much to trust the what-ifs") {
		t.Errorf("report.html lacks the calibration section: %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, "calibration.parquet")); err != nil {
		t.Error(err)
	}
	return msg, sum
}

// TestRunSparkEventLogs runs the whole pipeline on a directory of Spark
// event logs: eight copies of the real Spark 1.2 log of data's testdata
// (application ids and times shifted), with their tasks, both as
// applications and as Spark jobs, and checks the log summary, the tasks
// and the calibration against the observed times.
func TestRunSparkEventLogs(t *testing.T) {
	times := regexp.MustCompile(`"(Timestamp|Submission Time|Completion Time|Launch Time|Finish Time)":\d+`)
	dir := replicate(t, "../../data/testdata/logs/spark/local-1426633911242", 8, times, 7000, func(k int, s string) string {
		s = strings.ReplaceAll(s, "local-1426533911241", "app-"+strconv.Itoa(k)) // the App ID in the log
		return strings.ReplaceAll(s, "local-1426633911242", "app-"+strconv.Itoa(k))
	})
	for _, unit := range []string{"application", "job"} {
		msg, sum := runSummary(t, "--trace", dir, "--spark-job", unit)
		for _, want := range []string{"spark-eventlog: 192 records in 8 files: 8 jobs, 64 tasks kept", "tasks: 64 tasks of 8 jobs, from the log", "calibration against the observed times", "task level, 2 jobs"} {
			if !strings.Contains(msg, want) {
				t.Errorf("%s: output lacks %q:\n%s", unit, want, msg)
			}
		}
		wl := sum["workload"].(map[string]any)
		if wl["jobs"].(float64) != 8 || wl["tasks"].(map[string]any)["tasks"].(float64) != 64 || wl["log"].(map[string]any)["format"] != "spark-eventlog" {
			t.Errorf("%s: workload %v", unit, wl)
		}
		cal := sum["calibration"].(map[string]any)
		if cal["task"].(map[string]any)["jobs"].(float64) != 2 || cal["fluid"].(map[string]any)["trust"] == "" {
			t.Errorf("%s: calibration %v", unit, cal)
		}
	}
	// Converted to a jobs table without task columns and a tasks table,
	// then read back with --tasks: the jobs take their task counts from
	// the table, describe says so, and the run's task level runs them.
	tmp := t.TempDir()
	jobs, tasks := filepath.Join(tmp, "jobs.csv"), filepath.Join(tmp, "tasks.parquet")
	if msg, err := runCmd(t, []string{"convert"}, dir, "-o", jobs, "--tasks", tasks); err != nil {
		t.Fatalf("%v\n%s", err, msg)
	}
	msg, err := runCmd(t, []string{"describe"}, "--trace", jobs, "--tasks", tasks)
	if err != nil || !strings.Contains(msg, "64 tasks of 8 jobs, from "+tasks) || !strings.Contains(msg, "observed response time (8 jobs)") {
		t.Errorf("describe --tasks: %v\n%s", err, msg)
	}
	if msg, _ := runSummary(t, "--trace", jobs, "--tasks", tasks); !strings.Contains(msg, "tasks: 64 tasks of 8 jobs, from "+tasks) {
		t.Errorf("run --tasks:\n%s", msg)
	}
	// The flags are checked before anything runs.
	for _, c := range []struct {
		flag string
		args []string
	}{
		{"--spark-job", []string{"--trace", dir, "--spark-job", "stage"}},
		{"--spark-job", []string{"--spark-job", "job"}},           // the embedded trace is not a Spark log
		{"--keep-failed", []string{"--keep-failed"}},              // nor a log with failed jobs
		{"--tasks", []string{"--trace", dir, "--tasks", "x.csv"}}, // the log has its own tasks
	} {
		out := filepath.Join(t.TempDir(), "o")
		msg, err := runCmd(t, []string{"run"}, append([]string{"--out", out}, c.args...)...)
		if err == nil || !strings.Contains(cliError(err).Error(), c.flag) {
			t.Errorf("%v: %v\n%s", c.args, err, msg)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: wrote %s", c.args, out)
		}
	}
}

// TestRunJobHistory runs the pipeline on a directory of MapReduce job
// history files: eight copies of data's .jhist sample, job ids and times
// shifted.
func TestRunJobHistory(t *testing.T) {
	times := regexp.MustCompile(`1700000\d{6}`)
	sample := "../../data/testdata/logs/job_1700000000000_0001-1700000000000-bob-word+count-1700000030000-2-1-SUCCEEDED-prod-1700000002000.jhist"
	dir := replicate(t, sample, 8, times, 45000, func(k int, s string) string {
		return strings.ReplaceAll(s, "_0001", "_000"+strconv.Itoa(k+1))
	})
	// replicate shifts the times in the content; the names keep theirs
	// but for the job number, which is enough to tell the files apart.
	msg, sum := runSummary(t, "--trace", dir)
	if !strings.Contains(msg, "jhist: ") || !strings.Contains(msg, "8 jobs") || !strings.Contains(msg, "calibration against the observed times") {
		t.Errorf("output:\n%s", msg)
	}
	if wl := sum["workload"].(map[string]any); wl["jobs"].(float64) != 8 || wl["tasks"] == nil {
		t.Errorf("workload %v", wl)
	}
}

// TestRunKeepFailed runs an SWF log of 60 jobs, every seventh failed:
// by default the failed ones are dropped and counted in the summary, with
// --keep-failed they are simulated too.
func TestRunKeepFailed(t *testing.T) {
	var b strings.Builder
	b.WriteString("; MaxProcs: 64\n")
	for i := 1; i <= 60; i++ {
		status := 1
		if i%7 == 0 {
			status = 0
		}
		procs := 1 + (i*5)%16
		run := 20 + (i*37)%300
		b.WriteString(strconv.Itoa(i) + " " + strconv.Itoa(i*45) + " " + strconv.Itoa((i*13)%50) + " " + strconv.Itoa(run) + " " + strconv.Itoa(procs) +
			" -1 -1 " + strconv.Itoa(procs) + " 600 -1 " + strconv.Itoa(status) + " " + strconv.Itoa(1+i%4) + " 1 1 1 1 -1 -1\n")
	}
	path := filepath.Join(t.TempDir(), "cluster.swf")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	msg, sum := runSummary(t, "--trace", path)
	if !strings.Contains(msg, "swf: 61 records in 1 files: 52 jobs") || !strings.Contains(msg, "dropped 8: failed or killed job (keep with --keep-failed)") {
		t.Errorf("default:\n%s", msg)
	}
	if sum["workload"].(map[string]any)["jobs"].(float64) != 52 {
		t.Errorf("default: %v jobs", sum["workload"].(map[string]any)["jobs"])
	}
	msg, sum = runSummary(t, "--trace", path, "--keep-failed")
	if !strings.Contains(msg, "60 jobs") || strings.Contains(msg, "dropped") || sum["workload"].(map[string]any)["jobs"].(float64) != 60 {
		t.Errorf("--keep-failed:\n%s", msg)
	}
	if !strings.Contains(msg, "fluid level, 18 jobs") {
		t.Errorf("--keep-failed: no calibration on the 18 validation jobs:\n%s", msg)
	}
}
