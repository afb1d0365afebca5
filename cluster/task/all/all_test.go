package all_test

import (
	"slices"
	"testing"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/cluster/task"
	_ "github.com/schedplan/schedplan/cluster/task/all"
)

// Importing all registers the policies of their own packages beside
// task's, each with its description and what it reads.
func TestAllRegistered(t *testing.T) {
	names := task.PolicyNames()
	for _, name := range []string{"coshh", "hpfsp", "fifo", "fair", "capacity", "las_mq"} {
		if !slices.Contains(names, name) {
			t.Errorf("%s is not registered (registered: %v)", name, names)
		}
	}
	for _, c := range []struct {
		name                string
		estimates, clusterU bool
	}{{"coshh", true, true}, {"hpfsp", true, false}} {
		info, ok := task.LookupPolicy(c.name)
		if !ok || info.Doc == "" || info.Uses.Estimates != c.estimates || info.Uses.Cluster != c.clusterU {
			t.Errorf("%s: LookupPolicy gives %+v, %v", c.name, info, ok)
		}
		if _, err := task.ParsePolicy(c.name); err != nil {
			t.Errorf("%s: %v", c.name, err)
		}
	}
}

// Register refuses a name twice.
func TestRegisterTwicePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("registering coshh again did not panic")
		}
	}()
	task.Register("coshh", "again", sim.Uses{}, func(string, map[string]string) (task.Policy, error) { return nil, nil })
}
