package experiment

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/schedplan/schedplan/cluster/sim"
)

// testJobs are n jobs arriving as a Poisson process at load about 0.9.
func testJobs(n int, seed uint64) []sim.Job {
	rng := rand.New(rand.NewPCG(seed, 7))
	jobs := make([]sim.Job, n)
	at := 0.0
	for i := range jobs {
		at += rng.ExpFloat64()
		s := 0.9 * rng.ExpFloat64()
		jobs[i] = sim.Job{Arrival: at, Size: s, Estimate: s, Weight: 1}
	}
	return jobs
}

// runWithin runs the experiments, failing the test when they take longer
// than a minute (a run waiting for deadlines that never come).
func runWithin(t *testing.T, opt RunOptions, xs ...*Experiment) ([]*ExperimentResult, error) {
	t.Helper()
	type result struct {
		out []*ExperimentResult
		err error
	}
	ch := make(chan result, 1)
	go func() {
		out, err := RunExperiments(context.Background(), opt, xs...)
		ch <- result{out, err}
	}()
	select {
	case r := <-ch:
		return r.out, r.err
	case <-time.After(time.Minute):
		t.Fatal("RunExperiments did not return: deadlock")
		return nil, nil
	}
}

// TestReferenceDeadlinesEqualGiven checks that deadlines from a reference
// run of the pool give every run (the reference's experiment's and another
// experiment's sharing it) the summaries that the same deadlines, computed
// before the pool and given as Deadlines, give — on any number of workers,
// with the reference policy last (it must still start first: on one worker
// a run waiting for it would otherwise never end).
func TestReferenceDeadlinesEqualGiven(t *testing.T) {
	jobs := testJobs(400, 1)
	ps, err := PSDeadlines(jobs, 1)
	if err != nil {
		t.Fatal(err)
	}
	late := func(c []float64) []float64 { // a deadline function that is not the identity
		out := make([]float64, len(c))
		for i, v := range c {
			out[i] = v + 0.1*(v-jobs[i].Arrival)
		}
		return out
	}
	policies := []string{"fifo", "srpt", "las", "gps"}
	for _, workers := range []int{1, 2, 3} {
		given := []*Experiment{
			{Jobs: jobs, Capacity: 1, Deadlines: late(ps), Policies: policies, Runs: 1},
			{Jobs: jobs, Capacity: 1, Deadlines: late(ps), Policies: []string{"fsp"}, Runs: 1},
		}
		want, err := RunExperiments(context.Background(), RunOptions{Workers: workers}, given...)
		if err != nil {
			t.Fatal(err)
		}
		x := &Experiment{Jobs: jobs, Capacity: 1, Policies: policies, Runs: 1, Local: true}
		x.Reference = &Reference{Of: x, Policy: 3, Deadlines: late}
		y := &Experiment{Jobs: jobs, Capacity: 1, Policies: []string{"fsp"}, Runs: 1, Reference: x.Reference, Local: true}
		// y first: the reference run of x still starts before y's.
		got, err := runWithin(t, RunOptions{Workers: workers}, y, x)
		if err != nil {
			t.Fatal(err)
		}
		for xi, pair := range [][2]*ExperimentResult{{want[0], got[1]}, {want[1], got[0]}} {
			for p := range pair[0].Policies {
				w, g := pair[0].Policies[p].Summaries[0], pair[1].Policies[p].Summaries[0]
				if w != g {
					t.Errorf("%d workers, experiment %d, %s: summary %+v with the reference's deadlines, want %+v", workers, xi, policies[p], g, w)
				}
				if g.Missed == 0 && p != 3 && xi == 0 {
					t.Errorf("%d workers, %s: no missed deadline: the test does not test the deadlines", workers, policies[p])
				}
			}
		}
	}
}

// failing is the fluid resolution with one more policy, "fail", whose
// simulation fails.
type failing struct{}

func (failing) Name() string { return "failing" }
func (failing) Policy(spec string) (sim.PolicyInfo, error) {
	if spec == "fail" {
		return sim.PolicyInfo{}, nil
	}
	return Fluid.Policy(spec)
}
func (failing) NewSimulator() Simulator { return failingSim{&FluidSimulator{}} }

type failingSim struct{ f *FluidSimulator }

var errFail = errors.New("the policy failed")

func (s failingSim) Simulate(ctx context.Context, jobs []sim.Job, first int, c float64, spec string) (*sim.Result, error) {
	if spec == "fail" {
		return nil, errFail
	}
	return s.f.Simulate(ctx, jobs, first, c, spec)
}

// TestReferenceFailureStopsThePool checks that a reference run that fails
// ends the pool with its error instead of leaving the runs that wait for
// its deadlines waiting, and that RunExperiments refuses a reference it
// cannot run: its experiment absent, with a Sink, taking its deadlines
// elsewhere, or sharded.
func TestReferenceFailureStopsThePool(t *testing.T) {
	jobs := testJobs(200, 2)
	id := func(c []float64) []float64 { return slices.Clone(c) }
	for _, workers := range []int{1, 2} {
		x := &Experiment{Jobs: jobs, Capacity: 1, Policies: []string{"fifo", "fail", "srpt"}, Runs: 1, Resolution: failing{}}
		x.Reference = &Reference{Of: x, Policy: 1, Deadlines: id}
		if _, err := runWithin(t, RunOptions{Workers: workers}, x); !errors.Is(err, errFail) {
			t.Errorf("%d workers: error %v, want the reference run's", workers, err)
		}
	}
	other := &Experiment{Jobs: jobs, Capacity: 1, Policies: []string{"gps"}, Runs: 1}
	sink := &Experiment{Jobs: jobs, Capacity: 1, Policies: []string{"gps"}, Runs: 1, Sink: func(*RunRows) error { return nil }}
	sink.Reference = &Reference{Of: sink, Deadlines: id}
	local := &Experiment{Jobs: jobs, Capacity: 1, Policies: []string{"gps"}, Runs: 1}
	local.Reference = &Reference{Of: local, Deadlines: id}
	for _, tc := range []struct {
		name string
		opt  RunOptions
		xs   []*Experiment
		want string
	}{
		{"absent", RunOptions{}, []*Experiment{{Jobs: jobs, Capacity: 1, Policies: []string{"fifo"}, Runs: 1, Reference: &Reference{Of: other, Deadlines: id}}}, "not among"},
		{"sink", RunOptions{}, []*Experiment{sink}, "Sink"},
		{"elsewhere", RunOptions{}, []*Experiment{other, {Jobs: jobs, Capacity: 1, Policies: []string{"fifo"}, Runs: 1, Reference: &Reference{Of: other, Deadlines: id}}}, "elsewhere"},
		{"sharded", RunOptions{Units: &UnitHook{Index: 0, Count: 2}}, []*Experiment{local}, "sharded"},
		{"policy", RunOptions{}, []*Experiment{{Jobs: jobs, Capacity: 1, Policies: []string{"fifo"}, Runs: 1}}, ""},
	} {
		if tc.name == "policy" {
			x := tc.xs[0]
			x.Reference = &Reference{Of: x, Policy: 1, Deadlines: id}
			tc.want = "reference policy 1 of 1"
		}
		_, err := RunExperiments(context.Background(), tc.opt, tc.xs...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}

// TestLocalUnitsAreNotSharded checks that a UnitHook numbers and shards
// only the units of experiments that are not Local: a shard's units, and
// their numbers, are the same with a Local experiment pooled before them
// as without it, and the Local experiment's runs are all simulated.
func TestLocalUnitsAreNotSharded(t *testing.T) {
	jobs := testJobs(300, 3)
	sharded := func() *Experiment {
		return &Experiment{Jobs: jobs, Capacity: 1, Policies: []string{"fifo", "srpt", "gps", "las"}, Runs: 1}
	}
	alone := &UnitHook{Index: 1, Count: 2}
	if _, err := RunExperiments(context.Background(), RunOptions{Units: alone}, sharded()); err != nil {
		t.Fatal(err)
	}
	pooled := &UnitHook{Index: 1, Count: 2}
	local := &Experiment{Jobs: jobs, Capacity: 1, Policies: []string{"fsp", "pfsp", "srpt"}, Runs: 1, Local: true}
	out, err := RunExperiments(context.Background(), RunOptions{Units: pooled}, local, sharded())
	if err != nil {
		t.Fatal(err)
	}
	if pooled.Units != alone.Units || len(pooled.Mine) != len(alone.Mine) {
		t.Fatalf("pooled shard: %d of %d units, want %d of %d", len(pooled.Mine), pooled.Units, len(alone.Mine), alone.Units)
	}
	for i, r := range alone.Mine {
		if pooled.Mine[i].Summary != r.Summary {
			t.Errorf("unit %d: %+v pooled with a Local experiment, want %+v", i, pooled.Mine[i].Summary, r.Summary)
		}
	}
	for p, pr := range out[0].Policies {
		if pr.Summaries[0].Jobs != len(jobs) {
			t.Errorf("Local policy %s was not simulated", local.Policies[p])
		}
	}
}

// counting is the fluid resolution, counting the simulators it makes.
type counting struct{ made int }

func (*counting) Name() string                               { return "counting" }
func (*counting) Policy(spec string) (sim.PolicyInfo, error) { return Fluid.Policy(spec) }
func (c *counting) NewSimulator() Simulator                  { c.made++; return &FluidSimulator{} }

// TestWorkerKeepsOneSimulator checks that a worker keeps the simulator of
// the last resolution it ran only: a pool that alternates between two
// resolutions on one worker makes a simulator at every change (it used to
// keep one of each, so a task-level simulator's hundreds of bytes a job
// stayed live through the fluid runs after it).
func TestWorkerKeepsOneSimulator(t *testing.T) {
	jobs := testJobs(100, 4)
	a, b := &counting{}, &counting{}
	x := func(r Resolution) *Experiment {
		return &Experiment{Jobs: jobs, Capacity: 1, Policies: []string{"fifo", "gps"}, Runs: 1, Resolution: r}
	}
	if _, err := RunExperiments(context.Background(), RunOptions{Workers: 1}, x(a), x(b), x(a), x(a), x(b)); err != nil {
		t.Fatal(err)
	}
	if a.made != 2 || b.made != 2 {
		t.Errorf("simulators made: %d of resolution a (experiments 1, 3–4), %d of b (2, 5), want 2 and 2", a.made, b.made)
	}
}
