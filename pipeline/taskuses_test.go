package pipeline

import (
	"testing"

	"github.com/schedplan/schedplan/cluster/task"
)

// noEstimates (the task level's list of policies that never read a job's
// Estimate) agrees with what the task registry records of each policy
// (task.LookupPolicy), until it is derived from it.
func TestNoEstimatesAgreesWithTaskRegistry(t *testing.T) {
	for _, name := range task.PolicyNames() {
		info, _ := task.LookupPolicy(name)
		if noEstimates[name] == info.Uses.Estimates {
			t.Errorf("%s: the task registry says it reads estimates: %v; pipeline's noEstimates: %v", name, info.Uses.Estimates, noEstimates[name])
		}
	}
}
