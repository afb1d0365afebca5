package validation

import (
	"strings"
	"testing"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/task"
)

func TestCOSHHPaperBaseline(t *testing.T) {
	for _, tc := range []struct {
		name    string
		policy  string
		users   []cluster.User
		want    []task.FairQueue // Fair's pools; nil for FIFO
		wantErr string
	}{
		{name: "fifo as Hadoop 1", policy: "fifo", users: []cluster.User{{Name: "a", MinShare: 5}}},
		{name: "fair pools of Table 5", policy: "fair",
			users: []cluster.User{{Name: "U1", MinShare: 5, Priority: 1}, {Name: "U2", Priority: 2}, {Name: "U3", MinShare: 4, Weight: 0.5}},
			want:  []task.FairQueue{{Name: "U1", MinShare: 5, Weight: 1}, {Name: "U2", Weight: 2}, {Name: "U3", MinShare: 4, Weight: 0.5}}},
		{name: "dotted user", policy: "fair", users: []cluster.User{{Name: "a.b", MinShare: 1}},
			want: []task.FairQueue{{Name: "a_dot_b", MinShare: 1, Weight: 1}}},
		{name: "fractional min share", policy: "fair", users: []cluster.User{{Name: "U1", MinShare: 2.5}}, wantErr: `user "U1": min_share 2.5`},
		{name: "same user twice", policy: "fair", users: []cluster.User{{Name: "U1"}, {Name: "U1"}}, wantErr: `two children named "U1"`},
		{name: "unknown policy", policy: "nope", wantErr: "nope"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := COSHHPaperBaseline(tc.policy, &cluster.Spec{Users: tc.users}, 6)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			f, ok := p.(*task.Fair)
			if tc.want == nil {
				if ok {
					t.Fatalf("%s: got Fair", tc.policy)
				}
				return
			}
			if !ok {
				t.Fatalf("%s: got %T, want *task.Fair", tc.policy, p)
			}
			if f.LocalityDelay != 0 || f.Placement != task.PlaceByUser {
				t.Errorf("delay %d, placement %v: want no delay scheduling, one pool per user", f.LocalityDelay, f.Placement)
			}
			if len(f.Root.Children) != len(tc.want) {
				t.Fatalf("pools %+v, want %+v", f.Root.Children, tc.want)
			}
			for i, q := range tc.want {
				if g := f.Root.Children[i]; g.Name != q.Name || g.MinShare != q.MinShare || g.Weight != q.Weight {
					t.Errorf("pool %d: %+v, want %+v", i, g, q)
				}
			}
		})
	}
}
