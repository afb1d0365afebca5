package sim

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// A configuration cut by Reach to the queues its jobs can reach schedules
// them exactly as the whole one: the same completion of every job, to the
// bit, over random workloads and configurations of every order, weights,
// decay and strict priority; and the cut removes queues when the largest
// job is below a threshold.
func TestLASMQReachSchedulesAlike(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 1))
	cut := 0
	for trial := range 300 {
		jobs := lognormalJobs(rng, 20+rng.IntN(200), 0.8)
		maxSize := 0.0
		for _, j := range jobs {
			maxSize = math.Max(maxSize, j.Size)
		}
		m := &LASMQ{K: 1 + rng.IntN(30), Alpha0: math.Exp(rng.NormFloat64() * 2), P: 1.2 + 5*rng.Float64(), Order: LevelOrders[trial%3]}
		switch trial % 4 {
		case 1:
			m.Weights = DecayWeights(m.K, rng.Float64())
		case 2:
			m.Weights, m.Strict = DecayWeights(m.K, 0), true
		case 3:
			for range m.K {
				m.Weights = append(m.Weights, rng.Float64()*3)
			}
		}
		r := m.Reach(maxSize)
		if r.K < m.K {
			cut++
		}
		if r.K > m.K || (r.Weights != nil && len(r.Weights) != r.K) {
			t.Fatalf("%s cut to %s", m.Spec(), r.Spec())
		}
		var s Simulator
		a, err := s.Run(jobs, 1, m)
		if err != nil {
			t.Fatal(err)
		}
		want := slices.Clone(a.Completion)
		b, err := s.Run(jobs, 1, r)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(want, b.Completion) {
			t.Fatalf("trial %d: %s (largest job %v) cut to %s schedules differently", trial, m.Spec(), maxSize, r.Spec())
		}
	}
	if cut < 50 {
		t.Errorf("only %d of 300 configurations were cut: the test does not exercise Reach", cut)
	}
}

// Reach cuts at the first threshold above the largest job (within Tol),
// and gives cut configurations that differ only in what no job reads the
// same specification.
func TestLASMQReachCut(t *testing.T) {
	m := &LASMQ{K: 10, Alpha0: 1, P: 10}
	for _, tc := range []struct {
		maxSize float64
		want    string
	}{
		{0.5, "las_mq:k=1,alpha0=1,p=10"},
		{1, "las_mq:k=2,alpha0=1,p=10"},
		{5, "las_mq:k=2,alpha0=1,p=10"},
		{10.5, "las_mq:k=3,alpha0=1,p=10"},
		{1e12, "las_mq:k=10,alpha0=1,p=10"},
	} {
		if got := m.Reach(tc.maxSize).Spec(); got != tc.want {
			t.Errorf("Reach(%v) = %s, want %s", tc.maxSize, got, tc.want)
		}
	}
	a := (&LASMQ{K: 5, Alpha0: 3, P: 2, Order: OrderPS}).Reach(1)
	b := (&LASMQ{K: 8, Alpha0: 7, P: 4, Order: OrderPS}).Reach(1)
	if a.Spec() != b.Spec() {
		t.Errorf("one-queue cuts differ: %s and %s", a.Spec(), b.Spec())
	}
}

// lognormalJobs draws n jobs: exponential gaps of mean gap, log-normal
// sizes (σ 1.5) and estimates (σ 0.5 around the size), weights 1 to 3.
func lognormalJobs(rng *rand.Rand, n int, gap float64) []Job {
	jobs := make([]Job, n)
	at := 0.0
	for i := range jobs {
		at += rng.ExpFloat64() * gap
		size := math.Exp(rng.NormFloat64() * 1.5)
		jobs[i] = Job{Arrival: at, Size: size, Estimate: size * math.Exp(rng.NormFloat64()*0.5), Weight: 1 + float64(rng.IntN(3))}
	}
	return jobs
}
