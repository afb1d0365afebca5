package sim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// pfspDiffJobs draws n jobs for the PFSP differential test: Poisson
// arrivals at the given offered load, some in bursts at one instant,
// Weibull(0.5) sizes with some zero-size jobs and some repeated sizes
// (ties), and log-normal estimates with error σ (σ = 0: exact).
func pfspDiffJobs(rng *rand.Rand, n int, load, sigma float64) []Job {
	jobs := make([]Job, n)
	t := 0.0
	scale := 1 / math.Gamma(3) // Weibull(0.5), mean 1
	for i := range jobs {
		if i == 0 || rng.IntN(4) != 0 {
			t += rng.ExpFloat64() / load
		} // else: a burst, same arrival as the previous job
		var s float64
		switch r := rng.IntN(20); {
		case r == 0:
			s = 0
		case r < 3 && i > 0:
			s = jobs[rng.IntN(i)].Size // a tie
		default:
			s = scale * math.Pow(rng.ExpFloat64(), 2)
		}
		e := s * math.Exp(sigma*rng.NormFloat64())
		if sigma > 0 && rng.IntN(10) == 0 && i > 0 {
			e = jobs[rng.IntN(i)].Estimate // a tie in estimates
		}
		jobs[i] = Job{Arrival: t, Size: s, Estimate: e, Weight: 1}
	}
	return jobs
}

// TestPFSPMatchesScan compares PFSP's slack tree with the previous scan
// implementation (pfspScan) job by job, over many random instances:
// σ = 0 and σ > 0, offered loads 0.5 to 1.5, bursts, zero sizes, ties.
func TestPFSPMatchesScan(t *testing.T) {
	n, same, maxDiff := 0, 0, 0.0
	for seed := uint64(0); seed < 420; seed++ {
		rng := rand.New(rand.NewPCG(seed, 17))
		sigma := []float64{0, 0.3, 1, 2}[seed%4]
		load := 0.5 + rng.Float64()
		size := 20 + rng.IntN(600)
		if seed >= 400 {
			// A few long overloaded runs: hundreds of jobs running at once.
			load, size = 1.2+0.3*rng.Float64(), 5000
		}
		jobs := pfspDiffJobs(rng, size, load, sigma)
		c := []float64{1, 1, 2.5}[seed%3]
		a, err := Simulate(jobs, c, &PFSP{})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		b, err := Simulate(jobs, c, &pfspScan{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range jobs {
			n++
			if a.Response[i] == b.Response[i] {
				same++
			}
			d := math.Abs(a.Response[i] - b.Response[i])
			maxDiff = math.Max(maxDiff, d/math.Max(1, math.Abs(b.Response[i])))
			if !close(a.Response[i], b.Response[i], 1e-9) {
				t.Errorf("seed %d (σ %v, load %.2f, capacity %v, %d jobs): job %d responds in %v, scan %v", seed, sigma, load, c, len(jobs), i, a.Response[i], b.Response[i])
				break
			}
		}
	}
	t.Logf("%d jobs, %d with bit-identical responses, largest relative difference %.3g", n, same, maxDiff)
}
