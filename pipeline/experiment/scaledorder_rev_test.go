package experiment

import (
	"context"
	"testing"
	"time"

	"github.com/schedplan/schedplan/cluster/sim"
)

// TestScaledSinkOneWorker runs a scaled experiment with a Sink on one
// worker: runLongestFirst moves SRPT ahead of FIFO after planPool gave
// the units their sink sequence, so SRPT's rows wait for FIFO's turn,
// which never comes on one worker.
func TestScaledSinkOneWorker(t *testing.T) {
	jobs := make([]sim.Job, 200)
	for i := range jobs {
		jobs[i] = sim.Job{Arrival: float64(i), Size: 0.7, Estimate: 0.7}
	}
	var got []string
	x := &Experiment{Jobs: jobs, Capacity: 1, Policies: []string{"fifo", "srpt"}, Runs: 1, Scale: 1.2,
		Sink: func(rr *RunRows) error { got = append(got, rr.Spec); return nil }}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := RunExperiments(ctx, RunOptions{Workers: 1}, x); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != "fifo" {
		t.Errorf("sink saw %v, want [fifo srpt]", got)
	}
}

// TestScaledReferenceOneWorker: a scaled experiment whose deadlines come
// from its own FIFO run (Reference); SRPT, moved first, waits for them.
func TestScaledReferenceOneWorker(t *testing.T) {
	jobs := make([]sim.Job, 200)
	for i := range jobs {
		jobs[i] = sim.Job{Arrival: float64(i), Size: 0.7, Estimate: 0.7}
	}
	x := &Experiment{Jobs: jobs, Capacity: 1, Policies: []string{"ps", "fifo", "srpt"}, Runs: 1, Scale: 1.2}
	x.Reference = &Reference{Of: x, Policy: 1, Deadlines: func(c []float64) []float64 { return append([]float64(nil), c...) }}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := RunExperiments(ctx, RunOptions{Workers: 1}, x); err != nil {
		t.Fatal(err)
	}
}
