package pipeline

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/schedplan/schedplan/pipeline/validation"
)

// TestValidateRunsOnePool checks that the validate stage runs its fluid
// and task-level simulations as one pool (reported as the stage's one
// progress count), so that no phase ends on one busy core, and that the
// task level simulates its reference scheduler (the current one, whose
// completions are the deadlines) once, as the current scheduler's row:
// the pool's simulations are the fluid ones and one per task-level row —
// five table rows, the emitted capacity-scheduler.xml with the class
// queues named, and H-PFSP's three. The old stage reported the task
// level under two more names, and ran the reference twice besides, ahead
// of each task-level phase.
func TestValidateRunsOnePool(t *testing.T) {
	cfg := testConfig()
	in, err := Prepare(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	totals := map[string]int{}
	r := &Runner{Dir: filepath.Join(t.TempDir(), "out"), Progress: func(stage string, done, total int) {
		mu.Lock()
		defer mu.Unlock()
		if strings.HasPrefix(stage, "validate") {
			totals[stage] = total
		}
	}}
	res, err := Run(context.Background(), in, r)
	if err != nil {
		t.Fatal(err)
	}
	exact, sized := 0, 0
	for _, row := range res.Validation {
		if row.Sigma == 0 {
			exact++
		} else {
			sized++
		}
	}
	sigmas, factors := 0, 0
	for _, s := range cfg.Sigmas {
		if s > 0 {
			sigmas++
		}
	}
	for _, f := range cfg.LoadFactors {
		if f != 1 {
			factors++
		}
	}
	fluid := exact + sized*cfg.Runs + factors*exact
	const task = 5 + 1 + 3
	if len(totals) != 1 || totals["validate"] != fluid+task {
		t.Errorf("validate's progress counts %v, want one count, validate: %d (%d fluid simulations, %d task-level)", totals, fluid+task, fluid, task)
	}
	if sized%sigmas != 0 {
		t.Errorf("%d σ rows for %d σ values", sized, sigmas)
	}
}

// TestAddedRowsSayTheirReference checks that with --current-config the
// H-PFSP rows, whose missed deadlines count against Fair with one pool
// per user (their own reference run on the log-only jobs), say so in
// their name, since the table's column says "vs current"; the table's own
// rows do not.
func TestAddedRowsSayTheirReference(t *testing.T) {
	cfg := testConfig()
	cfg.Trace, cfg.CurrentConfig = sixUserLog(t, false), "testdata/hadoop/capacity-scheduler.xml"
	in, err := Prepare(cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), in, &Runner{Dir: filepath.Join(t.TempDir(), "out")})
	if err != nil {
		t.Fatal(err)
	}
	if res.TaskValidation == nil {
		t.Fatal("no task-level validation")
	}
	rows := res.TaskValidation.Rows
	// The table's five rows and the emitted capacity-scheduler.xml with
	// the class queues named, then the three added ones (H-PFSP, FSP with
	// exact sizes, Fair with one pool), then COSHH's comparison.
	const table, added = 6, 3
	hpfsp := false
	for k, row := range rows {
		want := k >= table && k < table+added
		if has := strings.HasSuffix(row.Name, validation.AddedRowsReferenceNote); has != want {
			t.Errorf("row %d %q (policy %s): reference note %v, want %v", k, row.Name, row.Policy, has, want)
		}
		hpfsp = hpfsp || want && strings.Contains(row.Policy, "hpfsp")
	}
	if !hpfsp {
		t.Error("no H-PFSP row among the added rows of the task-level table")
	}
}
