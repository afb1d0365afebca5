package sim

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestLASMQWordPathMatchesGeneral runs random configurations (k up to 64,
// every in-level order, strict or weighted with some zero weights, jobs
// with weights and container counts, one policy reused across runs as the
// tuner reuses it) on the path that walks the word of non-empty queues and
// keeps the shares while that set is unchanged, and on the general path
// that forms them at every event: the completions must agree to the bit.
func TestLASMQWordPathMatchesGeneral(t *testing.T) {
	rng := rand.New(rand.NewPCG(41, 7))
	defer func(w int) { wordQueues = w }(wordQueues)
	var word, general LASMQ
	for trial := range 150 {
		jobs := lognormalJobs(rng, 20+rng.IntN(400), 0.5+rng.Float64())
		for i := range jobs {
			if rng.IntN(2) == 0 {
				jobs[i].Containers = float64(1 + rng.IntN(50))
			}
		}
		k := 1 + rng.IntN(64)
		cfg := LASMQ{K: k, Alpha0: math.Exp(rng.NormFloat64() - 1), P: 1.1 + 4*rng.Float64(), Order: LevelOrders[trial%len(LevelOrders)]}
		switch trial % 5 {
		case 0:
			cfg.Strict = true
		case 1:
			cfg.Weights = DecayWeights(k, rng.Float64())
		case 2:
			cfg.Weights = make([]float64, k)
			for q := range cfg.Weights {
				if rng.IntN(3) > 0 {
					cfg.Weights[q] = rng.Float64() * 4
				}
			}
		}
		word.K, word.Alpha0, word.P, word.Weights, word.Strict, word.Order = cfg.K, cfg.Alpha0, cfg.P, cfg.Weights, cfg.Strict, cfg.Order
		general.K, general.Alpha0, general.P, general.Weights, general.Strict, general.Order = cfg.K, cfg.Alpha0, cfg.P, cfg.Weights, cfg.Strict, cfg.Order
		var s Simulator
		wordQueues = 64
		a, err := s.Run(jobs, 1, &word)
		if err != nil {
			t.Fatal(err)
		}
		want := slices.Clone(a.Completion)
		wordQueues = 0
		b, err := s.Run(jobs, 1, &general)
		if err != nil {
			t.Fatal(err)
		}
		for i := range want {
			if math.Float64bits(want[i]) != math.Float64bits(b.Completion[i]) {
				t.Fatalf("trial %d, %s: job %d completes at %v on the word path, %v on the general one", trial, cfg.Spec(), i, want[i], b.Completion[i])
			}
		}
	}
}

// TestLASMQReuseMatchesFresh runs one LAS_MQ on a sequence of random logs,
// as the tuner's simulators reuse a parsed policy, and each log on a fresh
// policy too: what a run keeps between events (the shares, the PS queues'
// settling tolerances) must not leak into the next run.
func TestLASMQReuseMatchesFresh(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 9))
	for _, order := range LevelOrders {
		reused := &LASMQ{K: 6, Alpha0: 0.3, P: 2.5, Order: order, Weights: DecayWeights(6, 0.5)}
		for run := range 30 {
			jobs := lognormalJobs(rng, 10+rng.IntN(200), 0.4+rng.Float64())
			var s Simulator
			a, err := s.Run(jobs, 1, reused)
			if err != nil {
				t.Fatal(err)
			}
			got := slices.Clone(a.Completion)
			fresh := &LASMQ{K: 6, Alpha0: 0.3, P: 2.5, Order: order, Weights: DecayWeights(6, 0.5)}
			b, err := s.Run(jobs, 1, fresh)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(got, b.Completion, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) }) {
				t.Fatalf("order %s, run %d: the reused policy schedules unlike a fresh one", order, run)
			}
		}
	}
}
