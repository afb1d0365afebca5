package validation

import "testing"

// A cut window's note names its budget, and the floor when the floor's
// jobs hold more tasks than the budget (603,454 tasks under a budget of
// 600,000 is the floor's doing, not the budget's).
func TestBudgetWhy(t *testing.T) {
	for _, tc := range []struct {
		tasks int
		want  string
	}{
		{599_000, "TaskValidateMaxTasks 600000: 599000 tasks"},
		{603_454, "TaskValidateMaxTasks 600000; its floor TaskValidateMinJobs of 5000 jobs holds 603454 tasks"},
	} {
		if got := BudgetWhy("TaskValidateMaxTasks", 600_000, "TaskValidateMinJobs", 5000, tc.tasks); got != tc.want {
			t.Errorf("%d tasks: %q, want %q", tc.tasks, got, tc.want)
		}
	}
}
