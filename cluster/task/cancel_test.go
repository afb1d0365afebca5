package task_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/cluster/task/internal/tasktest"
)

// A long task-level run stops soon after its context is cancelled, with
// the context's error, instead of simulating to the end; an uncancelled
// context changes nothing.
func TestSimulatorRunContextCancels(t *testing.T) {
	if testing.Short() {
		t.Skip("a long simulation")
	}
	jobs, cl := tasktest.MRWorkload(20000, 100, 3) // about 2 M task events, seconds of simulation
	var s task.Simulator
	for _, spec := range []string{"fifo", "fair"} {
		p, err := task.ParsePolicy(spec)
		if err != nil {
			t.Fatal(err)
		}
		after, err := tasktest.CancelAfter(50*time.Millisecond, func(ctx context.Context) error {
			_, err := s.RunContext(ctx, jobs, cl, p, task.Options{})
			return err
		})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("%s: %v, want context.Canceled (the run went on to the end)", spec, err)
		}
		after.Check(t, spec)
	}
	// The Simulator is whole after a cancelled run.
	small := jobs[:200]
	want, err := task.Simulate(small, cl, &task.FIFO{}, task.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.RunContext(context.Background(), small, cl, &task.FIFO{}, task.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range want.Completion {
		if got.Completion[i] != want.Completion[i] {
			t.Fatalf("job %d: %v after a cancelled run, %v fresh", i, got.Completion[i], want.Completion[i])
		}
	}
}
