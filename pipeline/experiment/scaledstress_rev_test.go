package experiment

import (
	"context"
	"testing"
	"time"

	"github.com/schedplan/schedplan/cluster/sim"
)

// TestScaledMixedPoolsFinish runs pools mixing scaled experiments with
// and without a Sink or Reference and an unscaled one,
// on 1 to 4 workers, and checks that each finishes with the summaries of
// one worker; a cancelled context ends a pool too.
func TestScaledMixedPoolsFinish(t *testing.T) {
	jobs := make([]sim.Job, 3000)
	for i := range jobs {
		s := 0.3 + float64(i%5)/5
		jobs[i] = sim.Job{Arrival: float64(i), Size: s, Estimate: s}
	}
	pols := []string{"fifo", "ps", "srpt", "las", "fsp", "pfsp"}
	mk := func() []*Experiment {
		var xs []*Experiment
		for k, f := range []float64{0.6, 0.9, 1.2, 1.5} {
			x := &Experiment{Jobs: jobs, Capacity: 1, Policies: pols, Runs: 1, Scale: f}
			switch k {
			case 1:
				x.Sink = func(*RunRows) error { return nil }
			case 2:
				x.Reference = &Reference{Of: x, Policy: 1, Deadlines: func(c []float64) []float64 { return append([]float64(nil), c...) }} // c is the simulator's buffer
			}
			xs = append(xs, x)
		}
		xs = append(xs, &Experiment{Jobs: jobs, Capacity: 1, Policies: pols, Runs: 1})
		return xs
	}
	want, err := RunExperiments(context.Background(), RunOptions{Workers: 1}, mk()...)
	if err != nil {
		t.Fatal(err)
	}
	for w := 1; w <= 4; w++ {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		got, err := RunExperiments(ctx, RunOptions{Workers: w}, mk()...)
		cancel()
		if err != nil {
			t.Fatalf("%d workers: %v", w, err)
		}
		for xi := range got {
			for p := range pols {
				if g, e := got[xi].Policies[p].Summaries[0], want[xi].Policies[p].Summaries[0]; g != e {
					t.Errorf("%d workers, experiment %d, %s: %+v, want %+v", w, xi, pols[p], g, e)
				}
			}
		}
		ctx, cancel = context.WithCancel(context.Background())
		go func() { time.Sleep(time.Millisecond); cancel() }()
		done := make(chan error, 1)
		go func() { _, err := RunExperiments(ctx, RunOptions{Workers: w}, mk()...); done <- err }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("%d workers: a cancelled pool did not end", w)
		}
	}
}
