package runreport

import (
	"strings"
	"testing"

	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/tunedeploy"
	"github.com/schedplan/schedplan/pipeline/tuner"
	"github.com/schedplan/schedplan/pipeline/validation"
)

// The emitted capacity file's rows get their own verdict against the
// current scheduler, and a row that loses says so: the tuned policy
// beating Fair must not stand for a deployed file that does not.
func TestEmittedVerdict(t *testing.T) {
	tv := &validation.TaskValidation{Current: "fair:pool=user", Rows: []validation.ValidationRow{
		{Name: "fifo", Mean: 300},
		{Name: validation.TaskCurrentName + " (fair, one pool per user)", Mean: 100},
		{Name: validation.TaskEmittedCapacityName + ", no queue named", Mean: 80},
		{Name: validation.TaskEmittedCapacityName + ", jobs name their class queue", Mean: 101},
		{Name: validation.TaskTunedName, Mean: 90},
	}}
	v := tv.EmittedVerdict()
	for _, want := range []string{"no queue named beats it by +20.0% (80 s against 100 s)", "jobs name their class queue does NOT beat it: -1.0% (101 s against 100 s)"} {
		if !strings.Contains(v, want) {
			t.Errorf("verdict %q lacks %q", v, want)
		}
	}
	tv.Rows = tv.Rows[:2]
	if v := tv.EmittedVerdict(); v != "" {
		t.Errorf("no emitted rows: verdict %q, want none", v)
	}
}

// --require-improvement passes only on the one verdict's deploy: a keep
// fails with the verdict's sentence (the best candidate and its
// interval), and a result without a verdict fails.
func TestRequireImprovementUsesVerdict(t *testing.T) {
	v := &tunedeploy.DeployVerdict{Verdict: bundle.VerdictKeep, Candidate: "capacity-scheduler.xml, LAS_MQ", Family: tunedeploy.FamilyCapacity, File: tunedeploy.FamilyCapacity, CurrentName: "fair, one pool per user",
		Objective: tuner.MinMean, Mean: -0.02, Improvement: 0.02, Interval: tuner.Interval{Available: true, Lo: -0.05, Hi: 0.01, Level: 0.95}, Chunks: make([]tunedeploy.DeployChunk, 4), Seeds: make([]uint64, 10),
		Reason: "on the validation window the interval's upper end (+1.00%) is not below 0"}
	res := &RunResult{Deploy: v, TaskValidation: &validation.TaskValidation{Improved: true, Improvement: 0.2}}
	err := res.RequireImprovement()
	if err == nil || !strings.Contains(err.Error(), "keep your current scheduler") || !strings.Contains(err.Error(), "[-5.00%, +1.00%]") {
		t.Errorf("a keep verdict passed the gate, or the error hides the interval: %v", err)
	}
	v.Verdict = bundle.VerdictDeploy
	if err := res.RequireImprovement(); err != nil {
		t.Errorf("a deploy verdict failed the gate: %v", err)
	}
	if err := (&RunResult{Improved: true}).RequireImprovement(); err == nil {
		t.Error("a result without a verdict passed the gate")
	}
}
