package sim

import (
	"math"
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

// TestPFSPShortcutsMatchWalk compares PFSP with its shortcuts (the choice
// kept at virtual completions of jobs done for real, the first job taken
// without a walk when it has the least w) against PFSP planning every
// event in full, job by job, over random instances (σ = 0 to 2, loads
// 0.5 to 2, capacities 1 and 2.5): the choices are the same, so the
// responses differ only by the rounding of the slacks' updates.
func TestPFSPShortcutsMatchWalk(t *testing.T) {
	n, same, worst := 0, 0, 0.0
	for seed := range uint64(300) {
		rng := rand.New(rand.NewPCG(seed, 43))
		sigma := []float64{0, 0.3, 1, 2}[seed%4]
		load := 0.5 + 1.5*rng.Float64()
		jobs := pfspDiffJobs(rng, 50+rng.IntN(2000), load, sigma)
		c := []float64{1, 2.5}[seed%2]
		a, err := Simulate(jobs, c, &PFSP{})
		if err != nil {
			t.Fatalf("instance %d: %v", seed, err)
		}
		pfspWalkAlways = true
		b, err := Simulate(jobs, c, &PFSP{})
		pfspWalkAlways = false
		if err != nil {
			t.Fatalf("instance %d, walking: %v", seed, err)
		}
		for i := range jobs {
			n++
			if a.Response[i] == b.Response[i] {
				same++
			}
			worst = max(worst, math.Abs(a.Response[i]-b.Response[i])/max(1, math.Abs(b.Response[i])))
			if !close(a.Response[i], b.Response[i], 1e-9) {
				t.Fatalf("instance %d (σ %v, load %.2f, capacity %v, %d jobs): job %d responds in %v, %v walking", seed, sigma, load, c, len(jobs), i, a.Response[i], b.Response[i])
			}
		}
	}
	t.Logf("%d jobs, %d with bit-identical responses, largest relative difference %.3g", n, same, worst)
}
