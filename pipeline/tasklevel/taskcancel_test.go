package tasklevel

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/cluster/task/prism"
	"github.com/schedplan/schedplan/internal/cputime"
)

// A task-level simulation (the engine, and the phase-level loop of the
// PRISM policies) stops soon after its context is cancelled: Ctrl-C during
// a long task-level validation does not wait for the run to end.
func TestTaskLevelSimulateCancels(t *testing.T) {
	if testing.Short() {
		t.Skip("a long simulation")
	}
	cl := task.Uniform(100, 10)
	rng := rand.New(rand.NewPCG(5, 5))
	const n = 20000
	shapes := make([]task.Shape, n)
	at := 0.0
	for i := range shapes {
		m, r := 1+rng.IntN(159), rng.IntN(41)
		at += rng.ExpFloat64() * (90*float64(m) + 120*float64(r)) / (0.9 * cl.Rate())
		shapes[i] = task.Shape{Arrival: at, MapTasks: m, ReduceTasks: r, MapSeconds: 30 * float64(m), ReduceSeconds: 60 * float64(r), User: "u"}
	}
	jobs, err := task.Synthesize(shapes, task.SynthOptions{Skew: 0.5, Seed: 5})
	if err != nil {
		t.Fatal(err)
	}
	machines := make([]prism.Vector, 100)
	for i := range machines {
		machines[i] = prism.Seed004Machine()
	}
	r := &TaskLevel{Cluster: cl, Jobs: jobs, Machines: machines}
	sj := task.FluidJobs(jobs)
	for _, spec := range []string{"fair", "prism"} {
		ctx, cancel := context.WithCancel(context.Background())
		var cpuAt atomic.Int64 // cputime.Self at the cancel
		timer := time.AfterFunc(50*time.Millisecond, func() { cpuAt.Store(int64(cputime.Self())); cancel() })
		t0 := time.Now()
		_, err := r.NewSimulator().Simulate(ctx, sj, 0, cl.Rate(), spec)
		took, cpu := time.Since(t0), cputime.Self()-time.Duration(cpuAt.Load())
		timer.Stop()
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("%s: %v after %v, want context.Canceled", spec, err, took)
		}
		// CPU time after the cancel, not wall time: a busy machine
		// stretches the latter (cputime's doc); 30 s of wall time is a hang.
		t.Logf("%s: returned %v after the start (cancelled at 50 ms), %v of CPU after the cancel", spec, took, cpu)
		if cpu > time.Second || took > 30*time.Second {
			t.Errorf("%s: returned %v after the start, %v of CPU after the cancel at 50 ms; want within 1 s of CPU", spec, took, cpu)
		}
	}
}
