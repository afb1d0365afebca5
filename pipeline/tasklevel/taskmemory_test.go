package tasklevel

import (
	"context"
	"runtime"
	"slices"
	"testing"
	"unsafe"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/cluster/task"
)

// TestTaskSimulatorNoJobCopy checks that a run with estimates other than
// the jobs' own (an error model's) and a YARN file's queues reads them
// beside the resolution's jobs (task.Options.Estimates, Queues) rather than
// through a copy of the window: at 1 M jobs that copy was 32 MB of the live
// heap's peak in validate.
func TestTaskSimulatorNoJobCopy(t *testing.T) {
	const n = 20000
	cl := task.Uniform(20, 10)
	shapes := make([]task.Shape, n)
	for i := range shapes {
		shapes[i] = task.Shape{Arrival: float64(i), MapTasks: 1, MapSeconds: 10, User: "u"}
	}
	jobs, err := task.Synthesize(shapes, task.SynthOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	r := &TaskLevel{Cluster: cl, Jobs: jobs}
	exact := task.FluidJobs(jobs)
	noisy := slices.Clone(exact)
	for i := range noisy {
		noisy[i].Estimate *= 1 + float64(i%7)/10
	}
	queue := make([]string, n)
	for i := range queue {
		queue[i] = "root.a"
	}
	// One fresh simulator's first run, in bytes allocated.
	alloc := func(sj []sim.Job, tp *TaskPolicy) uint64 {
		ts := &TaskSimulator{R: r, Parsed: map[string]*TaskPolicy{"fair": tp}}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		if _, err := ts.Simulate(context.Background(), sj, 0, cl.Rate(), "fair"); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	plain, err := r.parse("fair")
	if err != nil {
		t.Fatal(err)
	}
	placed := *plain
	placed.queue = queue
	base := alloc(exact, plain)
	copyB := uint64(n) * uint64(unsafe.Sizeof(task.Job{}))
	for _, c := range []struct {
		name string
		sj   []sim.Job
		tp   *TaskPolicy
	}{{"other estimates", noisy, plain}, {"a file's queues", exact, &placed}} {
		if got := alloc(c.sj, c.tp); got > base+copyB/4 {
			t.Errorf("%s: a run allocated %d B, %d more than with the jobs' own (a copy of the %d jobs is %d B)", c.name, got, got-base, n, copyB)
		}
	}
}
