package sim

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// Strict priority serves only the first non-empty queue (plan's and
// Advance's strict path); weights 1, 0, 0, … without the strict flag give
// every other queue a share of exactly 0 through the weighted path. The two
// must schedule alike to the bit, in every in-level order, including when
// a lower queue empties and a higher one takes over.
func TestLASMQStrictAsZeroWeights(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 5))
	for trial := range 60 {
		jobs := lognormalJobs(rng, 50+rng.IntN(300), 0.9)
		k := 2 + rng.IntN(20)
		base := LASMQ{K: k, Alpha0: math.Exp(rng.NormFloat64()), P: 1.5 + 4*rng.Float64(), Order: LevelOrders[trial%3], Weights: DecayWeights(k, 0)}
		strict, weighted := base, base
		strict.Strict = true
		var s Simulator
		a, err := s.Run(jobs, 1, &strict)
		if err != nil {
			t.Fatal(err)
		}
		want := slices.Clone(a.Completion)
		b, err := s.Run(jobs, 1, &weighted)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(want, b.Completion) {
			t.Fatalf("trial %d: %s schedules unlike the same weights without strict", trial, strict.Spec())
		}
	}
}
