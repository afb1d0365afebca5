package task

import (
	"math/rand/v2"
	"testing"
)

// TaskCounts gives every shape the tasks Synthesize gives its job, and
// refuses the shapes Synthesize refuses, with the same error.
func TestTaskCountsMatchSynthesize(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := 0; trial < 200; trial++ {
		shapes := make([]Shape, 1+rng.IntN(40))
		for i := range shapes {
			sh := &shapes[i]
			sh.Arrival, sh.Size = float64(i), rng.Float64()*5000
			switch rng.IntN(4) {
			case 0:
				sh.MapTasks, sh.ReduceTasks = rng.IntN(50), rng.IntN(10)
			case 1:
				sh.MapSeconds, sh.ReduceSeconds = rng.Float64()*3000, rng.Float64()*500
			case 2:
				sh.MapTasks, sh.MapSeconds = 1+rng.IntN(20), rng.Float64()*900
			}
		}
		opt := SynthOptions{Skew: 0.5, Seed: uint64(trial)}
		jobs, jerr := Synthesize(shapes, opt)
		counts, cerr := TaskCounts(nil, shapes, opt)
		if (jerr == nil) != (cerr == nil) || jerr != nil && jerr.Error() != cerr.Error() {
			t.Fatalf("trial %d: Synthesize %v, TaskCounts %v", trial, jerr, cerr)
		}
		if jerr != nil {
			continue
		}
		for i := range jobs {
			if counts[i] != jobs[i].NumTasks() {
				t.Fatalf("trial %d, job %d: %d tasks counted, %d synthesised", trial, i, counts[i], jobs[i].NumTasks())
			}
		}
	}
	if _, err := TaskCounts(nil, []Shape{{MapTasks: MaxTasks, ReduceTasks: 1}}, SynthOptions{}); err == nil {
		t.Error("a job of more than MaxTasks tasks was counted")
	}
}
