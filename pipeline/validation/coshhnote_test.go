package validation

import (
	"bytes"
	"strings"
	"testing"
)

// On a cluster spec of one machine type COSHH's rows say that COSHH is for
// heterogeneous clusters (its row there is FIFO-like, 268 s against
// Fair's 32 s on the embedded trace's validation window); with several
// types, or for the other schedulers, they say nothing.
func TestCOSHHOneTypeNote(t *testing.T) {
	runs := []COSHHMetricRow{{Config: "coshh", Jobs: 2, MeanCompletion: 268}, {Config: "fifo", Jobs: 2, MeanCompletion: 268}, {Config: "fair", Jobs: 2, MeanCompletion: 32}}
	for _, tc := range []struct {
		types int
		want  bool
	}{{1, true}, {2, false}, {3, false}} {
		v := &COSHHValidation{K: 2, Runs: runs, MachineTypes: tc.types}
		var out bytes.Buffer
		v.WriteText(&out)
		for _, line := range strings.Split(out.String(), "\n") {
			noted := strings.Contains(line, COSHHOneTypeNote)
			switch f := strings.Fields(line); {
			case len(f) > 0 && f[0] == "coshh" && noted != tc.want:
				t.Errorf("%d types: COSHH's row %q: note %v, want %v", tc.types, line, noted, tc.want)
			case len(f) > 0 && f[0] != "coshh" && noted:
				t.Errorf("%d types: line %q carries COSHH's note", tc.types, line)
			}
		}
		if got := strings.Contains(v.TaskRowName(0), COSHHOneTypeNote); got != tc.want {
			t.Errorf("%d types: task-level row %q: note %v, want %v", tc.types, v.TaskRowName(0), got, tc.want)
		}
		if v.TaskRowName(1) != COSHHRowNames[1] || v.TaskRowName(2) != COSHHRowNames[2] {
			t.Errorf("%d types: FIFO's and Fair's rows renamed: %q, %q", tc.types, v.TaskRowName(1), v.TaskRowName(2))
		}
	}
}
