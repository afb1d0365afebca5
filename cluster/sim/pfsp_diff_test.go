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
// σ = 0 and σ > 0, offered loads 0.5 to 2, capacities 1 and 2.5, bursts,
// zero sizes, ties. The overloaded family (loads 1 to 2, up to 3,200 jobs,
// hundreds running at once) is the one where the slack tree's minima
// change hands (its kinetic recursions): with them disabled, instances 6
// and 139 of it fail.
func TestPFSPMatchesScan(t *testing.T) {
	n, same, maxDiff := 0, 0, 0.0
	for _, fam := range []struct {
		name      string
		stream    uint64
		instances uint64
		load      func(*rand.Rand) float64
		size      func(*rand.Rand) int
	}{
		{"mixed", 17, 400, func(r *rand.Rand) float64 { return 0.5 + r.Float64() }, func(r *rand.Rand) int { return 20 + r.IntN(600) }},
		{"overloaded", 99, 150, func(r *rand.Rand) float64 { return 1 + r.Float64() }, func(r *rand.Rand) int { return 200 + r.IntN(3000) }},
	} {
		for seed := uint64(0); seed < fam.instances; seed++ {
			if testing.Short() && fam.name == "overloaded" && seed != 6 && seed != 139 {
				continue
			}
			rng := rand.New(rand.NewPCG(seed, fam.stream))
			sigma := []float64{0, 0.3, 1, 2}[seed%4]
			load := fam.load(rng)
			jobs := pfspDiffJobs(rng, fam.size(rng), load, sigma)
			c := 1.0
			if fam.name == "mixed" && seed%3 == 2 {
				c = 2.5
			}
			a, err := Simulate(jobs, c, &PFSP{})
			if err != nil {
				t.Fatalf("%s %d: %v", fam.name, seed, err)
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
					t.Errorf("%s %d (σ %v, load %.2f, capacity %v, %d jobs): job %d responds in %v, scan %v", fam.name, seed, sigma, load, c, len(jobs), i, a.Response[i], b.Response[i])
					break
				}
			}
		}
	}
	t.Logf("%d jobs, %d with bit-identical responses, largest relative difference %.3g", n, same, maxDiff)
}
