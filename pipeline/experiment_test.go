package pipeline

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/internal/cputime"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
)

func testJobs(n int, seed uint64) []sim.Job {
	rng := rand.New(rand.NewPCG(seed, 5))
	jobs := poissonJobs(rng, n, 0.8, func() float64 { return rng.ExpFloat64() })
	for i := range jobs {
		jobs[i].Weight = float64(1 + rng.IntN(3))
	}
	return jobs
}

// The runner's summaries are those of the simulation core run by hand
// (sim.Simulate, sim.Metrics.Compute with PS deadlines), whatever the number
// of workers; run r draws its estimates from estimate.RunRand(seed, r), the
// same draw for every policy (seed 001 §3.2's log-normal model).
func TestExperimentMatchesTheCoreAndIgnoresWorkers(t *testing.T) {
	jobs := testJobs(300, 1)
	dl, err := experiment.PSDeadlines(jobs, 1)
	if err != nil {
		t.Fatal(err)
	}
	m := estimate.ErrorModel{Kind: estimate.LogNormal, Sigma: 0.5}
	x := &experiment.Experiment{Jobs: jobs, Capacity: 1, Deadlines: dl, Policies: []string{"srpt", "gps", "fsp+ps"}, Errors: m, Runs: 4, Seed: 9}
	var results []*experiment.ExperimentResult
	for _, w := range []int{1, 3} {
		res, err := x.Run(context.Background(), experiment.RunOptions{Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, res)
	}
	if !reflect.DeepEqual(results[0], results[1]) {
		t.Fatal("results depend on the number of workers")
	}
	sizes := make([]float64, len(jobs))
	for i, j := range jobs {
		sizes[i] = j.Size
	}
	for p, pr := range results[0].Policies {
		for k, run := range pr.Runs {
			est := m.Apply(sizes, estimate.RunRand(9, uint64(run)), nil)
			byHand := slices.Clone(jobs)
			for i := range byHand {
				byHand[i].Estimate = est[i]
			}
			pol, _ := sim.ParsePolicy(x.Policies[p])
			r, err := sim.Simulate(byHand, 1, pol)
			if err != nil {
				t.Fatal(err)
			}
			var met sim.Metrics
			if want := met.ComputeRun(byHand, r, 1, dl); pr.Summaries[k] != want {
				t.Errorf("%s run %d: runner %+v, by hand %+v", pr.Policy, run, pr.Summaries[k], want)
			}
		}
	}
	// gps uses no estimates: one simulation stands for its four runs.
	if g := results[0].Policies[1]; g.Simulated != 1 || g.Uses.Estimates || g.Summaries[0] != g.Summaries[3] {
		t.Errorf("gps: simulated %d times, uses %+v", g.Simulated, g.Uses)
	}
	if s := results[0].Policies[0]; s.Simulated != 4 || s.Summaries[0] == s.Summaries[1] {
		t.Errorf("srpt: simulated %d times; runs differ: %v", s.Simulated, s.Summaries[0] != s.Summaries[1])
	}
	a := results[0].Policies[0].Aggregate()
	if a.Runs != 4 || !(a.MeanResponse.Min <= a.MeanResponse.P50 && a.MeanResponse.P50 <= a.MeanResponse.Max) {
		t.Errorf("aggregate %+v", a)
	}
}

// recorder is a Resolution that runs the fluid core and records the blocks
// it was given, as a task-level resolution would see them.
type recorder struct{ firsts chan int }

func (r recorder) Name() string                               { return "recorder" }
func (r recorder) Policy(spec string) (sim.PolicyInfo, error) { return experiment.Fluid.Policy(spec) }
func (r recorder) NewSimulator() experiment.Simulator {
	return &recordingSim{r, experiment.Fluid.NewSimulator()}
}

type recordingSim struct {
	r recorder
	s experiment.Simulator
}

func (s *recordingSim) Simulate(ctx context.Context, jobs []sim.Job, first int, c float64, policy string) (*sim.Result, error) {
	s.r.firsts <- first
	return s.s.Simulate(ctx, jobs, first, c, policy)
}

// Blocks: each block is simulated from an empty system and the resolution is
// told where it starts; the summary is over all jobs. Select keeps the runs
// it picks, with the same results as the full experiment's.
func TestExperimentBlocksSelectAndResolution(t *testing.T) {
	jobs := testJobs(103, 2)
	rec := recorder{make(chan int, 16)}
	x := &experiment.Experiment{Jobs: jobs, Capacity: 1, Policies: []string{"las"}, Runs: 1, Blocks: 4, Resolution: rec, KeepRows: true}
	res, err := x.Run(context.Background(), experiment.RunOptions{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	close(rec.firsts)
	var firsts []int
	for f := range rec.firsts {
		firsts = append(firsts, f)
	}
	if !slices.Equal(firsts, []int{0, 25, 51, 77}) {
		t.Errorf("blocks start at %v, want 0, 25, 51, 77", firsts)
	}
	var done []float64
	for k := 0; k < 4; k++ {
		p, _ := sim.ParsePolicy("las")
		r, err := sim.Simulate(jobs[k*103/4:(k+1)*103/4], 1, p)
		if err != nil {
			t.Fatal(err)
		}
		done = append(done, r.Completion...)
	}
	if got := res.Policies[0].Rows.Completion; !slices.Equal(got, done) {
		t.Error("blocked completions differ from the blocks simulated one by one")
	}

	full := &experiment.Experiment{Jobs: jobs, Capacity: 1, Policies: []string{"srpt", "ps"}, Errors: estimate.ErrorModel{Kind: estimate.Uniform, I: 0.5}, Runs: 6, Seed: 3}
	all, err := full.Run(context.Background(), experiment.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	part := *full
	part.Select = func(r int) bool { return r%3 == 1 }
	some, err := part.Run(context.Background(), experiment.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for p := range all.Policies {
		got := some.Policies[p]
		if !slices.Equal(got.Runs, []int{1, 4}) || got.Summaries[0] != all.Policies[p].Summaries[1] || got.Summaries[1] != all.Policies[p].Summaries[4] {
			t.Errorf("%s: selected runs %v differ from the full experiment's", got.Policy, got.Runs)
		}
	}
}

func TestExperimentChecksAndCancels(t *testing.T) {
	jobs := testJobs(50, 3)
	for _, x := range []*experiment.Experiment{
		{Jobs: jobs, Capacity: 0, Policies: []string{"ps"}, Runs: 1},
		{Jobs: jobs, Capacity: 1, Policies: []string{"nope"}, Runs: 1},
		{Jobs: jobs, Capacity: 1, Policies: []string{"ps"}, Runs: 0},
		{Jobs: jobs, Capacity: 1, Policies: []string{"ps"}, Runs: 1, Deadlines: []float64{1}},
		{Jobs: jobs, Capacity: 1, Policies: nil, Runs: 1},
		{Jobs: jobs, Capacity: 1, Policies: []string{"ps"}, Runs: 1, Errors: estimate.ErrorModel{Kind: estimate.Uniform, I: 2}},
	} {
		if _, err := x.Run(context.Background(), experiment.RunOptions{}); err == nil {
			t.Errorf("%+v was run", x)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	big := &experiment.Experiment{Jobs: testJobs(20000, 4), Capacity: 1, Policies: []string{"srpt", "pfsp"}, Runs: 1000, Seed: 1,
		Errors: estimate.ErrorModel{Kind: estimate.LogNormal, Sigma: 1}}
	start := time.Now()
	var cpuAt atomic.Int64 // cputime.Self at the cancel (CPU, not wall time: cputime's doc)
	time.AfterFunc(50*time.Millisecond, func() { cpuAt.Store(int64(cputime.Self())); cancel() })
	_, err := big.Run(ctx, experiment.RunOptions{})
	if cpu := cputime.Self() - time.Duration(cpuAt.Load()); !errors.Is(err, context.Canceled) || cpu > time.Second || time.Since(start) > 30*time.Second {
		t.Errorf("cancelled after %v, %v of CPU after the cancel: %v", time.Since(start), cpu, err)
	}
	// What it would have cost is refused up front.
	var tb *experiment.TooBigError
	c := big.Cost()
	if c.Simulations != 2000 || c.JobSteps != 2000*20000 {
		t.Errorf("cost %+v", c)
	}
	big.Runs = 1 << 29
	if err := experiment.CheckCost("simulate", big.Cost()); !errors.As(err, &tb) {
		t.Errorf("a billion simulations were not refused: %v", err)
	}
}

// OfferedLoad is Σ sizes over capacity × span.
func TestOfferedLoad(t *testing.T) {
	jobs := []sim.Job{{Arrival: 10, Size: 30}, {Arrival: 20, Size: 10}, {Arrival: 30, Size: 20}}
	if l := experiment.OfferedLoad(jobs, 2); l != 60.0/(2*20) {
		t.Errorf("load %v, want 1.5", l)
	}
	if w := tasklevel.OverloadWarning(1.5, 2, "given"); w == "" {
		t.Error("no warning above 1")
	}
	if w := tasklevel.OverloadWarning(0.9, 2, "given"); w != "" {
		t.Errorf("warning at 0.9: %s", w)
	}
}
