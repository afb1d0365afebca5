package pipeline

import (
	"strings"
	"testing"
)

// The emitted capacity file's rows get their own verdict against the
// current scheduler, and a row that loses says so: the tuned policy
// beating Fair must not stand for a deployed file that does not.
func TestEmittedVerdict(t *testing.T) {
	tv := &TaskValidation{Current: "fair:pool=user", Rows: []ValidationRow{
		{Name: "fifo", Mean: 300},
		{Name: TaskCurrentName + " (fair, one pool per user)", Mean: 100},
		{Name: TaskEmittedCapacityName + ", no queue named", Mean: 80},
		{Name: TaskEmittedCapacityName + ", jobs name their class queue", Mean: 101},
		{Name: TaskTunedName, Mean: 90},
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

// --require-improvement at task level fails when an emitted capacity-file
// row loses to the current scheduler, even if the tuned policy wins.
func TestRequireImprovementChecksEmittedFile(t *testing.T) {
	tv := &TaskValidation{Current: "fair:pool=user", Improved: true, Improvement: 0.1, Rows: []ValidationRow{
		{Name: TaskCurrentName + " (fair-scheduler.xml)", Mean: 100},
		{Name: TaskEmittedCapacityName + ", no queue named", Mean: 80},
		{Name: TaskEmittedCapacityName + ", jobs name their class queue", Mean: 101},
		{Name: TaskTunedName, Mean: 90},
	}}
	res := &RunResult{TaskValidation: tv}
	if err := res.RequireImprovement(true); err == nil || !strings.Contains(err.Error(), "jobs name their class queue") {
		t.Errorf("a losing emitted row passed the gate: %v", err)
	}
	tv.Rows[2].Mean = 99
	if err := res.RequireImprovement(true); err != nil {
		t.Errorf("every row wins: %v", err)
	}
}
