package task

import (
	"math"
	"os"
	"testing"
)

// seed004Setup is the cluster and baselines of the PRISM comparison: ten
// seed 004 §6 machines (Seed004Machine), Hadoop's 3 s heartbeat, Fair with
// 4 map and 2 reduce slots per 4-core machine, YARN containers of 1 vcore
// and 1 GB (yarn.scheduler.minimum-allocation-{vcores,mb} defaults in
// Hadoop's yarn-default.xml), α, k, a as DefaultPrismConfig.
func seed004Setup(sched PhaseScheduler) PhaseSimConfig {
	ms := make([]Vector, 10)
	for i := range ms {
		ms[i] = Seed004Machine()
	}
	c := Vector{CPU: 1, Memory: 1}
	return PhaseSimConfig{Scheduler: sched, Machines: ms, Heartbeat: 3, Prism: DefaultPrismConfig(),
		MapSlots: 4, ReduceSlots: 2, Container: [NumSides]Vector{c, c}}
}

// sortPeak is the Fig. 8 sort profile's peak demand per side
// (PeakDemands), the fallback demand of the classes seed 004 gives no
// profile for (§4).
func sortPeak() [NumSides]Vector {
	p := DefaultProfiles().For("sort", Vector{}, Vector{})
	return PeakDemands(&p)
}

// A hand-computed contention case: two single-phase map tasks of 10 s that
// each want 60 MB/s of a 100 MB/s disk, on one machine, Fair with 2 slots.
// Both run at 100/120 of full speed (prism_contention.go) and end at
// 12 s; under PRISM only one fits (60 + 60 > 100), so the second starts at
// the first heartbeat after 10 s (heartbeat 1 s: at 10 s) and ends at 20 s.
func TestPhaseSimHandCase(t *testing.T) {
	job := PhaseJob{Name: "x", Weight: 1, Count: [NumSides]int{2, 0},
		Phases: [NumSides][]Phase{{{Kind: PhaseMap, Duration: 10, Demand: Vector{CPU: 0.5, Disk: 60}}}}}
	m := []Vector{{CPU: 4, Memory: 8, Disk: 100, Network: 100}}
	for _, tc := range []struct {
		sched PhaseScheduler
		want  float64
	}{{SchedFair, 12}, {SchedPrism, 20}} {
		cfg := PhaseSimConfig{Scheduler: tc.sched, Machines: m, Heartbeat: 1, Prism: DefaultPrismConfig(), MapSlots: 2, ReduceSlots: 1}
		r := runPhaseSim(t, cfg, []PhaseJob{job})
		if math.Abs(r.Completion[0]-tc.want) > 1e-6 {
			t.Errorf("%s: completion %v s, want %v s", tc.sched, r.Completion[0], tc.want)
		}
		if r.MaxOvercommit != 0 && tc.sched == SchedPrism {
			t.Errorf("prism overcommitted by %v", r.MaxOvercommit)
		}
	}
}

// A paused phase waits for a heartbeat: a two-phase map task on a machine
// with heartbeats every 4 s (offset 0) runs map 0–3 s, pauses, resumes at
// the heartbeat at 4 s and ends merge at 5 s (seed 004 §4, Fig. 5).
func TestPhaseSimPause(t *testing.T) {
	job := PhaseJob{Name: "x", Weight: 1, Count: [NumSides]int{1, 0},
		Phases: [NumSides][]Phase{{{Kind: PhaseMap, Duration: 3, Demand: Vector{CPU: 1}}, {Kind: PhaseMerge, Duration: 1, Demand: Vector{Disk: 10}}}}}
	cfg := PhaseSimConfig{Scheduler: SchedPrism, Machines: []Vector{{CPU: 4, Memory: 8, Disk: 100, Network: 100}}, Heartbeat: 4, Prism: DefaultPrismConfig()}
	r := runPhaseSim(t, cfg, []PhaseJob{job})
	if math.Abs(r.Completion[0]-5) > 1e-9 {
		t.Errorf("completion %v s, want 5 s", r.Completion[0])
	}
}

// Seed 004 §6.3's setting (Figs. 15–19): the PUMA and Gridmix mixes, all
// jobs of a batch submitted at once, PRISM against Fair with slots and
// YARN with fixed containers on the same phase model. The test asserts
// that admitted demand never exceeds a machine's capacity (prism, yarn)
// and logs every figure; seed 004's claimed shape (PRISM's mean job
// running time below both baselines, its utilisation higher) is checked
// by TestPhaseSimSeed004Claim, which does NOT hold in this model (see
// there).
func TestPhaseSimSeed004Shape(t *testing.T) {
	for _, tc := range seed004Runs(t) {
		for _, sched := range []PhaseScheduler{SchedPrism, SchedFair, SchedYARN} {
			r := tc.res[sched]
			t.Logf("%s n=%d %-5s: mean job running time %7.1f s, makespan %7.1f s, mean util cpu %.3f mem %.3f disk %.3f net %.3f (fractions), mean ANP %.3f, unfairness (CV of ANP) %.3f, %.1f µs/heartbeat",
				tc.mix, tc.n, sched, r.MeanRun, r.Makespan, r.MeanUtil[CPU], r.MeanUtil[Memory], r.MeanUtil[Disk], r.MeanUtil[Network],
				r.ANP.MeanANP, r.ANP.Unfairness, float64(r.DecisionNanos)/float64(r.Heartbeats)/1e3)
			if sched != SchedFair && r.MaxOvercommit != 0 {
				t.Errorf("%s %s: admitted demand exceeded capacity by %.3g of it", tc.mix, sched, r.MaxOvercommit)
			}
			for j, c := range r.Completion {
				if !(c >= r.Ideal[j]-1e-6) {
					t.Errorf("%s %s: job %d ran %v s, less than its ideal %v s", tc.mix, sched, j, c, r.Ideal[j])
				}
			}
		}
	}
}

// TestPhaseSimSeed004Claim checks seed 004's shape: PRISM's mean job
// running time below Fair's and YARN's, its CPU and disk utilisation
// higher. Measured (PUMA 100 jobs, Gridmix 50 jobs; TestPhaseSimSeed004Shape
// -v prints them) it does not hold: PRISM is slower than both. Two causes
// in this model: the contention model (prism_contention.go) shares an
// oversubscribed resource without loss, so the baselines' over-packing
// costs nothing in throughput; and a PRISM task pauses up to a heartbeat
// (3 s) between phases. With PUMA's classes other than sort and all of
// Gridmix's taking the fallback profile (the peak demand of sort for every
// phase), PRISM gains nothing from phase-level packing: measured with a
// 3 s heartbeat, PUMA 100 mean job running time prism 1325.8 s, fair
// 746.6 s, yarn 908.5 s; disk utilisation 0.638, 0.951, 0.807. On 100
// sort jobs (measured profile) PRISM beats Fair (585.6 s vs 847.8 s,
// disk 0.645 vs 0.325) but not YARN's mean (532.4 s, disk 0.402). The
// test is skipped unless PRISM_CLAIM=1 so that
// the claim is visible and re-checkable without a failing suite.
func TestPhaseSimSeed004Claim(t *testing.T) {
	if os.Getenv("PRISM_CLAIM") != "1" {
		t.Skip("seed 004's shape does not hold in this model (see the doc comment); PRISM_CLAIM=1 runs the check")
	}
	for _, tc := range seed004Runs(t)[:2] {
		p := tc.res[SchedPrism]
		for _, b := range []PhaseScheduler{SchedFair, SchedYARN} {
			if !(p.MeanRun < tc.res[b].MeanRun) {
				t.Errorf("%s: prism mean job running time %.1f s is not below %s's %.1f s", tc.mix, p.MeanRun, b, tc.res[b].MeanRun)
			}
			for _, d := range []Dim{CPU, Disk} {
				if !(p.MeanUtil[d] > tc.res[b].MeanUtil[d]) {
					t.Errorf("%s: prism mean %s utilisation %.3f is not above %s's %.3f", tc.mix, d, p.MeanUtil[d], b, tc.res[b].MeanUtil[d])
				}
			}
		}
	}
}

type seed004Run struct {
	mix string
	n   int
	res map[PhaseScheduler]*PhaseSimResult
}

// seed004Runs runs the three schedulers on a PUMA batch of 100 and a
// Gridmix batch of 50 jobs (§6.3's batch sizes), and, for contrast, on 100
// sort jobs: the one class with a measured phase profile (Fig. 8).
// The claim is checked on the first two only.
func seed004Runs(t testing.TB) []seed004Run {
	profiles := DefaultProfiles()
	var out []seed004Run
	for _, tc := range []struct {
		mix Mix
		n   int
	}{{PUMAMix(), 100}, {GridmixMix(), 50}, {sortOnlyMix(), 100}} {
		batch, err := tc.mix.Batch(tc.n)
		if err != nil {
			t.Fatal(err)
		}
		jobs, err := MixPhaseJobs(batch, profiles, sortPeak())
		if err != nil {
			t.Fatal(err)
		}
		run := seed004Run{mix: tc.mix.Name, n: tc.n, res: map[PhaseScheduler]*PhaseSimResult{}}
		for _, sched := range []PhaseScheduler{SchedPrism, SchedFair, SchedYARN} {
			run.res[sched] = runPhaseSim(t, seed004Setup(sched), jobs)
		}
		out = append(out, run)
	}
	return out
}

// The registry specification round-trips.
func TestPrismSpecRoundTrip(t *testing.T) {
	for _, spec := range []string{"prism", "prism:alpha=0.5,k=10,a=0.2", "PRISM: a=1, k=0", "prism:alpha=2,k=20,a=0.1,epsilon=0.05,maxpicks=1"} {
		c, err := ParsePrismSpec(spec)
		if err != nil {
			t.Fatalf("%q: %v", spec, err)
		}
		c2, err := ParsePrismSpec(c.Spec())
		if err != nil || c2 != c {
			t.Errorf("%q → %q → %+v (%v), want %+v", spec, c.Spec(), c2, err, c)
		}
	}
	for _, bad := range []string{"prism:alpha=-1", "prism:k=x", "prism:beta=1", "fair", "prism:a=NaN", "prism:alpha=Inf"} {
		if _, err := ParsePrismSpec(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// The CLI path: a runner from a specification and the default profiles
// simulates task-level jobs (SyntheticJobs-like: two stages) to completion.
func TestPrismRunner(t *testing.T) {
	r, err := NewPrismRunner("prism:alpha=1,k=20,a=0.1", "default")
	if err != nil {
		t.Fatal(err)
	}
	jobs := []Job{
		{ID: 1, Arrival: 0, Stages: []Stage{{Tasks: []TaskSpec{{Duration: 10, Containers: 1}, {Duration: 20, Containers: 1}}}, {Tasks: []TaskSpec{{Duration: 8, Containers: 2}}}}},
		{ID: 2, Arrival: 5, Stages: []Stage{{Tasks: []TaskSpec{{Duration: 4, Containers: 1}}}}},
	}
	res, err := r.Run(jobs, []Vector{Seed004Machine(), Seed004Machine()}, 3)
	if err != nil {
		t.Fatal(err)
	}
	for j, c := range res.Completion {
		if !(c >= jobs[j].Arrival+res.Ideal[j]-1e-9) {
			t.Errorf("job %d: completion %v s before arrival + ideal %v s", j+1, c, jobs[j].Arrival+res.Ideal[j])
		}
	}
	if _, err := NewPrismRunner("prism:k=-1", ""); err == nil {
		t.Error("k=-1: no error")
	}
	if _, err := NewPrismRunner("prism", "/nonexistent/profiles.yaml"); err == nil {
		t.Error("missing profile file: no error")
	}
	three := []Job{{Stages: []Stage{{Tasks: []TaskSpec{{Duration: 1, Containers: 1}}}, {Tasks: []TaskSpec{{Duration: 1, Containers: 1}}}, {Tasks: []TaskSpec{{Duration: 1, Containers: 1}}}}}}
	if _, err := r.PhaseJobs(three); err == nil {
		t.Error("three stages: no error")
	}
}

func runPhaseSim(t testing.TB, cfg PhaseSimConfig, jobs []PhaseJob) *PhaseSimResult {
	t.Helper()
	s, err := NewPhaseSim(cfg, jobs)
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.Run()
	if err != nil {
		t.Fatalf("%s: %v", cfg.Scheduler, err)
	}
	return r
}

// sortOnlyMix is a mix of PUMA's sort job alone (seed 004 Table 2), the
// class with a measured phase profile (Fig. 8).
func sortOnlyMix() Mix {
	m := PUMAMix()
	m.Name, m.Jobs = "sort-only", m.Jobs[:1]
	return m
}
