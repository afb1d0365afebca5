package sim

import (
	"math/rand/v2"
	"testing"
)

// TestPFSPKeptChoiceIsChosen checks the claim PFSP.Advance rests on when
// it keeps the served job without walking the slack tree (a virtual
// completion of jobs done for real, the served job still running with w
// > 0): at every such event of random instances (σ = 0 to 2, loads 0.5 to
// 2, bursts, zero sizes, ties), a full plan chooses the same job.
func TestPFSPKeptChoiceIsChosen(t *testing.T) {
	kept, differ := 0, 0
	pfspCheckKept = func(k, c int) {
		kept++
		if k != c {
			differ++
		}
	}
	defer func() { pfspCheckKept = nil }()
	for seed := range uint64(200) {
		rng := rand.New(rand.NewPCG(seed, 41))
		sigma := []float64{0, 0.3, 1, 2}[seed%4]
		load := 0.5 + 1.5*rng.Float64()
		jobs := pfspDiffJobs(rng, 100+rng.IntN(1500), load, sigma)
		if _, err := Simulate(jobs, 1, &PFSP{}); err != nil {
			t.Fatalf("instance %d: %v", seed, err)
		}
	}
	if kept < 10_000 {
		t.Fatalf("only %d events kept the choice: the test does not exercise it", kept)
	}
	if differ > 0 {
		t.Errorf("a full plan chose another job at %d of %d events where PFSP keeps its choice", differ, kept)
	}
	t.Logf("%d events kept the choice", kept)
}
