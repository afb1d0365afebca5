package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/runreport"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
	"github.com/schedplan/schedplan/pipeline/validation"
)

// ExecTimeLoad by hand: type A has 2 containers at exec rate 1, type B one
// at rate 2. Job 0 (work 4) runs 4× slower on B: e = (1, 0.5), the whole
// cluster's rate on it is 2·1 + 1·0.5 = 2.5 and its time 1.6 s; at its
// fastest type's speed on all 3 containers 4/3 s. Job 1 (work 2, no type
// scale): rate 2·1 + 1·2 = 4, 0.5 s; fastest 2 on 3 containers, 1/3 s.
// Over the 10 s span: 0.21 and 1/6. Without type scales the load is
// OfferedLoad's on the fluid jobs at the cluster's rate.
func TestExecTimeLoadByHand(t *testing.T) {
	cl := &task.Cluster{Types: []task.MachineType{{Name: "A", Count: 1, Containers: 2, ExecRate: 1}, {Name: "B", Count: 1, Containers: 1, ExecRate: 2}}}
	stage := func(d float64) []task.Stage {
		return []task.Stage{{Tasks: []task.TaskSpec{{Duration: d, Containers: 1}}}}
	}
	jobs := []task.Job{{ID: 0, Arrival: 0, Weight: 1, Stages: stage(4), TypeScale: []float64{1, 4}}, {ID: 1, Arrival: 10, Weight: 1, Stages: stage(2)}}
	load, bound := tasklevel.ExecTimeLoad(jobs, cl)
	if math.Abs(load-0.21) > 1e-12 || math.Abs(bound-1.0/6) > 1e-12 {
		t.Errorf("ExecTimeLoad = %v, %v; want 0.21, 1/6", load, bound)
	}
	jobs[0].TypeScale = nil
	load, _ = tasklevel.ExecTimeLoad(jobs, cl)
	if want := experiment.OfferedLoad(task.FluidJobs(jobs), cl.Rate()); math.Abs(load-want) > 1e-12 {
		t.Errorf("without type scales: %v, want OfferedLoad's %v", load, want)
	}
	if l, b := tasklevel.ExecTimeLoad(jobs[:1], cl); !math.IsNaN(l) || !math.IsNaN(b) {
		t.Errorf("one job: %v, %v; want NaN (no span)", l, b)
	}
}

// Every simulated view of a run states the offered load it ran at, with
// its definition, and says when its means are of an overloaded system: the
// fluid validation window (and the load curve, whose loads are the
// window's times each factor), the task-level rows, and COSHH's rows with
// the execution-time model, which on the embedded trace's validation
// window overload Table 3's cluster (load 1.66 while the fluid window is
// at 0.47); the task-level rows run in the same model, at the same load.
func TestSimulatedViewsStateTheirLoad(t *testing.T) {
	cfg := inputs.DefaultRunConfig()
	cfg.Budget, cfg.Runs, cfg.Cluster = 40, 2, cluster.Table3Name
	in, err := Prepare(cfg)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "out")
	res, err := Run(context.Background(), in, &Runner{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	checkCapacityHeadline(t, res, dir)
	if err := in.HoldSimJobs(); err != nil { // Run drops them
		t.Fatal(err)
	}
	_, valJobs := in.Split.Windows(in.SimJobs)
	win := experiment.OfferedLoad(valJobs, in.Capacity)
	if res.ValidationLoad == nil || *res.ValidationLoad != win {
		t.Fatalf("validation_offered_load %v, want the window's %v", res.ValidationLoad, win)
	}
	b, err := os.ReadFile(filepath.Join(dir, StampDir, "validate.json"))
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		State validation.ValidationState `json:"state"`
	}
	if err := json.Unmarshal(b, &st); err != nil {
		t.Fatal(err)
	}
	for k, x := range st.State.LoadXs {
		if want := cfg.LoadFactors[k] * win; math.Abs(x-want) > 1e-12 {
			t.Errorf("load curve point %d at load %v, want %v × %v", k, x, cfg.LoadFactors[k], win)
		}
	}
	tv, cv := res.TaskValidation, res.COSHH
	if tv == nil || cv == nil || cv.OfferedLoad == nil || cv.OfferedLoadBound == nil {
		t.Fatal("no task-level or COSHH view, or COSHH's load is not stated")
	}
	if !(*cv.OfferedLoad > 1) || !(*cv.OfferedLoadBound <= *cv.OfferedLoad) {
		t.Errorf("COSHH's window: load %v, bound %v; want an overloaded window and bound ≤ load", *cv.OfferedLoad, *cv.OfferedLoadBound)
	}
	// One cluster model: the task-level rows run in COSHH's execution-time
	// model, at its load.
	if tv.OfferedLoad == nil || math.Abs(*tv.OfferedLoad / *cv.OfferedLoad - 1) > 1e-12 {
		t.Errorf("task-level load %v, COSHH's %v: want one execution-time model, one load", tv.OfferedLoad, *cv.OfferedLoad)
	}
	exec := 0
	for _, r := range tv.Rows {
		switch {
		case r.OfferedLoad == nil:
			t.Errorf("task-level row %q states no load", r.Name)
		case strings.Contains(r.Name, "exec-time model"):
			exec++
			if *r.OfferedLoad != *cv.OfferedLoad {
				t.Errorf("row %q at load %v, want COSHH's %v", r.Name, *r.OfferedLoad, *cv.OfferedLoad)
			}
		case *r.OfferedLoad != *tv.OfferedLoad:
			t.Errorf("row %q at load %v, want the task level's %v", r.Name, *r.OfferedLoad, *tv.OfferedLoad)
		}
	}
	if exec != 3 {
		t.Errorf("%d exec-time model rows, want 3", exec)
	}
	// Table 3's cluster has several machine types: COSHH's rows carry no
	// one-type note.
	if cv.MachineTypes != len(in.Spec.Resources) || cv.MachineTypes < 2 {
		t.Errorf("COSHH's view records %d machine types, the spec has %d", cv.MachineTypes, len(in.Spec.Resources))
	}
	var out bytes.Buffer
	res.WriteText(&out, dir, 0)
	text := out.String()
	for _, want := range []string{
		"validation window: offered load " + experiment.LoadText(win) + " (" + experiment.FluidLoadDef + ")",
		"task-level rows: offered load " + experiment.LoadText(*cv.OfferedLoad) + " (" + experiment.TaskLoadDef + "). OVERLOADED",
		"fifo (exec-time model)  " + experiment.LoadText(*cv.OfferedLoad) + " OVERLOADED",
		"the means are of an overloaded system",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the run's text lacks %q", want)
		}
	}
	html, err := os.ReadFile(filepath.Join(dir, "report.html"))
	if err != nil {
		t.Fatal(err)
	}
	tuneJobs, _ := in.Split.Windows(in.SimJobs)
	for _, want := range []string{"offered load = " + experiment.LoadText(win) + " × each load factor", "the window&#39;s " + experiment.LoadText(win) + " × the factor",
		"The tuning window&#39;s offered load " + experiment.LoadText(experiment.OfferedLoad(tuneJobs, in.Capacity)), experiment.LoadText(*cv.OfferedLoad) + " OVERLOADED", "no placement needs less than " + experiment.LoadText(*cv.OfferedLoadBound)} {
		if !strings.Contains(string(html), want) {
			t.Errorf("report.html lacks %q", want)
		}
	}
}

// A load at most 1, or undefined, is stated without an overload note.
func TestOverloadNote(t *testing.T) {
	for _, tc := range []struct {
		load float64
		want string
	}{{0.9, ""}, {1, ""}, {math.NaN(), ""}, {38.2, "OVERLOADED (offered load 38.2 > 1)"}} {
		if got := experiment.OverloadNote(tc.load); (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("OverloadNote(%v) = %q, want %q", tc.load, got, tc.want)
		}
	}
	if got := experiment.LoadSentence(math.NaN(), experiment.FluidLoadDef); got != "offered load undefined ("+experiment.FluidLoadDef+")" {
		t.Errorf("undefined load: %q", got)
	}
}

// schedplan bounds states the window's offered load like every other
// simulated view: the figure with its definition, marked above 1, and
// "undefined" when the jobs arrive at one instant.
func TestBoundsTextStatesLoad(t *testing.T) {
	for _, tc := range []struct {
		load float64
		want string
	}{{0.469, "offered load 0.469 (" + experiment.FluidLoadDef + ")"}, {1.5, "OVERLOADED"}, {math.NaN(), "offered load undefined"}} {
		w := &tasklevel.Window{Log: &data.Jobs{Source: "x.csv"}, Name: "validate", Capacity: 1, CapacityFrom: "given", OfferedLoad: tc.load}
		var out strings.Builder
		runreport.WriteBoundsText(&out, w, &experiment.Bounds{Jobs: 2, Capacity: 1}, nil)
		if first, _, _ := strings.Cut(out.String(), "\n"); !strings.Contains(first, tc.want) {
			t.Errorf("load %v: %q lacks %q", tc.load, first, tc.want)
		}
	}
}
