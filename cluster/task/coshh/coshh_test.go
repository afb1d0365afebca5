package coshh

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/cluster/task/internal/tasktest"
)

// twoTypePlan is a hand plan for two machine types and two classes on a
// one-feature line: class 0 at 0, class 1 at 10; the LP suggests class 0
// for type 0 and class 1 for type 1 (seed 003 Alg. 2's SC_t).
func twoTypePlan() *COSHHPlan {
	return &COSHHPlan{Secondary: COSHHClasses{
		Centres:   [][]float64{{0}, {10}},
		Suggested: [][]int{{0}, {1}},
	}}
}

// A hand-computed run of seed 003's routing (Alg. 2) through the core:
// three machines of each of two types, one container each; job 0 (class 1)
// runs 3× slower on type 0, job 1 (class 0) 3× slower on type 1
// (Job.TypeScale). COSHH sends each job to its suggested type: both end at
// 10 s, and every map task is local (its three replicas are on the three
// machines of its suggested type, seed 003 §3.4). FIFO gives job 0 the
// first machines it meets and cannot do better.
func TestCOSHHPolicyHand(t *testing.T) {
	cl := &task.Cluster{Types: []task.MachineType{
		{Name: "A", Count: 3, Containers: 1, ExecRate: 1},
		{Name: "B", Count: 3, Containers: 1, ExecRate: 1},
	}}
	jobs := []task.Job{tasktest.MR(0, 3, 10, 0, 0, 1), tasktest.MR(0, 3, 10, 0, 0, 1)}
	jobs[0].User, jobs[1].User = "u0", "u1"
	jobs[0].TypeScale = []float64{3, 1}
	jobs[1].TypeScale = []float64{1, 3}
	c := &COSHH{Plan: twoTypePlan(), X2: [][]float64{{9}, {1}}}
	m, _, err := SimulateCOSHHMetrics(context.Background(), jobs, cl, c, nil, 1, task.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tasktest.Run(t, jobs, cl, &COSHH{Plan: twoTypePlan(), X2: [][]float64{{9}, {1}}}, task.Options{}) // invariants
	if m.MeanCompletion != 10 || m.Locality != 100 {
		t.Errorf("COSHH: mean completion %v s, locality %v%%; want 10 s and 100%%", m.MeanCompletion, m.Locality)
	}
	if len(m.Users) != 2 || m.Users[0].Name != "u0" || m.Users[0].Jobs != 1 || m.Users[0].MeanCompletion != 10 {
		t.Errorf("per-user metrics %+v", m.Users)
	}
	if o := m.Overhead; o.Arrivals != 2 || o.ByStage[COSHHFair] != 6 {
		t.Errorf("overhead %+v: want 2 arrivals and 6 fairness-stage picks", o)
	}
	f, _, err := SimulateCOSHHMetrics(context.Background(), jobs, cl, &task.FIFO{}, nil, 1, task.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !(f.MeanCompletion > 10) {
		t.Errorf("FIFO: mean completion %v s, want above COSHH's 10 s", f.MeanCompletion)
	}
}

// Job.TypeScale multiplies a task's duration on a type beyond exec_rate:
// 10 s at exec_rate 2 and scale 3 take 15 s.
func TestTypeScaleDuration(t *testing.T) {
	cl := &task.Cluster{Types: []task.MachineType{{Name: "A", Count: 1, Containers: 1, ExecRate: 2}}}
	jobs := []task.Job{tasktest.MR(0, 1, 10, 0, 0, 1)}
	jobs[0].TypeScale = []float64{3}
	r := tasktest.Run(t, jobs, cl, &task.FIFO{}, task.Options{})
	if r.Completion[0] != 15 {
		t.Errorf("completion %v s, want 15", r.Completion[0])
	}
	for _, bad := range [][]float64{{}, {1, 1}, {0}, {-1}, {math.NaN()}, {math.Inf(1)}} {
		jobs[0].TypeScale = bad
		if err := task.CheckJobs(jobs, cl); err == nil || !strings.Contains(err.Error(), "job 1") {
			t.Errorf("type scale %v: error %v, want one naming job 1", bad, err)
		}
	}
}

// The registry builds coshh with a tolerance only; the plan is required at
// Start, and bad feature vectors surface as errors, not silent idling.
func TestCOSHHPolicyErrors(t *testing.T) {
	if _, err := task.ParsePolicy("coshh:tolerance=0.2"); err != nil {
		t.Error(err)
	}
	for _, spec := range []string{"coshh:tolerance=-1", "coshh:tolerance=x", "coshh:k=3"} {
		if _, err := task.ParsePolicy(spec); err == nil {
			t.Errorf("%s: no error", spec)
		}
	}
	cl := task.Uniform(2, 1)
	jobs := []task.Job{tasktest.MR(0, 1, 10, 0, 0, 1)}
	p, _ := task.ParsePolicy("coshh")
	if _, err := task.Simulate(jobs, cl, p, task.Options{}); err == nil || !strings.Contains(err.Error(), "no plan") {
		t.Errorf("no plan: %v", err)
	}
	plan := &COSHHPlan{Secondary: COSHHClasses{Centres: [][]float64{{0}}, Suggested: [][]int{{0}}}}
	if _, err := task.Simulate(jobs, cl, &COSHH{Plan: plan}, task.Options{}); err == nil || !strings.Contains(err.Error(), "feature vectors") {
		t.Errorf("missing vectors: %v", err)
	}
	if _, _, err := SimulateCOSHHMetrics(context.Background(), jobs, cl, &COSHH{Plan: plan, X2: [][]float64{{math.NaN()}}}, nil, 1, task.Options{}); err == nil {
		t.Error("NaN feature vector: no error")
	}
}

// COSHHTypeScale: time·slots·exec_rate/compute, the memory-fit rule's +Inf
// capped at MaxCOSHHTypeScale.
func TestCOSHHTypeScale(t *testing.T) {
	got := COSHHTypeScale([]float64{math.Inf(1), 2, 1e9}, []int{16, 16, 2}, []float64{1, 1, 0.01}, 16)
	want := []float64{MaxCOSHHTypeScale, 2, MaxCOSHHTypeScale}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("scales %v, want %v", got, want)
			break
		}
	}
}
