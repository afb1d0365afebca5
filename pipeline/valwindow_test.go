package pipeline

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
)

// TestNoStageKeepsValidationWindow runs the pipeline and checks that
// Inputs keeps no validation window (64 B a job) from one stage to the
// next: at the first progress report of tune's search and of validate's
// pool, after tune-deploy and after the run, two Windows of it are two
// builds, each live while its reader holds it. The old code built it
// when tune started and kept it through tune's search, the stages
// computed beside it (tune-coshh, tune-hpfsp, bounds) and tune-deploy,
// until validate's first build: 0.19 GB of the 10 M log's tune peak,
// where tune reads it only for its comparisons after the search.
func TestNoStageKeepsValidationWindow(t *testing.T) {
	in, err := Prepare(testConfig())
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := in.Split.TuneJobs, in.NumSimJobs()
	kept := func(when string) {
		a, errA := in.Window(lo, hi)
		b, errB := in.Window(lo, hi)
		if errA != nil || errB != nil || len(a) == 0 {
			t.Errorf("%s: the validation window: %v, %v", when, errA, errB)
			return
		}
		if &a[0] == &b[0] {
			t.Errorf("%s: Inputs keeps the validation window", when)
		}
	}
	var mu sync.Mutex
	seen := map[string]bool{}
	dir := filepath.Join(t.TempDir(), "out")
	r := &Runner{Dir: dir, Progress: func(stage string, done, total int) {
		mu.Lock()
		defer mu.Unlock()
		if !seen[stage] {
			seen[stage] = true
			kept("at " + stage + "'s first progress")
		}
	}}
	in.Config.Stages.Until = "tune-deploy"
	if _, err := Run(context.Background(), in, r); err != nil {
		t.Fatal(err)
	}
	kept("after tune-deploy")
	in.Config.Stages.Until = ""
	if _, err := Run(context.Background(), in, r); err != nil {
		t.Fatal(err)
	}
	kept("after the run")
	for _, s := range []string{"tune", "validate"} {
		if !seen[s] {
			t.Errorf("%s reported no progress: not checked", s)
		}
	}
}
