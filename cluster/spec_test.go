package cluster

import (
	"fmt"
	"github.com/schedplan/schedplan/cluster/task"
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
		{"version: 1\nresources: [{name: a, count: 0, slots: 1, exec_rate: 1}, {name: b, count: 0, slots: 2, exec_rate: 1}]", "no machines"},
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
		{"slots 1e9 on one machine", "version: 1\nresources:\n  - {name: a, count: 1, slots: 1000000000, exec_rate: 1}\n", []string{"line 3", "resources[0].slots", "(a)", "1000000000", "at most 1048576"}},
		{"machines over the limit", "version: 1\nresources:\n  - {name: a, count: 20000000, slots: 1, exec_rate: 1}\n", []string{"line 3", "resources[0].count", "16777216 machines"}},
		{"exec_rate inf", "version: 1\nresources:\n  - {name: a, count: 1, slots: 1, exec_rate: .inf}\n", []string{"line 3", "exec_rate", "+Inf"}},
		{"exec_rate tiny", "version: 1\nresources:\n  - {name: a, count: 1, slots: 1, exec_rate: 1e-300}\n", []string{"line 3", "exec_rate"}},
		{"memory negative", "version: 1\nresources:\n  - {name: a, count: 1, slots: 1, exec_rate: 1, memory_gb: -1}\n", []string{"line 3", "memory_gb", "-1"}},
		{"3,000 resource types", many.String(), []string{"line 3", "3000 resource types", "at most 256"}},
		{"two documents", res + "---\nversion: 1\nresources: []\n", []string{"line 4", "second YAML document"}},
		{"unknown user field", res + "users:\n  - {name: u, wieght: 2}\n", []string{"line 5", "wieght"}},
		{"duplicate user", res + "users:\n  - {name: u}\n  - {name: u}\n", []string{"line 6", "appears twice"}},
		{"heartbeat negative", res + "heartbeat_s: -1\n", []string{"line 4", "heartbeat_s", "-1"}},
		{"heartbeat nan", res + "heartbeat_s: .nan\n", []string{"line 4", "heartbeat_s", "NaN"}},
		{"heartbeat a day", res + "heartbeat_s: 86400\n", []string{"line 4", "heartbeat_s", "[0.001, 3600]"}},
		{"heartbeat a nanosecond", res + "heartbeat_s: 1e-9\n", []string{"line 4", "heartbeat_s", "1e-09", "[0.001, 3600]"}},
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
	if s, err := ParseSpec([]byte(res+"heartbeat_s: 0.5\n"), "c.yaml"); err != nil || s.Heartbeat != 0.5 {
		t.Errorf("heartbeat_s 0.5: %v", err)
	}
	// Whole numbers written as floats stay accepted.
	if s, err := ParseSpec([]byte("version: 1\nresources:\n  - {name: a, count: 1e3, slots: 4.0, exec_rate: 1}\n"), "c.yaml"); err != nil || s.Resources[0].Count != 1000 {
		t.Errorf("count 1e3: %v", err)
	}
}

// The default spec is seed 003's Table 3 with units: 4TB and 400KB of
// memory, 9Gbps and 40Kbps retrieval.
func TestDefaultSpecTable3Units(t *testing.T) {
	s := DefaultSpec()
	want := []struct {
		slots       int
		exec, mem   float64
		retrieveBps float64 // bytes/s
	}{
		{2, 0.01, 4e12, 9e9 / 8}, {16, 1, 400e3, 40e3 / 8}, {16, 1, 4e12, 9e9 / 8},
		{2, 0.01, 4e12, 9e9 / 8}, {16, 1, 400e3, 40e3 / 8}, {2, 0.01, 400e3, 40e3 / 8},
	}
	for i, r := range s.Resources {
		w := want[i]
		if r.Slots != w.slots || r.ExecRate != w.exec || r.MemoryBytes() != w.mem || r.RetrieveBytesPerS() != w.retrieveBps {
			t.Errorf("%s: slots %d exec %v memory %v B retrieve %v B/s, want %+v", r.Name, r.Slots, r.ExecRate, r.MemoryBytes(), r.RetrieveBytesPerS(), w)
		}
	}
}

func TestSpecUnits(t *testing.T) {
	for _, tc := range []struct {
		mem, rate       string
		wantMem, wantBs float64
	}{
		{"400KB", "40Kbps", 400e3, 5e3},
		{"16 GiB", "3.2GB/s", 16 << 30, 3.2e9},
		{"1e3", "1e3", 1000, 1000}, // bare numbers: bytes, bytes/s
		{"2.5MB", "8bps", 2.5e6, 1},
		{"1PiB", "1MiB/s", 1 << 50, 1 << 20},
	} {
		y := "version: 1\nresources:\n  - {name: a, count: 1, slots: 1, exec_rate: 1, memory: " + tc.mem + ", retrieve_rate: " + tc.rate + "}\n"
		s, err := ParseSpec([]byte(y), "c.yaml")
		if err != nil {
			t.Errorf("%s, %s: %v", tc.mem, tc.rate, err)
			continue
		}
		r := s.Resources[0]
		if r.MemoryBytes() != tc.wantMem || r.RetrieveBytesPerS() != tc.wantBs {
			t.Errorf("%s, %s: %v B, %v B/s; want %v, %v", tc.mem, tc.rate, r.MemoryBytes(), r.RetrieveBytesPerS(), tc.wantMem, tc.wantBs)
		}
	}
	// The older fields still read, in GB and Gbps.
	s, err := ParseSpec([]byte("version: 1\nresources:\n  - {name: a, count: 1, slots: 1, exec_rate: 1, memory_gb: 2, retrieve_rate_gbps: 8}\n"), "c.yaml")
	if err != nil || s.Resources[0].MemoryBytes() != 2e9 || s.Resources[0].RetrieveBytesPerS() != 1e9 {
		t.Errorf("memory_gb, retrieve_rate_gbps: %v %+v", err, s)
	}
	// The PRISM capacity vector.
	s, err = ParseSpec([]byte("version: 1\nresources:\n  - name: a\n    count: 1\n    slots: 4\n    exec_rate: 1\n    resources: {cpu_cores: 4, mem_gb: 8, disk_mb_s: 120, net_mb_s: 125}\n"), "c.yaml")
	if err != nil || *s.Resources[0].Resources != (MachineResources{4, 8, 120, 125}) {
		t.Errorf("resources block: %v %+v", err, s)
	}
	if got := Bytes(400e3).String() + ", " + ByteRate(1.125e9).String(); got != "400 KB, 1.12 GB/s" {
		t.Errorf("String: %q", got)
	}
}

func TestSpecUnitErrors(t *testing.T) {
	const head = "version: 1\nresources:\n  - {name: a, count: 1, slots: 1, exec_rate: 1, "
	for _, tc := range []struct{ fields, want string }{
		{"memory: 4XB}", `line 3: memory "4XB": unknown unit "XB"`},
		{"memory: -1KB}", `memory "-1KB": must be a finite non-negative amount`},
		{"memory: .nan}", `memory ".nan"`},
		{"memory: 1e400}", `memory "1e400"`},
		{"memory: [1]}", "line 3: memory must be a number"},
		{"retrieve_rate: 9Gb}", `retrieve_rate "9Gb": unknown unit "Gb"`},
		{"retrieve_rate: fast}", `retrieve_rate "fast"`},
		{"memory: 1KB, memory_gb: 1}", "memory and memory_gb are both given"},
		{"retrieve_rate: 1Gbps, retrieve_rate_gbps: 1}", "retrieve_rate and retrieve_rate_gbps are both given"},
		{"memory: 2e18}", "memory must be in [0, 1e+18] bytes"},
		{"memory_gb: -3}", "memory_gb must be a number in"},
		{"resources: {cpu_cores: -1}}", "resources.cpu_cores must be a number"},
		{"resources: {net_mb_s: .inf}}", "resources.net_mb_s"},
	} {
		_, err := ParseSpec([]byte(head+tc.fields+"\n"), "c.yaml")
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "c.yaml: ") {
			t.Errorf("%s: error %v, want one containing %q", tc.fields, err, tc.want)
		}
	}
}

// The spec's per-machine and machine-count limits are the task-level
// core's.
func TestSpecLimitsAreTaskLimits(t *testing.T) {
	if MaxSlots != task.MaxContainers || MaxMachines != task.MaxNodes {
		t.Errorf("MaxSlots %d, MaxMachines %d; the task level's are %d and %d", MaxSlots, MaxMachines, task.MaxContainers, task.MaxNodes)
	}
}
