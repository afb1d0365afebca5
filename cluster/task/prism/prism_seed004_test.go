package prism

import (
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"
)

// Seed 004's batch experiments (§6.3, Figs. 15–20) on the phase model in
// Seed004Config's setting with the PRISM defaults (DefaultPrismConfig) and
// Seed004Thrash: every batch size of both mixes, the three schedulers.
// The results are computed once and shared by the tests below (each run
// takes milliseconds; all 24 about a second).

// seed004Batch is one batch's results.
type seed004Batch struct {
	mix string
	n   int
	res map[PhaseScheduler]*PhaseSimResult
}

var (
	seed004BatchesOnce sync.Once
	seed004BatchesRes  []seed004Batch
	seed004BatchesErr  error
)

// seed004Batches runs (once) every batch size of the PUMA and Gridmix mixes.
func seed004Batches(t *testing.T) []seed004Batch {
	t.Helper()
	seed004BatchesOnce.Do(func() {
		for _, mix := range []Mix{PUMAMix(), GridmixMix()} {
			for _, n := range mix.BatchSizes {
				batch, err := mix.Batch(n)
				if err != nil {
					seed004BatchesErr = err
					return
				}
				jobs, err := MixPhaseJobs(batch, DefaultProfiles(), sortPeak())
				if err != nil {
					seed004BatchesErr = err
					return
				}
				b := seed004Batch{mix: mix.Name, n: n, res: map[PhaseScheduler]*PhaseSimResult{}}
				for _, sched := range []PhaseScheduler{SchedPrism, SchedFair, SchedYARN} {
					s, err := NewPhaseSim(seed004Setup(sched), jobs)
					if err == nil {
						b.res[sched], err = s.Run()
					}
					if err != nil {
						seed004BatchesErr = fmt.Errorf("%s %d %s: %w", mix.Name, n, sched, err)
						return
					}
				}
				seed004BatchesRes = append(seed004BatchesRes, b)
			}
		}
	})
	if seed004BatchesErr != nil {
		t.Fatal(seed004BatchesErr)
	}
	return seed004BatchesRes
}

// Fig. 15a/b (§6.3: "PRISM outperforms both Fair scheduler and Yarn in all
// scenarios ... On average, PRISM is able to reduce job running time by up
// to 24 percent"; "Yarn generally outperforms the Fair scheduler for large
// workloads"). Holds: PRISM's mean job running time is below Fair's and
// YARN's at every batch size of both mixes; its largest reduction against
// the better baseline is within [12 %, 36 %] (24 % ± half); YARN's mean is
// below Fair's at each mix's largest batch.
func TestSeed004Fig15(t *testing.T) {
	best := 0.0
	for _, b := range seed004Batches(t) {
		p, f, y := b.res[SchedPrism].MeanRun, b.res[SchedFair].MeanRun, b.res[SchedYARN].MeanRun
		gain := 1 - p/min(f, y)
		best = max(best, gain)
		t.Logf("Fig. 15 %-7s %3d jobs: mean job running time PRISM / Fair / YARN %7.1f / %7.1f / %7.1f s; PRISM −%.1f%% vs the better baseline", b.mix, b.n, p, f, y, 100*gain)
		if !(p < f && p < y) {
			t.Errorf("%s %d jobs: PRISM %.1f s is not below Fair %.1f s and YARN %.1f s (Fig. 15)", b.mix, b.n, p, f, y)
		}
	}
	t.Logf("Fig. 15: largest reduction against the better baseline %.1f%% (paper: up to 24%%)", 100*best)
	if !(best >= 0.12 && best <= 0.36) {
		t.Errorf("largest reduction %.1f%% is outside [12%%, 36%%] (paper: up to 24%%)", 100*best)
	}
	bs := seed004Batches(t)
	for _, i := range []int{3, 7} { // each mix's largest batch
		b := bs[i]
		if f, y := b.res[SchedFair].MeanRun, b.res[SchedYARN].MeanRun; !(y < f) {
			t.Errorf("%s %d jobs: YARN %.1f s is not below Fair %.1f s (§6.3: YARN outperforms Fair for large workloads)", b.mix, b.n, y, f)
		}
	}
}

// Figs. 17–19 (§6.3: "PRISM generally provides higher resource
// utilization than the Fair Scheduler ... PRISM achieves higher I/O
// throughput than Hadoop Yarn, but slightly lower CPU utilization").
// Holds: PRISM's mean CPU and disk utilisation above Fair's, and its disk
// utilisation above YARN's, at every batch size. Not as the paper: PRISM's
// CPU utilisation is above YARN's too (logged, not checked).
func TestSeed004Utilisation(t *testing.T) {
	for _, b := range seed004Batches(t) {
		p, f, y := b.res[SchedPrism].MeanUtil, b.res[SchedFair].MeanUtil, b.res[SchedYARN].MeanUtil
		t.Logf("Figs. 17–19 %-7s %3d jobs: mean utilisation cpu PRISM / Fair / YARN %.3f / %.3f / %.3f, disk %.3f / %.3f / %.3f, network %.3f / %.3f / %.3f",
			b.mix, b.n, p[CPU], f[CPU], y[CPU], p[Disk], f[Disk], y[Disk], p[Network], f[Network], y[Network])
		for _, d := range []Dim{CPU, Disk} {
			if !(p[d] > f[d]) {
				t.Errorf("%s %d jobs: PRISM %s utilisation %.3f is not above Fair's %.3f", b.mix, b.n, d, p[d], f[d])
			}
		}
		if !(p[Disk] > y[Disk]) {
			t.Errorf("%s %d jobs: PRISM disk utilisation %.3f is not above YARN's %.3f", b.mix, b.n, p[Disk], y[Disk])
		}
	}
}

// Fig. 20 (§6.3: PRISM "is able to achieve high ANP values compared to
// both Fair Scheduler and Yarn. However, it delivers slightly higher
// unfairness than the Fair Scheduler ... Yarn achieves the worst
// unfairness values"). Holds: YARN's unfairness (CV of ANP) is the
// highest and PRISM's mean ANP is above Fair's, at every batch size;
// PRISM's unfairness is above Fair's at 6 or more of the 8 sizes and
// within 0.1 of it at every size ("slightly"; under the deficit in
// resource shares, FairnessDeficit, it was below Fair's at every size).
// Does not hold (logged): PRISM's mean ANP is below YARN's (YARN serves at
// most YARNMaxActiveApps jobs first come first served, so its early jobs
// run near their ideal time and lift the mean; the median ANP, logged,
// shows it: PRISM's is above YARN's on PUMA, not on Gridmix).
func TestSeed004Fairness(t *testing.T) {
	above := 0
	for _, b := range seed004Batches(t) {
		p, f, y := b.res[SchedPrism].ANP, b.res[SchedFair].ANP, b.res[SchedYARN].ANP
		t.Logf("Fig. 20 %-7s %3d jobs: mean ANP PRISM / Fair / YARN %.3f / %.3f / %.3f (median %.3f / %.3f / %.3f); unfairness (CV of ANP) %.3f / %.3f / %.3f",
			b.mix, b.n, p.MeanANP, f.MeanANP, y.MeanANP, medianANP(t, b.res[SchedPrism]), medianANP(t, b.res[SchedFair]), medianANP(t, b.res[SchedYARN]),
			p.Unfairness, f.Unfairness, y.Unfairness)
		if !(y.Unfairness > p.Unfairness && y.Unfairness > f.Unfairness) {
			t.Errorf("%s %d jobs: YARN's unfairness %.3f is not the highest (PRISM %.3f, Fair %.3f)", b.mix, b.n, y.Unfairness, p.Unfairness, f.Unfairness)
		}
		if !(p.MeanANP > f.MeanANP) {
			t.Errorf("%s %d jobs: PRISM's mean ANP %.3f is not above Fair's %.3f", b.mix, b.n, p.MeanANP, f.MeanANP)
		}
		if p.Unfairness > f.Unfairness {
			above++
		}
		if d := p.Unfairness - f.Unfairness; !(math.Abs(d) <= 0.1) {
			t.Errorf("%s %d jobs: PRISM's unfairness %.3f is not within 0.1 of Fair's %.3f (\"slightly higher\")", b.mix, b.n, p.Unfairness, f.Unfairness)
		}
	}
	t.Logf("Fig. 20: PRISM's unfairness above Fair's at %d of 8 batch sizes (paper: slightly higher)", above)
	if above < 6 {
		t.Errorf("PRISM's unfairness is above Fair's at %d of 8 batch sizes, want 6 or more (Fig. 20c–d: slightly higher)", above)
	}
}

// medianANP is the median of a run's per-job ANP values.
func medianANP(t *testing.T, r *PhaseSimResult) float64 {
	t.Helper()
	anp, err := ANP(nil, r.Ideal, r.RunTime)
	if err != nil || len(anp) == 0 {
		t.Fatalf("anp: %v (%d jobs)", err, len(anp))
	}
	slices.Sort(anp)
	if n := len(anp); n%2 == 0 {
		return (anp[n/2-1] + anp[n/2]) / 2
	}
	return anp[len(anp)/2]
}

// The earlier reading (LegacyPrismConfig: eq. 3's DRF spread, α = 1,
// ε = 0.01; Seed004ThrashDiskNet: no CPU thrashing) on the PUMA batch of
// 100 jobs: PRISM's mean job running time is above Fair's and YARN's
// (673.6 s against 528.5 s and 580.6 s when it was the default), the
// figure issue 28 reported and the reason the defaults changed.
func TestSeed004LegacyReading(t *testing.T) {
	batch, err := PUMAMix().Batch(100)
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := MixPhaseJobs(batch, DefaultProfiles(), sortPeak())
	if err != nil {
		t.Fatal(err)
	}
	mean := map[PhaseScheduler]float64{}
	for _, sched := range []PhaseScheduler{SchedPrism, SchedFair, SchedYARN} {
		cfg := seed004Setup(sched)
		cfg.Prism, cfg.Thrash = LegacyPrismConfig(), Seed004ThrashDiskNet()
		mean[sched] = runPhaseSim(t, cfg, jobs).MeanRun
	}
	t.Logf("legacy reading, PUMA 100 jobs: mean job running time PRISM / Fair / YARN %.1f / %.1f / %.1f s", mean[SchedPrism], mean[SchedFair], mean[SchedYARN])
	if !(mean[SchedPrism] > mean[SchedFair] && mean[SchedPrism] > mean[SchedYARN]) {
		t.Errorf("legacy reading: PRISM %.1f s is not above Fair %.1f s and YARN %.1f s", mean[SchedPrism], mean[SchedFair], mean[SchedYARN])
	}
}

// Fig. 7 under HDFS replication (ReplicateHDFSWrites with Hadoop's default
// 3 replicas): the reduce phase's output is written to three datanodes, so
// each reduce phase also loads disks and links with the two remote
// replicas its task counters do not show. Holds: with Seed004Thrash, the
// sort's running time by reduce slots (8 map slots, Fair filling every
// slot, the sweep of Fig. 7) is shortest at 6, the paper's optimum (10
// without replication, TestSeed004SingleSort). Logged: §6.2's single sort
// and the batches of Fig. 15 under replication. It is not the default:
// Fig. 15b then fails (Gridmix 50–100 jobs: YARN below PRISM).
func TestSeed004Fig7Replication(t *testing.T) {
	rep, err := ReplicateHDFSWrites([]PhaseJob{seed004SortJob()}, HDFSReplication)
	if err != nil {
		t.Fatal(err)
	}
	job := rep[0]
	best, line := seed004SlotOptimum(t, job, true, Seed004Thrash())
	t.Logf("Fig. 7 with %d HDFS replicas: sort by reduce slots%s; optimum %d (paper 6)", HDFSReplication, line, best)
	if best != Seed004ReduceSlots {
		t.Errorf("with %d HDFS replicas the reduce slots minimising the sort are %d, want %d (Fig. 7)", HDFSReplication, best, Seed004ReduceSlots)
	}
	th := Seed004Thrash()
	fair := seed004SortRun(t, SchedFair, job, Seed004MapSlots, Seed004ReduceSlots, FairOneTask, th)
	yarn := seed004SortRun(t, SchedYARN, job, Seed004MapSlots, Seed004ReduceSlots, 0, th)
	prism := seed004SortRun(t, SchedPrism, job, Seed004MapSlots, Seed004ReduceSlots, 0, th)
	t.Logf("§6.2 sort with %d HDFS replicas: Fair / YARN / PRISM %.1f / %.1f / %.1f s; fair/prism %.3f, yarn/prism %.3f (paper: 149 / 152 / 125 s; 1.192, 1.216)",
		HDFSReplication, fair, yarn, prism, fair/prism, yarn/prism)
	for _, mix := range []Mix{PUMAMix(), GridmixMix()} {
		for _, n := range mix.BatchSizes {
			batch, err := mix.Batch(n)
			if err != nil {
				t.Fatal(err)
			}
			jobs, err := MixPhaseJobs(batch, DefaultProfiles(), sortPeak())
			if err == nil {
				jobs, err = ReplicateHDFSWrites(jobs, HDFSReplication)
			}
			if err != nil {
				t.Fatal(err)
			}
			var mean [3]float64
			for i, sched := range []PhaseScheduler{SchedPrism, SchedFair, SchedYARN} {
				mean[i] = runPhaseSim(t, seed004Setup(sched), jobs).MeanRun
			}
			t.Logf("Fig. 15 with %d HDFS replicas, %-7s %3d jobs: mean job running time PRISM / Fair / YARN %.1f / %.1f / %.1f s", HDFSReplication, mix.Name, n, mean[0], mean[1], mean[2])
		}
	}
}
