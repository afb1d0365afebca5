package sweep

import (
	"strings"
	"testing"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
)

func TestParseShard(t *testing.T) {
	for _, tc := range []struct {
		in   string
		i, n int
	}{{"0/8", 0, 8}, {" 3 / 4 ", 3, 4}, {"0/1", 0, 1}, {"9999/10000", 9999, MaxShards}} {
		i, n, err := ParseShard(tc.in)
		if err != nil || i != tc.i || n != tc.n {
			t.Errorf("%q: %d/%d, %v; want %d/%d", tc.in, i, n, err, tc.i, tc.n)
		}
	}
	for _, bad := range []string{"", "1", "0/0", "1/1", "-1/4", "x/4", "0/99999999999", "0/10001"} {
		if _, _, err := ParseShard(bad); err == nil || !strings.Contains(err.Error(), "shard") {
			t.Errorf("%q: error %v, want one naming --shard", bad, err)
		}
	}
}

// A cluster spec without a name: field is named "cluster spec", not
// "cluster spec " followed by nothing.
func TestTaskClusterUnnamedSpec(t *testing.T) {
	for _, tc := range []struct{ name, want string }{{"", "cluster spec: "}, {"lab", "cluster spec lab: "}} {
		spec := &cluster.Spec{Name: tc.name, Resources: []cluster.ResourceType{{Name: "a", Count: 1, Slots: 0}}}
		_, err := tasklevel.TaskCluster(spec)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("name %q: error %v, want one starting %q", tc.name, err, tc.want)
		}
	}
}
