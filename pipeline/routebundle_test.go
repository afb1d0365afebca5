package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/inputs"
)

// The bundle's per-user work shares and peak applications — the tuned
// fair-scheduler.xml's knobs — come from the tuning window only: a user
// who submits only in the validation window has no share and no peak
// there, and the others' shares are of the tuning window's work.
func TestRouteBundleTuningWindowOnly(t *testing.T) {
	var b strings.Builder
	b.WriteString("job_id,submit_time,user,size\n")
	for i := 0; i < 100; i++ {
		user := "early"
		if i >= 70 { // the validation window (split 0.7): another user, 3 at once
			user = "late"
		}
		fmt.Fprintf(&b, "j%d,%d,%s,%d\n", i, 10*i, user, 25)
	}
	log := filepath.Join(t.TempDir(), "log.csv")
	if err := os.WriteFile(log, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := inputs.DefaultRunConfig()
	cfg.Trace = log
	in, err := Prepare(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if in.Split.TuneJobs != 70 {
		t.Fatalf("tuning window of %d jobs, want 70", in.Split.TuneJobs)
	}
	p := &pipelineRun{in: in}
	bd := &bundle.Bundle{Users: []bundle.UserConfig{{Name: "early", Weight: 1}, {Name: "late", Weight: 1}}}
	if err := p.routeBundle(bd); err != nil {
		t.Fatal(err)
	}
	if early, late := bd.Users[0], bd.Users[1]; early.Work != 1 || late.Work != 0 || late.PeakApps != 0 {
		t.Errorf("users early %+v, late %+v; want all the tuning window's work early's, none late's", early, late)
	}
}
