package pipeline

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// The emitted capacity-scheduler.xml, simulated at task level on the
// embedded trace's validation window (run's own task-level validation),
// performs no worse than the current scheduler (Fair, one pool per user)
// and within 15% of the tuned LAS_MQ, whether applications name no queue
// or their class's queue. With every machine type an exclusive node label
// the two rows were 5,979 s and 2,173 s against 67.6 s for the current
// scheduler; the layout without labels, fair ordering in the default
// queue and the LAS_MQ levels under it measures 61.0 s and 59.2 s against
// 67.6 s (current) and 58.3 s (tuned LAS_MQ). The simulation is seeded, so
// the figures are exact; the bounds leave room only for small changes.
func TestEmittedCapacityPerformsAtTaskLevel(t *testing.T) {
	if testing.Short() {
		t.Skip("a full run")
	}
	in, err := Prepare(DefaultRunConfig())
	if err != nil {
		t.Fatal(err)
	}
	r := &Runner{Dir: filepath.Join(t.TempDir(), "out")}
	defer r.Close()
	res, err := Run(context.Background(), in, r)
	if err != nil {
		t.Fatal(err)
	}
	tv := res.TaskValidation
	if tv == nil {
		t.Fatal("no task-level validation")
	}
	var cur, tuned float64
	emitted := map[string]float64{}
	for _, row := range tv.Rows {
		switch {
		case strings.HasPrefix(row.Name, TaskCurrentName+" "):
			cur = row.Mean
		case row.Name == TaskTunedName:
			tuned = row.Mean
		case strings.HasPrefix(row.Name, "emitted capacity-scheduler.xml"):
			emitted[row.Name] = row.Mean
		}
		t.Logf("%-62s %9.2f s", row.Name, row.Mean)
	}
	if !(cur > 0) || !(tuned > 0) || len(emitted) != 2 {
		t.Fatalf("rows: current %v, tuned %v, emitted capacity rows %v", cur, tuned, emitted)
	}
	for name, m := range emitted {
		if m > cur {
			t.Errorf("%s: mean response %.1f s, %.2f× the current scheduler's %.1f s (want ≤ 1)", name, m, m/cur, cur)
		}
		if m > 1.15*tuned {
			t.Errorf("%s: mean response %.1f s, %.2f× the tuned LAS_MQ's %.1f s (want ≤ 1.15)", name, m, m/tuned, tuned)
		}
	}
}
