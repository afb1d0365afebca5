package cluster

import (
	"fmt"
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

// Values that were silently coerced or overflowed later (issue 10, "Bad
// input caught late, or silently coerced"): each is an error naming the
// file, the YAML line and the field with its value.
func TestParseSpecRejectsExtremes(t *testing.T) {
	const res = "version: 1\nresources:\n  - {name: a, count: 2, slots: 4, exec_rate: 1}\n"
	var many strings.Builder
	many.WriteString("version: 1\nresources:\n")
	for i := range 3000 {
		fmt.Fprintf(&many, "  - {name: r%d, count: 1, slots: 1, exec_rate: 1}\n", i)
	}
	for _, tc := range []struct {
		name, yaml string
		want       []string // substrings of the message
	}{
		{"fractional count", "version: 1\nresources:\n  - {name: a, count: 1.5, slots: 4, exec_rate: 1}\n", []string{"line 3", "count", "1.5", "whole number"}},
		{"fractional slots", "version: 1\nresources:\n  - name: a\n    count: 1\n    slots: 2.5\n    exec_rate: 1\n", []string{"line 5", "slots", "2.5"}},
		{"fractional priority", res + "users:\n  - {name: u, priority: 0.5}\n", []string{"line 5", "priority", "0.5"}},
		{"min_share 1e300", res + "users:\n  - {name: u, min_share: 1e300}\n", []string{"line 5", "users[0].min_share", "(u)", "1e+300"}},
		{"min_share above the cluster", res + "users:\n  - {name: u, min_share: 9}\n", []string{"line 5", "min_share", "[0, 8]"}},
		{"min_share inf", res + "users:\n  - {name: u, min_share: .inf}\n", []string{"line 5", "min_share", "+Inf"}},
		{"min_share nan", res + "users:\n  - {name: u, min_share: .nan}\n", []string{"line 5", "min_share", "NaN"}},
		{"min_share negative", res + "users:\n  - {name: u, min_share: -1}\n", []string{"line 5", "min_share", "-1"}},
		{"weight inf", res + "users:\n  - {name: u, weight: .inf}\n", []string{"line 5", "weight", "+Inf"}},
		{"weight nan", res + "users:\n  - {name: u, weight: .nan}\n", []string{"line 5", "weight", "NaN"}},
		{"weight negative", res + "users:\n  - {name: u, weight: -2}\n", []string{"line 5", "weight", "-2"}},
		{"weight huge", res + "users:\n  - {name: u, weight: 1e300}\n", []string{"line 5", "weight", "1e+300"}},
		{"priority negative", res + "users:\n  - {name: u, priority: -3}\n", []string{"line 5", "priority", "-3"}},
		{"count × slots overflow", "version: 1\nresources:\n  - {name: a, count: 4611686018427387904, slots: 4, exec_rate: 1}\n", []string{"line 3", "count", "4611686018427387904", "containers"}},
		{"containers over the limit", "version: 1\nresources:\n  - {name: a, count: 1000000, slots: 1000, exec_rate: 1}\n  - {name: b, count: 1000000, slots: 1000, exec_rate: 1}\n", []string{"line 4", "resources[1].count", "(b)"}},
		{"exec_rate inf", "version: 1\nresources:\n  - {name: a, count: 1, slots: 1, exec_rate: .inf}\n", []string{"line 3", "exec_rate", "+Inf"}},
		{"exec_rate tiny", "version: 1\nresources:\n  - {name: a, count: 1, slots: 1, exec_rate: 1e-300}\n", []string{"line 3", "exec_rate"}},
		{"memory negative", "version: 1\nresources:\n  - {name: a, count: 1, slots: 1, exec_rate: 1, memory_gb: -1}\n", []string{"line 3", "memory_gb", "-1"}},
		{"3,000 resource types", many.String(), []string{"line 3", "3000 resource types", "at most 256"}},
		{"two documents", res + "---\nversion: 1\nresources: []\n", []string{"line 4", "second YAML document"}},
		{"unknown user field", res + "users:\n  - {name: u, wieght: 2}\n", []string{"line 5", "wieght"}},
		{"duplicate user", res + "users:\n  - {name: u}\n  - {name: u}\n", []string{"line 6", "appears twice"}},
	} {
		_, err := ParseSpec([]byte(tc.yaml), "c.yaml")
		if err == nil {
			t.Errorf("%s: accepted", tc.name)
			continue
		}
		for _, w := range append([]string{"c.yaml: "}, tc.want...) {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", tc.name, err, w)
			}
		}
	}
	// Whole numbers written as floats stay accepted.
	if s, err := ParseSpec([]byte("version: 1\nresources:\n  - {name: a, count: 1e3, slots: 4.0, exec_rate: 1}\n"), "c.yaml"); err != nil || s.Resources[0].Count != 1000 {
		t.Errorf("count 1e3: %v", err)
	}
}
