package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// tune --policy hpfsp tunes FAIR_LIMIT at task level on the embedded
// trace's tuning window and prints every candidate with the units; other
// policies are refused by name.
func TestTuneHPFSPPolicy(t *testing.T) {
	out, err := runCmd(t, []string{"tune"}, "--policy", "hpfsp", "--trace", "embedded:fb2009-50")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"fair_limit (tasks/stage)", "tuned H-PFSP: hpfsp:fair_limit=", "tasks scheduled per stage", "ewma estimator"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	out, err = runCmd(t, []string{"tune"}, "--policy", "hpfsp", "--trace", "embedded:fb2009-50", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var got struct {
		Best struct {
			FairLimit int `json:"fair_limit"`
		} `json:"best"`
		Evals []any `json:"evaluations"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || len(got.Evals) == 0 {
		t.Errorf("--json: %v, %d evaluations:\n%s", err, len(got.Evals), out)
	}
	if _, err := runCmd(t, []string{"tune"}, "--policy", "coshh"); err == nil || !strings.Contains(err.Error(), "--policy coshh: use las_mq") {
		t.Errorf("--policy coshh: %v", err)
	}
}
