package prism

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/schedplan/schedplan/cluster/task/internal/tasktest"
)

// A long phase-level run (PhaseSim) stops soon after its context is
// cancelled, with the context's error, as the task-level one does
// (cluster/task's TestSimulatorRunContextCancels).
func TestPhaseSimRunContextCancels(t *testing.T) {
	if testing.Short() {
		t.Skip("a long simulation")
	}
	ms := make([]Vector, 200)
	for i := range ms {
		ms[i] = Seed004Machine()
	}
	batch := make([]MixJob, 5000)
	for i := range batch {
		batch[i] = PUMAMix().Jobs[0]
	}
	jobs, err := MixPhaseJobs(batch, DefaultProfiles(), sortPeak())
	if err != nil {
		t.Fatal(err)
	}
	for i := range jobs {
		jobs[i].Arrival = float64(i)
	}
	for _, cfg := range []PhaseSimConfig{
		{Scheduler: SchedFair, Machines: ms, Heartbeat: 3, MapSlots: Seed004MapSlots, ReduceSlots: Seed004ReduceSlots, Thrash: Seed004Thrash()},
		{Scheduler: SchedPrism, Machines: ms, Heartbeat: 3, Prism: DefaultPrismConfig()},
	} {
		s, err := NewPhaseSim(cfg, jobs)
		if err != nil {
			t.Fatal(err)
		}
		after, err := tasktest.CancelAfter(50*time.Millisecond, func(ctx context.Context) error {
			_, err := s.RunContext(ctx)
			return err
		})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("%s: %v, want context.Canceled (the run went on to the end)", cfg.Scheduler, err)
		}
		after.Check(t, fmt.Sprint(cfg.Scheduler))
	}
}
