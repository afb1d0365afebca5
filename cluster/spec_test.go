package cluster

import (
	"strings"
	"testing"
)

func TestDefaultSpec(t *testing.T) {
	s := DefaultSpec()
	if len(s.Resources) != 6 || len(s.Users) != 10 {
		t.Fatalf("default spec has %d resources and %d users, want 6 and 10", len(s.Resources), len(s.Users))
	}
	if got, want := s.Capacity(), 3*16+3*2*0.01; got != want {
		t.Errorf("capacity %v, want %v", got, want)
	}
	if w := s.User("U2").EffectiveWeight(); w != 2 {
		t.Errorf("U2 weight %v, want 2", w)
	}
	if u := s.User("nobody"); u.MinShare != 0 || u.EffectiveWeight() != 1 {
		t.Errorf("unknown user %+v", u)
	}
}

func TestParseSpecErrors(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"", "empty cluster spec"},
		{"version: 2\nresources: [{name: a, count: 1, slots: 1, exec_rate: 1}]", "version"},
		{"version: 1\n", "no resource types"},
		{"version: 1\nresources: [{name: a, count: 1, slots: 0, exec_rate: 1}]", "slots must be positive"},
		{"version: 1\nresources: [{name: a, count: 1, slots: 1, exec_rate: 0}]", "exec_rate"},
		{"version: 1\nresources: [{name: a, count: -1, slots: 1, exec_rate: 1}]", "negative"},
		{"version: 1\nresources: [{name: a, count: 1, slots: 1, exec_rate: 1}, {name: a, count: 1, slots: 1, exec_rate: 1}]", "twice"},
		{"version: 1\nresources: [{name: a, count: 1, slots: 1, exec_rate: 1, speed: 3}]", "field speed not found"},
		{"version: 1\nresources: [{name: a, count: 1, slots: 1, exec_rate: 1}]\nusers: [{name: u, min_share: -1}]", "min_share"},
		{"version: 1\nresources: {name: a}", "cannot unmarshal"},
	} {
		_, err := ParseSpec([]byte(tc.yaml), "c.yaml")
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "c.yaml: ") {
			t.Errorf("%q: error %v, want one containing %q", tc.yaml, err, tc.want)
		}
	}
}
