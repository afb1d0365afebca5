package tasklevel

import (
	"testing"

	"github.com/schedplan/schedplan/cluster/task"
)

// The task level reports what each policy reads as the task registry
// records it (task.LookupPolicy): one place, not a second list here.
func TestTaskPolicyUsesComeFromTaskRegistry(t *testing.T) {
	r := &TaskLevel{}
	for _, name := range task.PolicyNames() {
		if name == "coshh" || name == "capacity" || name == "hpfsp" {
			continue // need a plan or a file, or are built by the pipeline
		}
		want, _ := task.LookupPolicy(name)
		got, err := r.Policy(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got.Uses != want.Uses {
			t.Errorf("%s: task level says it uses %+v, the task registry %+v", name, got.Uses, want.Uses)
		}
	}
}
