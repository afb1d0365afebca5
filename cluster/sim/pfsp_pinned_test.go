package sim

import (
	"encoding/binary"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// pfspPinSpecs are the policies TestPFSPFSPPinned pins: PFSP (and PFSP
// with its shortcuts off, every choice by the walk) and every FSP variant
// of the registry.
var pfspPinSpecs = []string{"pfsp", "pfsp/walk", "fsp", "fsp+fifo", "fsp+ps"}

// pfspPinned are FNV-64a hashes of every completion's and response's bits
// of the runs pfspPinHash makes, as PFSP and FSP computed them at main
// 93eb53b (PFSPVersion 3), before their data layout and loops were made
// cheaper: those changes must give the same bits. Computed on amd64
// (other architectures may fuse multiply-adds and round differently).
var pfspPinned = map[string]uint64{
	"pfsp":      0x2adf2ab333f2060a,
	"pfsp/walk": 0x4827e6678fb01733,
	"fsp":       0x450090c21ba756a4,
	"fsp+fifo":  0x450090c21ba756a4,
	"fsp+ps":    0x28f01f4201d1b857,
}

// pfspPinJobs draws n adversarial jobs from a PCG stream through its
// Uint64s alone (so that the jobs do not depend on math/rand/v2's
// distributions): runs of equal arrivals, repeats of the previous job (ties
// in every order), zero sizes and estimates, sizes spread over twelve
// orders of magnitude, estimates exact or off by a factor up to e^±3,
// weights ≤ 0, arrivals at the given load of capacity c; absolute:
// arrivals near the Unix epoch.
func pfspPinJobs(seed uint64, n int, c, load float64, absolute bool) []Job {
	r := rand.New(rand.NewPCG(seed, 2002))
	u := func() float64 { return float64(r.Uint64()>>11) / (1 << 53) }
	pick := func(k int) int { return int(r.Uint64() % uint64(k)) }
	jobs := make([]Job, n)
	sum := 0.0
	for i := range jobs {
		j := &jobs[i]
		if i > 0 && pick(8) == 0 {
			*j = jobs[i-1]
			sum += j.Size
			continue
		}
		j.Size = math.Exp(4 * (u() + u() + u() - 1.5))
		switch pick(16) {
		case 0:
			j.Size = 0
		case 1:
			j.Size *= 1e6
		case 2:
			j.Size *= 1e-6
		}
		j.Weight = []float64{0, -1, 1, 2.5}[pick(4)]
		switch pick(6) {
		case 0:
			j.Estimate = 0
		case 1, 2:
			j.Estimate = j.Size
		default:
			j.Estimate = j.Size * math.Exp(6*(u()-0.5))
		}
		sum += j.Size
	}
	// Gaps uniform on [0, 2·mean] (one in four 0: simultaneous arrivals),
	// the mean giving the load.
	mean := sum / float64(n) / c / load
	t := 0.0
	if absolute {
		t = 1.7e9
	}
	for i := range jobs {
		t += 2 * mean * u() * float64(min(pick(4), 1))
		jobs[i].Arrival = t
	}
	return jobs
}

// pfspPinRun is one run of pfspPinHash: adversarial jobs (seed, count,
// capacity, load, clock) or, with sigma ≥ 0, heavy-tailed synthetic jobs
// run with a column of log-normal(sigma) estimates (RunEstimates, as the
// pipeline runs estimation errors).
type pfspPinRun struct {
	seed     uint64
	n        int
	c, load  float64
	absolute bool
	sigma    float64
}

var pfspPinRuns = []pfspPinRun{
	{1, 400, 1, 0.7, false, -1},
	{2, 1500, 3.5, 1, true, -1},
	{3, 800, 0.25, 1.3, false, -1},
	{4, 3000, 1, 2, false, -1},
	{5, 2000, 1, 0.95, true, -1},
	{6, 40_000, 1, 0.9, false, 0},
	{7, 40_000, 1, 0.9, false, 0.5},
	{8, 40_000, 1, 1.2, false, 1},
	{9, 40_000, 2, 1.05, false, 0.25},
}

// pfspPinHash runs spec (one policy and one Simulator reused across the
// runs, as the tuner reuses them) over pfspPinRuns and hashes the bits of
// every completion and response.
func pfspPinHash(t *testing.T, spec string) uint64 {
	t.Helper()
	walk := spec == "pfsp/walk"
	if walk {
		spec = "pfsp"
		pfspWalkAlways = true
		defer func() { pfspWalkAlways = false }()
	}
	p := mustPolicy(t, spec)
	h := fnv.New64a()
	var s Simulator
	for _, run := range pfspPinRuns {
		var r *Result
		var err error
		if run.sigma < 0 {
			jobs := pfspPinJobs(run.seed, run.n, run.c, run.load, run.absolute)
			r, err = s.Run(jobs, run.c, p)
		} else {
			jobs := synthetic(run.n, run.load, 0, run.seed)
			rng := rand.New(rand.NewPCG(run.seed, 3))
			est := make([]float64, len(jobs))
			for i := range est {
				jobs[i].Size *= run.c
				jobs[i].Estimate = jobs[i].Size
				est[i] = jobs[i].Size * math.Exp(run.sigma*rng.NormFloat64())
			}
			r, err = s.RunEstimates(jobs, est, run.c, p)
		}
		if err != nil {
			t.Fatalf("%s, jobs %d: %v", spec, run.seed, err)
		}
		// The bits of every completion, then of every response.
		if err := binary.Write(h, binary.LittleEndian, r.Completion); err != nil {
			t.Fatal(err)
		}
		if err := binary.Write(h, binary.LittleEndian, r.Response); err != nil {
			t.Fatal(err)
		}
	}
	return h.Sum64()
}

// TestPFSPFSPPinned compares PFSP's and FSP's schedules with the pinned
// hashes: ties in arrivals and sizes, zero sizes and estimates, sizes
// twelve orders apart, estimates with errors (in the jobs and as a
// column), capacities other than 1, an absolute clock, overload, and a
// policy reused across runs.
func TestPFSPFSPPinned(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("hashes pinned on amd64")
	}
	for _, spec := range pfspPinSpecs {
		got := pfspPinHash(t, spec)
		if want, ok := pfspPinned[spec]; !ok || got != want {
			t.Errorf("%q: hash %#x, pinned %#x", spec, got, want)
		}
	}
}
