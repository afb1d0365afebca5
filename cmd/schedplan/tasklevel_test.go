package main

import (
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/cluster/task/hpfsp"
	"github.com/schedplan/schedplan/cluster/yarn"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline"
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/runreport"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
	"github.com/schedplan/schedplan/pipeline/tuner"
	"github.com/schedplan/schedplan/pipeline/validation"
)

// TestRunTaskLevelValidation: run simulates the YARN files it emits at task
// level (issue 12, "Validation simulates what is emitted"); simulate
// reproduces a row from the emitted file; the FIFO row equals a direct
// task.Simulate of the validation window's task jobs.
func TestRunTaskLevelValidation(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	out, err := runCmd(t, []string{"run"}, "--trace", "embedded:fb2009-50", "--out", dir, "--budget", "20", "--runs", "2")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"task-level validation", "emitted capacity-scheduler.xml", "emitted fair-scheduler.xml", "tuned las_mq (task)", "lower bounds for the task level"} {
		if !strings.Contains(out, want) {
			t.Errorf("run output lacks %q:\n%s", want, out)
		}
	}
	sum := readSummary(t, dir)
	tv := sum.TaskValidation
	// COSHH's rows (another cluster model) are checked in package pipeline.
	tv.Rows = slices.DeleteFunc(tv.Rows, func(r validation.ValidationRow) bool { return strings.HasSuffix(r.Name, "exec-time model)") })
	if tv == nil || len(tv.Rows) != 9 {
		t.Fatalf("summary.json: task_validation = %+v", tv)
	}
	row := map[string]validation.ValidationRow{}
	for _, r := range tv.Rows {
		if !(r.Mean > 0) || math.IsInf(r.Mean, 0) || r.Runs != 1 {
			t.Errorf("task-level row %+v", r)
		}
		row[r.Policy] = r
	}
	if html, _ := os.ReadFile(filepath.Join(dir, "report.html")); !strings.Contains(string(html), "Task level:") {
		t.Error("report.html has no task-level table")
	}

	// Hand check: FIFO over the validation window's task jobs, directly.
	in, err := pipeline.Prepare(inputs.RunConfig{Trace: "embedded:fb2009-50", Budget: 20})
	if err != nil {
		t.Fatal(err)
	}
	cl, err := tasklevel.TaskCluster(in.Spec)
	if err != nil {
		t.Fatal(err)
	}
	if err := in.HoldSimJobs(); err != nil { // Prepare builds none
		t.Fatal(err)
	}
	lo := in.Split.TuneJobs
	jobs, err := tasklevel.TaskJobs(in.Jobs, in.SimJobs[lo:], lo, in.Capacity, cl.Rate(), in.Config.Seed)
	if err != nil {
		t.Fatal(err)
	}
	// In the spec's execution-time model, as every task-level view.
	if err := tasklevel.ExecModelScales(jobs, in.Jobs, in.SimJobs[lo:], lo, in.Capacity, in.Spec); err != nil {
		t.Fatal(err)
	}
	r, err := task.Simulate(jobs, cl, &task.FIFO{}, task.Options{})
	if err != nil {
		t.Fatal(err)
	}
	mean := 0.0
	for i, c := range r.Completion {
		mean += (c - jobs[i].Arrival) / float64(len(jobs))
	}
	if got := row["fifo"].Mean; math.Abs(got-mean) > 1e-9*mean {
		t.Errorf("task-level FIFO mean response %v s, direct task.Simulate %v s", got, mean)
	}

	// Hand check of the tuned H-PFSP row (issue 14): the bundle's h_pfsp
	// run directly with the online estimator and the tuning window's
	// prior gives the row's mean.
	h := sum.TunedHPFSP
	bd, err := bundle.LoadBundle(filepath.Join(dir, "schedplan.yaml"))
	if err != nil || h == nil || bd.HPFSP == nil || bd.HPFSP.FairLimitUnit == "" || bd.HPFSP.Estimator != "ewma" || len(bd.HPFSP.DefaultTaskS) == 0 {
		t.Fatalf("h_pfsp: summary %+v, bundle %+v (%v)", h, bd.HPFSP, err)
	}
	hp := &hpfsp.HPFSP{FairLimit: bd.HPFSP.FairLimit, Threshold: bd.HPFSP.Threshold,
		NewEstimator: tasklevel.HPFSPEstimator(estimate.ProgressConfig{Default: bd.HPFSP.DefaultTaskS})}
	if r, err = task.Simulate(jobs, cl, hp, task.Options{}); err != nil {
		t.Fatal(err)
	}
	hmean := 0.0
	for i, c := range r.Completion {
		hmean += (c - jobs[i].Arrival) / float64(len(jobs))
	}
	if got := row[h.Spec()].Mean; math.Abs(got-hmean) > 1e-9*hmean || hp.Reports == 0 {
		t.Errorf("task-level H-PFSP (%s) mean response %v s, direct task.Simulate %v s (%d progress reports)", h.Spec(), got, hmean, hp.Reports)
	}

	// simulate runs the emitted capacity-scheduler.xml at task level (auto)
	// and gives the validation row's mean.
	capXML := filepath.Join(dir, "capacity-scheduler.xml")
	out, err = runCmd(t, []string{"simulate"}, "--trace", "embedded:fb2009-50", "--window", "validate", "--json", "--policy", "capacity:file="+capXML+",fifo")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var rep tasklevel.SimulateReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	want := row["capacity:file=capacity-scheduler.xml"].Mean
	if len(rep.Policies) != 2 || math.Abs(rep.Policies[0].Mean.Response.Mean-want) > 1e-9*want {
		t.Errorf("simulate capacity:file= mean %+v, validation row %v", rep.Policies, want)
	}
	if math.Abs(rep.Policies[1].Mean.Response.Mean-mean) > 1e-9*mean {
		t.Errorf("simulate at task level: fifo %v s, direct %v s", rep.Policies[1].Mean.Response.Mean, mean)
	}

	// yarn-controller reads the emitted file's demotions and moves an
	// application that passed its level's threshold (a fake RM).
	checkControllerOnEmitted(t, capXML)

	// --current-config: the user's file is the task-level current scheduler
	// and feeds --require-improvement; here it is the emitted fair file.
	dir2 := filepath.Join(t.TempDir(), "out2")
	out, err = runCmd(t, []string{"run"}, "--trace", "embedded:fb2009-50", "--out", dir2, "--budget", "20", "--runs", "2",
		"--current-config", filepath.Join(dir, "fair-scheduler.xml"), "--require-improvement")
	if !strings.Contains(out, "current (fair-scheduler.xml)") {
		t.Errorf("no current row of the user's file:\n%s", out)
	}
	if err != nil && !strings.Contains(err.Error(), "at task level") {
		t.Errorf("--require-improvement with --current-config did not use the task-level verdict: %v", err)
	}
	if _, err := runCmd(t, []string{"run"}, "--trace", "embedded:fb2009-50", "--out", dir2, "--current-config", capXML+".missing"); err == nil {
		t.Error("a missing --current-config was accepted")
	}
}

func TestCapacityWhatIfSimulate(t *testing.T) {
	out, err := runCmd(t, []string{"capacity"}, "--trace", "embedded:fb2009-50", "--cluster", "coshh-table3", "--what-if", "R2=+10", "--simulate")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// Each cluster's rows state the load they ran at; COSHH's, with the
	// execution-time model, overload Table 3's cluster and say so.
	for _, want := range []string{"simulated at task level", "R2=+10", "current (fair, one pool per user)", tuner.DefaultLASMQName,
		"offered load: " + experiment.TaskLoadDef, "offered load: " + experiment.ExecLoadDef, "  1.72 OVERLOADED  "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

func TestSimulateLevel(t *testing.T) {
	if _, err := runCmd(t, []string{"simulate"}, "--trace", "embedded:fb2009-50", "--policy", "nosuch"); err == nil {
		t.Error("an unknown policy was accepted")
	}
	if _, err := runCmd(t, []string{"simulate"}, "--trace", "embedded:fb2009-50", "--policy", "fifo", "--level", "bogus"); err == nil || !strings.Contains(err.Error(), "level") {
		t.Errorf("--level bogus: %v", err)
	}
	out, err := runCmd(t, []string{"simulate"}, "--trace", "embedded:fb2009-50", "--policy", "fifo,las_mq", "--level", "task")
	if err != nil || !strings.Contains(out, "task level:") {
		t.Errorf("--level task: %v\n%s", err, out)
	}
	if _, err := runCmd(t, []string{"simulate"}, "--trace", "embedded:fb2009-50", "--policy", "fair:file=/nonexistent.xml"); err == nil {
		t.Error("a missing fair:file= was accepted")
	}
}

// readSummary reads a run's summary.json.
func readSummary(t *testing.T, dir string) *runreport.RunResult {
	t.Helper()
	var sum runreport.RunResult
	b, err := os.ReadFile(filepath.Join(dir, "summary.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		t.Fatal(err)
	}
	return &sum
}

// checkControllerOnEmitted runs `yarn-controller --once` on an emitted
// capacity-scheduler.xml against a fake ResourceManager holding one
// application in the first LAS_MQ level with far more service than its
// threshold, and checks that the application is moved to a deeper level.
func checkControllerOnEmitted(t *testing.T, capXML string) {
	t.Helper()
	b, err := os.ReadFile(capXML)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := yarn.ParseCapacityScheduler(b)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := cs.Demotions()
	if err != nil || len(ds) == 0 {
		t.Fatalf("emitted file: demotions %v, %v", ds, err)
	}
	from := ds[0].From
	var moved string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPut {
			var q struct{ Queue string }
			_ = json.NewDecoder(r.Body).Decode(&q)
			moved = q.Queue
			_ = json.NewEncoder(w).Encode(q)
			return
		}
		fmt.Fprintf(w, `{"apps":{"app":[{"id":"application_1_0001","user":"u","queue":%q,"state":"RUNNING","memorySeconds":%d}]}}`,
			from.Name, int64(ds[0].After*1024*1e6))
	}))
	defer srv.Close()
	out, err := runCmd(t, []string{"yarn-controller"}, capXML, "--rm", srv.URL, "--once")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "moved application_1_0001") || moved == "" || moved == from.Name || cs.Queue(from.Parent.Path+"."+moved) == nil {
		t.Errorf("yarn-controller: output %q, moved to %q (from %s)", out, moved, from.Path)
	}
	// --json: one move a line (JSON Lines, as a long-running controller's
	// output is read), marked when dry.
	out, err = runCmd(t, []string{"yarn-controller"}, capXML, "--rm", srv.URL, "--once", "--json", "--dry-run")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	var m map[string]any
	if err != nil || len(lines) != 1 || json.Unmarshal([]byte(lines[0]), &m) != nil || m["dry_run"] != true {
		t.Errorf("--json --dry-run: %v, output %q: want one JSON line with dry_run true", err, out)
	}
	// A bad address is the flag's fault, not the file's.
	if _, err := runCmd(t, []string{"yarn-controller"}, capXML, "--rm", "rm:8088", "--once"); err == nil || !strings.HasPrefix(err.Error(), "--rm: ") {
		t.Errorf("--rm rm:8088: error %v, want one naming --rm", err)
	}
}
