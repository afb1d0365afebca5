package pipeline

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
	"time"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// poissonJobs draws n jobs with Poisson arrivals and sizes from draw, scaled
// so that the offered load on capacity 1 is load.
func poissonJobs(rng *rand.Rand, n int, load float64, draw func() float64) []sim.Job {
	jobs := make([]sim.Job, n)
	mean := 0.0
	sizes := make([]float64, n)
	for i := range sizes {
		sizes[i] = draw()
		mean += sizes[i] / float64(n)
	}
	t := 0.0
	for i := range jobs {
		t += rng.ExpFloat64() * mean / load
		jobs[i] = sim.Job{Arrival: t, Size: sizes[i], Estimate: sizes[i], Weight: 1}
	}
	return jobs
}

func TestBoundsHoldOnRandomTraces(t *testing.T) {
	for seed := uint64(1); seed <= 20; seed++ {
		rng := rand.New(rand.NewPCG(seed, 7))
		jobs := poissonJobs(rng, 300, 0.5+rng.Float64(), func() float64 { return math.Pow(rng.Float64(), -1.5) - 0.9 })
		b, err := experiment.ComputeBounds(jobs, 1)
		if err != nil {
			t.Fatal(err)
		}
		const eps = 1e-9
		if !(b.SRPTMean <= b.FSPMean*(1+eps) && b.FSPMean <= b.PSMean*(1+eps)) {
			t.Errorf("seed %d: SRPT %v ≤ FSP %v ≤ PS %v fails", seed, b.SRPTMean, b.FSPMean, b.PSMean)
		}
		if b.FSPMissed != 0 {
			t.Errorf("seed %d: FSP with exact sizes missed %d PS deadlines", seed, b.FSPMissed)
		}
		res, err := (&experiment.Experiment{Jobs: jobs, Capacity: 1, Policies: sim.PolicyNames(), Runs: 1}).Run(context.Background(), experiment.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range res.Policies {
			if m := p.Summaries[0].Response.Mean; m < b.SRPTMean*(1-eps) {
				t.Errorf("seed %d: %s mean %v below the SRPT lower bound %v", seed, p.Policy, m, b.SRPTMean)
			}
		}
		if b.Gap(b.SRPTMean) != 0 || b.Gap(2*b.SRPTMean) != 1 {
			t.Error("gap arithmetic")
		}
	}
}

func TestTunedAlpha0SeparatesBimodalSizes(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	jobs := poissonJobs(rng, 4000, 0.9, func() float64 {
		if rng.Float64() < 0.9 {
			return 1
		}
		return 100
	})
	split, err := experiment.SplitByTime(jobs, 0.7)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := tuner.TuneLASMQWindows(context.Background(), jobs, 1, split, tuner.TuneOptions{Budget: 200})
	if err != nil {
		t.Fatal(err)
	}
	b := rep.Best
	// The first threshold must let the small jobs (size 1) finish in the top
	// queue and demote the large ones (size 100) before they finish.
	if !(b.Alpha0 > 1 && b.Alpha0 < 100) {
		t.Errorf("tuned α0 = %v does not separate sizes 1 and 100", b.Alpha0)
	}
	tuned, def := rep.Compare[0], rep.Compare[1]
	if !(tuned.Validate.Mean < def.Validate.Mean) {
		t.Errorf("tuned %v does not beat Hu et al.'s default %v on the validation window", tuned.Validate.Mean, def.Validate.Mean)
	}
	t.Logf("bimodal: tuned %v: validation mean %.3f, default %.3f, fair %.3f", b, tuned.Validate.Mean, def.Validate.Mean, rep.Compare[3].Validate.Mean)
}

func embeddedSimJobs(t testing.TB) []sim.Job {
	j, err := data.Open("embedded", data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sizes, _, err := estimate.Sizes(j, estimate.DefaultSizeOptions())
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := experiment.JobsOf(j, sizes, nil)
	if err != nil {
		t.Fatal(err)
	}
	return jobs
}

func TestTuneEmbeddedTrace(t *testing.T) {
	jobs := embeddedSimJobs(t)
	split, err := experiment.SplitByTime(jobs, 0.7)
	if err != nil {
		t.Fatal(err)
	}
	if split.TuneJobs+split.ValidJobs != len(jobs) || split.TuneJobs < 4000 {
		t.Fatalf("split %+v", split)
	}
	rep, err := tuner.TuneLASMQWindows(context.Background(), jobs, 1, split, tuner.TuneOptions{Budget: 150})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rep.Compare {
		t.Logf("%-22s tune %10.3f  validate %10.3f  (%s)", c.Name, c.Tune.Mean, c.Validate.Mean, c.Policy)
	}
	tuned, def, fair := rep.Compare[0], rep.Compare[1], rep.Compare[3]
	if !(tuned.Tune.Mean <= def.Tune.Mean && tuned.Tune.Mean <= fair.Tune.Mean) {
		t.Errorf("on its own tuning window the tuned configuration loses: %v vs default %v, fair %v", tuned.Tune.Mean, def.Tune.Mean, fair.Tune.Mean)
	}
	if !(tuned.Validate.Mean < def.Validate.Mean && tuned.Validate.Mean < fair.Validate.Mean) {
		t.Errorf("on the validation window the tuned configuration (%v) does not beat the default (%v) and fair (%v)", tuned.Validate.Mean, def.Validate.Mean, fair.Validate.Mean)
	}
	if len(rep.Robustness) != 6 {
		t.Errorf("%d robustness rows", len(rep.Robustness))
	}
}

// BenchmarkTune500 is the tuning budget of issue 18: 500 candidate
// configurations × 5 rolling-origin folds on the embedded trace's tuning
// window (70%, 4,126 jobs) in ≤ 30 s on 2 cores, candidates that use size
// estimates scored under σ = 0, 0.5 and 1. It reports seconds per tuning
// run and candidate-fold simulations per second.
func BenchmarkTune500(b *testing.B) {
	jobs := embeddedSimJobs(b)
	split, err := experiment.SplitByTime(jobs, 0.7)
	if err != nil {
		b.Fatal(err)
	}
	tuneJobs, _ := split.Windows(jobs)
	b.ResetTimer()
	start := time.Now()
	n, sims := 0, 0
	for i := 0; i < b.N; i++ {
		res, err := tuner.TuneCV(context.Background(), tuneJobs, 1, tuner.TuneOptions{Budget: 500, Folds: 5}, tuner.SimulateWindows(nil, 1))
		if err != nil {
			b.Fatal(err)
		}
		n += tuner.CountScored(res.Candidates)
		for _, c := range res.Candidates {
			sims += len(res.Folds) * max(1, len(c.BySigma))
		}
	}
	sec := time.Since(start).Seconds() / float64(b.N)
	b.ReportMetric(sec, "s/tune")
	b.ReportMetric(float64(n)/float64(b.N), "candidates/tune")
	b.ReportMetric(float64(sims)/time.Since(start).Seconds(), "fold-sims/s")
	b.ReportMetric(float64(runtime.GOMAXPROCS(0)), "procs")
}
