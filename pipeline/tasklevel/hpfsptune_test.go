package tasklevel

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/cluster/task/hpfsp"
	"github.com/schedplan/schedplan/estimate"
)

// TuneHPFSP runs a candidate once per schedule: FAIR_LIMIT 0 under every
// threshold is one run (the threshold is then never read, which the runs
// below confirm to the bit); every other pair is its own.
func TestSameHPFSPRuns(t *testing.T) {
	var cands []*hpfsp.HPFSP
	for _, fl := range []int{0, 2} {
		for _, th := range []float64{0.95, 0.5} {
			cands = append(cands, &hpfsp.HPFSP{FairLimit: fl, Threshold: th})
		}
	}
	cands = append(cands, &hpfsp.HPFSP{FairLimit: 0, Threshold: 0.8, NoFallback: true})
	if got, want := sameHPFSPRuns(cands), []int{0, 0, 2, 3, 4}; !slices.Equal(got, want) {
		t.Fatalf("runs %v, want %v", got, want)
	}
	rng := rand.New(rand.NewPCG(30, 3))
	shapes := make([]task.Shape, 300)
	at := 0.0
	for i := range shapes {
		at += rng.ExpFloat64() * 40
		m, r := 1+rng.IntN(20), rng.IntN(6)
		shapes[i] = task.Shape{Arrival: at, MapTasks: m, ReduceTasks: r, MapSeconds: 30 * float64(m), ReduceSeconds: 60 * float64(r)}
	}
	jobs, err := task.Synthesize(shapes, task.SynthOptions{Skew: 0.5, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	cl := task.Uniform(4, 5)
	newEst := HPFSPEstimator(estimate.ProgressConfig{Default: []float64{30, 60}})
	var got [][]float64
	for _, th := range []float64{0.95, 0.5} {
		var s task.Simulator
		r, err := s.Run(jobs, cl, &hpfsp.HPFSP{FairLimit: 0, Threshold: th, NewEstimator: newEst}, task.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r.Completion)
	}
	if !slices.Equal(got[0], got[1]) {
		t.Errorf("FAIR_LIMIT 0 schedules differently under thresholds 0.95 and 0.5")
	}
}
