package task

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/schedplan/schedplan/internal/cputime"
)

// cancelAfter runs run with a context cancelled after d and returns how
// long it went on after the cancel and its error.
func cancelAfter(d time.Duration, run func(ctx context.Context) error) (cancelStop, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var cancelled atomic.Int64 // UnixNano
	var cpuAt atomic.Int64     // cputime.Self at the cancel
	timer := time.AfterFunc(d, func() {
		cpuAt.Store(int64(cputime.Self()))
		cancelled.Store(time.Now().UnixNano())
		cancel()
	})
	err := run(ctx)
	timer.Stop()
	if at := cancelled.Load(); at != 0 {
		return cancelStop{wall: time.Since(time.Unix(0, at)), cpu: cputime.Self() - time.Duration(cpuAt.Load())}, err
	}
	return cancelStop{}, err
}

// cancelStop is how long a run went on after its cancel: the CPU time it
// spent (what the code controls: how much it does before it looks at its
// context) and the wall time (which a busy machine stretches).
type cancelStop struct{ wall, cpu time.Duration }

func (c cancelStop) String() string { return fmt.Sprintf("%v (%v of CPU)", c.wall, c.cpu) }

// check fails t when the run spent more than 0.5 s of CPU after its
// cancel, or hung (30 s of wall time: a generous bound, since other
// processes may hold both cores).
func (c cancelStop) check(t *testing.T, what string) {
	t.Helper()
	t.Logf("%s: stopped %v after the cancel", what, c)
	if c.cpu > 500*time.Millisecond || c.wall > 30*time.Second {
		t.Errorf("%s: stopped %v after the cancel, want within 0.5 s of CPU", what, c)
	}
}

// A long task-level run stops soon after its context is cancelled, with
// the context's error, instead of simulating to the end; an uncancelled
// context changes nothing.
func TestSimulatorRunContextCancels(t *testing.T) {
	if testing.Short() {
		t.Skip("a long simulation")
	}
	jobs, cl := mrWorkload(20000, 100, 3) // about 2 M task events, seconds of simulation
	var s Simulator
	for _, spec := range []string{"fifo", "fair"} {
		p, err := ParsePolicy(spec)
		if err != nil {
			t.Fatal(err)
		}
		after, err := cancelAfter(50*time.Millisecond, func(ctx context.Context) error {
			_, err := s.RunContext(ctx, jobs, cl, p, Options{})
			return err
		})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("%s: %v, want context.Canceled (the run went on to the end)", spec, err)
		}
		after.check(t, spec)
	}
	// The Simulator is whole after a cancelled run.
	small := jobs[:200]
	want, err := Simulate(small, cl, &FIFO{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.RunContext(context.Background(), small, cl, &FIFO{}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range want.Completion {
		if got.Completion[i] != want.Completion[i] {
			t.Fatalf("job %d: %v after a cancelled run, %v fresh", i, got.Completion[i], want.Completion[i])
		}
	}
}

// The same for the phase-level loop (PRISM's PhaseSim).
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
		after, err := cancelAfter(50*time.Millisecond, func(ctx context.Context) error {
			_, err := s.RunContext(ctx)
			return err
		})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("%s: %v, want context.Canceled (the run went on to the end)", cfg.Scheduler, err)
		}
		after.check(t, fmt.Sprint(cfg.Scheduler))
	}
}
