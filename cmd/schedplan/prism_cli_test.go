package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/pipeline/tasklevel"
)

// simulate --policy prism (auto: task level) runs PRISM and its two
// baselines on the phase model with the shipped profiles and prints seed
// 004's metrics with their units; --json carries them too.
func TestSimulatePrism(t *testing.T) {
	out, err := runCmd(t, []string{"simulate"}, "--trace", "embedded:fb2009-50", "--policy", "prism,fair-slots,yarn-containers:map=4,reduce=2")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"task level:", "phase level (seed 004 model", "mean job running time (s)", "disk util", "unfairness (CV of ANP)", "prism", "fair-slots", "yarn-containers:map=4,reduce=2"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	js, err := runCmd(t, []string{"simulate"}, "--trace", "embedded:fb2009-50", "--policy", "prism,fair-slots", "--json")
	if err != nil {
		t.Fatal(err)
	}
	var rep tasklevel.SimulateReport
	if err := json.Unmarshal([]byte(js), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Phase) != 2 || rep.Phase[0].Policy != "prism" || rep.Phase[1].Policy != "fair-slots" {
		t.Fatalf("phase metrics %+v", rep.Phase)
	}
	for _, m := range rep.Phase {
		if !(m.MeanRunTime > 0) || m.MeanANP == nil || !(*m.MeanANP > 0 && *m.MeanANP <= 1) || m.ANPJobs == 0 {
			t.Errorf("%s: %+v", m.Policy, m)
		}
		for _, d := range []string{"cpu", "mem", "disk", "net"} {
			if u, ok := m.Utilisation[d]; !ok || !(u >= 0 && u <= 1) {
				t.Errorf("%s: %s utilisation %v", m.Policy, d, u)
			}
		}
	}
	// The table's mean response is the phase model's mean job running time.
	if p := rep.Policies[0]; p.Policy != "prism" || p.Mean.Response.Mean != rep.Phase[0].MeanRunTime {
		t.Errorf("prism: table mean %v s, phase mean %v s", p.Mean.Response.Mean, rep.Phase[0].MeanRunTime)
	}
	for _, bad := range []string{"prism:k=-1", "fair-slots:map=0", "yarn-containers:cores=2", "prism:alpha=NaN"} {
		if _, err := runCmd(t, []string{"simulate"}, "--trace", "embedded:fb2009-50", "--policy", bad); err == nil {
			t.Errorf("%s: accepted", bad)
		}
	}
}
