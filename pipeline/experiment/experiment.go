package experiment

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/estimate"
)

// Resolution is a simulation core an Experiment runs on. The fluid core of
// package cluster/sim is Fluid, the default; the task-level core (package
// cluster/task: jobs as stages of tasks on the nodes of the cluster spec)
// plugs in as another Resolution, so every experiment — simulate, sweep,
// tuning, validation — can run on either without a second copy of the
// runner. A resolution reads policy specifications in its own grammar and
// says what each policy uses, so that the runner asks the policy rather than
// a list of names (a policy that uses no size estimates is simulated once
// per experiment, however many error runs there are).
type Resolution interface {
	// Name names the resolution in messages ("fluid").
	Name() string
	// Policy checks a policy specification and says what the policy uses.
	Policy(spec string) (sim.PolicyInfo, error)
	// NewSimulator returns a simulator for one goroutine.
	NewSimulator() Simulator
}

// Simulator runs policies for a Resolution. It is used by one goroutine at a
// time and may keep buffers and parsed policies between calls.
type Simulator interface {
	// Simulate runs policy (a specification the resolution's Policy
	// accepted) over jobs on a cluster of the given capacity and returns
	// every job's completion and response time, in seconds (responses on
	// the run's own clock, see sim.Result); the result is the Simulator's
	// until its next call. jobs[i] is job first+i of the
	// experiment's Jobs (first > 0 when the experiment runs in blocks), so
	// a resolution that knows more of each job than sim.Job holds (its
	// tasks, at task level) finds it by index. Each job's Estimate is the
	// size the policy may believe in this run; its Size is the truth. A
	// long run stops with ctx.Err() when ctx is done.
	Simulate(ctx context.Context, jobs []sim.Job, first int, capacity float64, policy string) (*sim.Result, error)
}

// EstimatesSimulator is a Simulator that also takes a run's estimates as
// a column, est[i] job i's in place of jobs[i].Estimate: runs with
// estimation errors then draw 8 B a job per worker, not a 48-byte copy of
// every job (the fluid resolution's; a resolution without it is handed
// such a copy).
type EstimatesSimulator interface {
	SimulateEstimates(ctx context.Context, jobs []sim.Job, est []float64, first int, capacity float64, policy string) (*sim.Result, error)
}

// Fluid is the fluid resolution: one server of capacity C whose policy gives
// every active job a rate (seed 001's model; package cluster/sim).
var Fluid Resolution = fluid{}

type fluid struct{}

func (fluid) Name() string                               { return "fluid" }
func (fluid) Policy(spec string) (sim.PolicyInfo, error) { return sim.LookupPolicy(spec) }
func (fluid) NewSimulator() Simulator                    { return &FluidSimulator{} }

// FluidSimulator keeps one sim.Simulator and the policies it parsed last
// (a policy instance keeps its buffers between runs).
type FluidSimulator struct {
	s     sim.Simulator
	Specs []string
	Pols  []sim.Policy
}

// fluidPolicyCache is how many parsed policies a fluid simulator keeps;
// fluidCacheJobs bounds it further by the jobs of a run: a policy may keep
// per-job buffers (up to ~40 B a job: PFSP's, SRPT's; LAS_MQ keeps state
// per job in the system alone), so a worker keeps at most
// fluidCacheJobs / jobs of them (at least one). A validation window of
// 3 M jobs then holds one policy's buffers per worker, not one per
// configuration.
const (
	FluidPolicyCache = 16
	FluidCacheJobs   = 1_000_000
)

func (f *FluidSimulator) Simulate(_ context.Context, jobs []sim.Job, _ int, c float64, spec string) (*sim.Result, error) {
	p, err := f.Policy(spec, len(jobs))
	if err != nil {
		return nil, err
	}
	return f.s.Run(jobs, c, p)
}

// SimulateEstimates is Simulate with est[i] as job i's estimate
// (sim.Simulator.RunEstimates).
func (f *FluidSimulator) SimulateEstimates(_ context.Context, jobs []sim.Job, est []float64, _ int, c float64, spec string) (*sim.Result, error) {
	p, err := f.Policy(spec, len(jobs))
	if err != nil {
		return nil, err
	}
	return f.s.RunEstimates(jobs, est, c, p)
}

// forgetJobs drops the cached policies, which hold the jobs they ran last;
// the simulator keeps its buffers.
func (f *FluidSimulator) forgetJobs() {
	clear(f.Pols)
	clear(f.Specs)
	f.Specs, f.Pols = f.Specs[:0], f.Pols[:0]
}

// Policy returns the parsed policy of spec for a run of n jobs.
func (f *FluidSimulator) Policy(spec string, n int) (sim.Policy, error) {
	for i, s := range f.Specs {
		if s == spec {
			return f.Pols[i], nil
		}
	}
	p, err := sim.ParsePolicy(spec)
	if err != nil {
		return nil, err
	}
	keep := FluidPolicyCache
	if n > 0 {
		keep = min(keep, max(1, FluidCacheJobs/n))
	}
	for len(f.Specs) >= keep {
		f.Specs[0], f.Pols[0] = "", nil
		f.Specs, f.Pols = f.Specs[1:], f.Pols[1:]
	}
	f.Specs, f.Pols = append(f.Specs, spec), append(f.Pols, p)
	return p, nil
}

// Experiment is one set of simulations: every policy over the same jobs,
// Runs times, run r drawing its size estimates from estimate.RunRand(Seed,
// r), the same draw for every policy. It is the one experiment runner of
// schedplan: simulate, sweep, tuning's candidate scoring and the validation
// stage all build Experiments and run them with RunExperiments; results do
// not depend on the number of workers.
type Experiment struct {
	// Jobs carry the true sizes, weights and caps; their Estimate is used
	// as it is when Errors is exact, and replaced by each run's draw
	// otherwise.
	Jobs []sim.Job
	// Source, when set, builds the jobs in place of Jobs (which must then
	// be nil) when the pool first needs them; they are dropped after the
	// last run that reads them. The experiments of a pool with the same
	// Source and Scale share one build.
	Source *Source
	// Capacity is the cluster's capacity in the units of the sizes (1 for
	// sizes in seconds of the whole cluster; the spec's capacity for
	// container-seconds).
	Capacity float64
	// Deadlines are the jobs' PS completion times (PSDeadlines); with them
	// summaries count missed deadlines. Nil: not counted.
	Deadlines []float64
	// Alone is what the slowdowns are over: its times, when set, one per
	// job, and its floor (the task level's, task.FluidAlone); the zero
	// value is Size ÷ Capacity, the fluid server's.
	Alone sim.Alone
	// Policies are specifications the resolution accepts.
	Policies []string
	// Errors is the size-estimation error model (zero: exact).
	Errors estimate.ErrorModel
	Runs   int
	Seed   uint64
	// Select, when set, picks the runs to simulate (sweep shards); the
	// results hold only those, in run order.
	Select func(run int) bool
	// Blocks > 1 cuts the jobs into that many contiguous blocks of equal
	// job count, each simulated from an empty system, as tuning scores its
	// window (TuneOptions.Blocks); fewer than 2 jobs a block: one block.
	Blocks int
	// Resolution is the simulation core (nil: Fluid).
	Resolution Resolution
	// KeepRows keeps every job's result of every run (PolicyResult.Rows).
	KeepRows bool
	// Sink, when set, is handed every simulation's per-job results as the
	// simulation finishes (RunRows), instead of keeping them: one call at a
	// time, in the order of the policies and then of the runs whatever the
	// number of workers, so that what it writes is deterministic. Memory is
	// then bounded by the workers' buffers, not by policies × runs × jobs.
	// An error it returns stops the experiments.
	Sink func(*RunRows) error
	// MeanOnly, when set, summarises each run by its job count and mean
	// response only (what a load curve draws), skipping the per-job
	// metrics and their quantiles; it has no effect with KeepRows or a
	// Sink, which need them.
	MeanOnly bool
	// Scale, when positive, multiplies every job's size and estimate before
	// the run (a load factor), in one copy of the jobs that the pool's
	// workers share while the experiment's runs last (scaledCopies); 0
	// leaves them as they are.
	Scale float64
	// Reference, when set, gives the runs their deadlines from one run of
	// the pool instead of Deadlines (see Reference).
	Reference *Reference
	// Local keeps the experiment's runs out of a UnitHook: they are
	// neither numbered nor sharded, and always simulated (a stage's runs
	// that its shards do not compute, pooled with those they do).
	Local bool
}

// Source builds jobs for the experiments of a pool that read them
// (Experiment.Source), so that they are live only while those
// experiments' runs are, not for the whole pool: the validation window
// is not held beside the load factors' scaled copies.
type Source struct {
	// N is the number of jobs Build returns.
	N int
	// Build returns the jobs in a slice of their own, which the pool may
	// change (a load factor scales them in place). It is called under the
	// pool's lock, once per build.
	Build func() ([]sim.Job, error)
	// Into, when set, is Build into buf's array (the same jobs, every
	// field written), a build the pool dropped and reuses for the next:
	// the next copy is then not a new allocation beside the dropped one,
	// which a garbage collection under way when it was dropped still
	// counts live (0.19 GB of the 10 M log's validate, at a load factor's
	// handover). Nil: Build.
	Into func(buf []sim.Job) ([]sim.Job, error)
}

// numJobs is the number of the experiment's jobs.
func (x *Experiment) numJobs() int {
	if x.Source != nil {
		return x.Source.N
	}
	return len(x.Jobs)
}

// RunRows is one simulation's per-job results as an Experiment's Sink sees
// them. Its slices belong to the runner and are valid only during the call.
type RunRows struct {
	// Policy is the index of the policy in Experiment.Policies; Spec its
	// specification; Run the run number.
	Policy int
	Spec   string
	Run    int
	// Jobs are the jobs as simulated (this run's scale, and its estimates
	// unless Estimates holds them).
	Jobs []sim.Job
	// Estimates, when not nil, are the run's estimates (Jobs[i]'s is
	// Estimates[i]): a run with errors draws them into a column.
	Estimates []float64
	// Completion and Response are every job's completion and response
	// times; a job's slowdown and missed deadline are computed from them
	// on Capacity over Alone (sim.Alone.Slowdown, sim.MissedDeadline) as
	// its row is made, not held in columns beside them.
	Completion []float64
	Response   []float64
	Capacity   float64
	// Alone is the experiment's (Experiment.Alone).
	Alone sim.Alone
	// Deadlines are the experiment's PS deadlines (nil: none).
	Deadlines []float64
	// Rows, when set, are the run's rows as a shard's part holds them (one
	// row per job, in job order); Jobs, Completion and Response are then
	// unset.
	Rows *JobRows
}

// Len is the number of jobs of the run.
func (r *RunRows) Len() int {
	if r.Rows != nil {
		return len(r.Rows.Job)
	}
	return len(r.Jobs)
}

// Estimate is job i's estimate in the run (not for a shard's Rows).
func (r *RunRows) Estimate(i int) float64 { return estimateOf(r.Jobs, r.Estimates, i) }

// Responses are the jobs' response times, in job order.
func (r *RunRows) Responses() []float64 {
	if r.Rows != nil {
		return r.Rows.Response
	}
	return r.Response
}

// AppendTo appends the results of jobs [lo, hi) to rows, skipping the jobs
// for which keep (when not nil) is false.
func (r *RunRows) AppendTo(rows *JobRows, lo, hi int, keep func(i int) bool) {
	if r.Rows == nil {
		rows.appendJobs(r.Spec, r.Run, r.Jobs, r.Estimates, r.Completion, r.Response, r.Capacity, &r.Alone, r.Deadlines, lo, hi, keep)
		return
	}
	for i := lo; i < hi; i++ {
		if keep == nil || keep(i) {
			rows.appendRow(r.Rows, i)
		}
	}
}

// RunOptions control how experiments run.
type RunOptions struct {
	// Workers is the number of goroutines (default GOMAXPROCS).
	Workers int
	// Progress, when set, is told how many simulations are done.
	Progress func(done, total int)
	// Units, when set, shards the simulations (see UnitHook).
	Units *UnitHook
}

// ExperimentResult holds an experiment's results, one per policy in the
// order of Experiment.Policies.
type ExperimentResult struct {
	Policies []PolicyResult
}

// PolicyResult is one policy's runs.
type PolicyResult struct {
	Policy string
	Uses   sim.Uses
	// Runs are the run numbers and Summaries their summaries.
	Runs      []int
	Summaries []sim.Summary
	// Simulated is how many simulations the result took: 1 for a policy
	// that uses no size estimates (every run is the same), else len(Runs).
	Simulated int
	// Rows are the per-job results of every run, in run order (KeepRows).
	Rows *JobRows
}

// Aggregate summarises a policy's runs: what simulate prints and what the
// validation table holds, so that both give the same numbers.
type Aggregate struct {
	Policy string `json:"policy"`
	Runs   int    `json:"runs"`
	// Mean is every summary field averaged over the runs.
	Mean sim.Summary `json:"mean"`
	// MeanResponse is the spread of the per-run mean response across runs.
	MeanResponse Spread `json:"mean_response_across_runs"`
	// Missed is the mean number of missed PS deadlines per run.
	Missed float64 `json:"missed_deadlines"`
}

// Spread is the minimum, median and maximum of a sample.
type Spread struct {
	Min float64 `json:"min"`
	P50 float64 `json:"median"`
	Max float64 `json:"max"`
}

// Aggregate summarises the runs.
func (p *PolicyResult) Aggregate() Aggregate {
	a := Aggregate{Policy: p.Policy, Runs: len(p.Summaries), Mean: sim.MeanSummary(p.Summaries)}
	means := make([]float64, len(p.Summaries))
	for i, s := range p.Summaries {
		means[i] = s.Response.Mean
		a.Missed += float64(s.Missed) / float64(len(p.Summaries))
	}
	q := sim.QuantilesOf(means)
	a.MeanResponse = Spread{q.Min, q.P50, q.Max}
	return a
}

// MeanResponses returns the per-run mean responses.
func (p *PolicyResult) MeanResponses() []float64 {
	out := make([]float64, len(p.Summaries))
	for i, s := range p.Summaries {
		out[i] = s.Response.Mean
	}
	return out
}

// Run runs the experiment alone (see RunExperiments).
func (x *Experiment) Run(ctx context.Context, opt RunOptions) (*ExperimentResult, error) {
	res, err := RunExperiments(ctx, opt, x)
	if err != nil {
		return nil, err
	}
	return res[0], nil
}

func (x *Experiment) resolution() Resolution {
	if x.Resolution == nil {
		return Fluid
	}
	return x.Resolution
}

// runs lists the run numbers the experiment simulates.
func (x *Experiment) runs() []int {
	var out []int
	for r := 0; r < x.Runs; r++ {
		if x.Select == nil || x.Select(r) {
			out = append(out, r)
		}
	}
	return out
}

// check validates the experiment and returns what each policy uses.
func (x *Experiment) check() ([]sim.PolicyInfo, error) {
	switch {
	case !(x.Capacity > 0) || math.IsInf(x.Capacity, 0):
		return nil, ParamErr("capacity", x.Capacity, "want a finite positive number")
	case x.Runs < 1 || x.Runs > MaxRuns:
		return nil, ParamErr("runs", x.Runs, "want 1 to %d runs", MaxRuns)
	case x.Source != nil && (x.Jobs != nil || x.Source.Build == nil || x.Source.N < 0):
		return nil, errors.New("an experiment with a Source has Jobs besides, or no Build")
	case x.Deadlines != nil && len(x.Deadlines) != x.numJobs():
		return nil, fmt.Errorf("%d deadlines for %d jobs", len(x.Deadlines), x.numJobs())
	case x.Blocks < 0:
		return nil, fmt.Errorf("blocks %d is negative", x.Blocks)
	case !(x.Scale >= 0) || math.IsInf(x.Scale, 0):
		return nil, ParamErr("scale", x.Scale, "want a finite positive factor, or 0 for none")
	case len(x.Policies) == 0:
		return nil, errors.New("no policy to simulate")
	}
	if err := x.Errors.Validate(); err != nil {
		return nil, err
	}
	if err := x.Alone.Check(x.numJobs()); err != nil {
		return nil, err
	}
	infos := make([]sim.PolicyInfo, len(x.Policies))
	for i, s := range x.Policies {
		var err error
		if infos[i], err = x.resolution().Policy(s); err != nil {
			// The CLI's policies come from --policy (run's baselines are
			// checked before, by ParsePolicies).
			return nil, ParamErr("policy", s, "%s resolution: %v", x.resolution().Name(), err)
		}
	}
	return infos, nil
}

// deterministic reports whether every run of a policy gives the same
// result, so that one simulation stands for all (rows are kept per run, as
// their estimate column differs).
func (x *Experiment) deterministic(u sim.Uses) bool {
	return (!u.Estimates || x.Errors.IsExact()) && !x.KeepRows && x.Sink == nil
}

// Cost is what a request will take, estimated before it runs.
type Cost struct {
	// Simulations is the number of simulations; JobSteps the number of
	// jobs simulated over all of them.
	Simulations float64
	JobSteps    float64
	// Bytes is the memory the results take.
	Bytes float64
}

// Add returns the sum of two costs.
func (c Cost) Add(d Cost) Cost {
	return Cost{c.Simulations + d.Simulations, c.JobSteps + d.JobSteps, c.Bytes + d.Bytes}
}

// Cost estimates the experiment's work and memory without running it (a
// policy whose info cannot be looked up counts as using estimates).
func (x *Experiment) Cost() Cost {
	runs := float64(x.Runs)
	var c Cost
	for _, s := range x.Policies {
		sims := runs
		if u, err := x.resolution().Policy(s); err == nil && x.deterministic(u.Uses) {
			sims = 1
		}
		c.Simulations += sims
		c.JobSteps += sims * float64(x.numJobs())
		c.Bytes += runs * SummaryBytes
		if x.KeepRows {
			c.Bytes += runs * float64(x.numJobs()) * jobRowBytes
		}
	}
	return c
}

// Sizes of results in memory, for Cost.
const (
	SummaryBytes = 200
	jobRowBytes  = 90
)

// unit is one simulation: policy p of experiment x, run runs[k] (for a
// deterministic policy, the one simulation that stands for every run).
type unit struct{ x, p, k int }

// worker is one goroutine's buffers. It keeps the simulator of the last
// resolution it ran, not one per resolution: a task-level simulator holds
// hundreds of bytes a job, and a pool that runs several resolutions (the
// validate stage's fluid and task-level runs, the deploy tuner's chunks)
// would otherwise keep one of each on every worker.
type worker struct {
	res Resolution
	cur Simulator
	// last is the copy (scaledCopy.id) of the worker's last run on a
	// copy plus one (0: none).
	last int
	m    sim.Metrics
	jobs []sim.Job
	est  []float64
	done []float64
	resp []float64
	// draw, when set, returns the run's estimates, n of them, shared with
	// the run's other policies (drawCache.column), drawn by fill if they
	// are not yet; nil: the worker draws into est.
	draw func(n int, fill func(est []float64)) []float64
}

// leave drops the worker's simulator before a run on copy id (−1: an
// experiment's own Jobs) when its last run on a copy was on another: the
// simulator's cached policies hold the jobs they last ran, and a copy
// (48 B a job) the pool has dropped would otherwise stay live beside the
// next one.
func (w *worker) leave(id int) {
	if w.last != id+1 {
		w.forget()
	}
	w.last = id + 1
}

// forget drops what of the worker's simulator holds the jobs of its last
// run: the cached policies of a fluid simulator, which keeps its buffers
// (the per-job arrays its policies borrow, its results': 0.1 GB on the
// 10 M log's 3 M-job validation window, allocated afresh at every copy
// otherwise), else the whole simulator.
func (w *worker) forget() {
	if f, ok := w.cur.(*FluidSimulator); ok {
		f.forgetJobs()
		return
	}
	w.res, w.cur = nil, nil
}

// drop drops the worker's simulator when the pool drops the copy its last
// run read (scaledCopies.done, before a worker waiting to build the next
// copy goes on): its cached policy would otherwise hold the copy live
// beside the next one until the worker's next run (at the 10 M log's
// validate, two 0.19 GB windows: the next copy is built under the lock
// this worker's next run waits for).
func (w *worker) drop() { w.forget(); w.last = 0 }

// resize returns s with length n, reusing its array when it is big enough.
func resize(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// RunExperiments runs several experiments as one pool of simulations on
// opt.Workers goroutines and returns their results in order. Every
// experiment is checked before any simulation runs. It stops at the first
// error, and when ctx is cancelled (returning ctx.Err()).
func RunExperiments(ctx context.Context, opt RunOptions, xs ...*Experiment) ([]*ExperimentResult, error) {
	out := make([]*ExperimentResult, len(xs))
	runs := make([][]int, len(xs))
	var units []unit
	for xi, x := range xs {
		infos, err := x.check()
		if err != nil {
			return nil, err
		}
		runs[xi] = x.runs()
		res := &ExperimentResult{Policies: make([]PolicyResult, len(x.Policies))}
		for p, spec := range x.Policies {
			pr := &res.Policies[p]
			pr.Policy, pr.Uses, pr.Runs = spec, infos[p].Uses, runs[xi]
			pr.Summaries = make([]sim.Summary, len(runs[xi]))
			pr.Simulated = len(runs[xi])
			if x.deterministic(pr.Uses) {
				pr.Simulated = min(1, len(runs[xi]))
			}
			for k := 0; k < pr.Simulated; k++ {
				units = append(units, unit{xi, p, k})
			}
		}
		out[xi] = res
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	pl, err := planPool(xs, units, opt.Units)
	if err != nil {
		return nil, err
	}
	ws := make([]worker, workers)
	scaled := newScaledCopies(xs, units)
	runLongestFirst(pl.order, units, scaled, func(u unit) sim.Uses { return out[u.x].Policies[u.p].Uses })
	draws := newDrawCache(xs, units, workers)
	runMajor(pl.order, units, draws)
	rows := make([]*JobRows, len(units))
	gate := newSinkGate()
	var mu sync.Mutex
	finished := 0
	err = ParallelFor(ctx, len(units), workers, func(w, j int) error {
		i := pl.order[j]
		u := units[i]
		x := xs[u.x]
		defer draws.done(u)
		scaled.begin(u.x)
		defer scaled.done(u.x, ws[w].drop)
		dl := deadlinesFor(ctx, x, pl.publishes[i])
		if r := pl.publishes[i]; r != nil {
			defer r.publish(nil, errNoReference) // no effect once published
		}
		var emit func(*RunRows) error
		passed := false
		if seq := pl.sinkSeq[i]; seq >= 0 {
			emit = func(rr *RunRows) error {
				passed = true
				rr.Policy = u.p
				return gate.pass(seq, func() error { return x.Sink(rr) })
			}
			defer func() {
				if !passed {
					gate.pass(seq, nil)
				}
			}()
		}
		r, known := pl.known(i)
		switch {
		case !known:
			if x.KeepRows {
				r.Rows = &JobRows{}
			}
			var err error
			jobs := x.Jobs
			if !scaled.scaled(u.x) {
				ws[w].leave(-1)
			} else {
				ws[w].leave(scaled.of[u.x].id)
				if jobs, err = scaled.get(u.x, x); err != nil {
					return err
				}
			}
			ws[w].draw = nil
			if draws.shared(u) {
				ws[w].draw = func(n int, fill func([]float64)) []float64 { return draws.column(u, n, fill) }
			}
			if r.Summary, err = ws[w].run(ctx, x, jobs, x.Policies[u.p], runs[u.x][u.k], r.Rows, emit, dl); err != nil {
				return err
			}
			pl.done(i, r)
		case emit != nil && r.Rows != nil:
			// A unit merged from a shard's part: its rows as the part holds them.
			if err := emit(&RunRows{Spec: x.Policies[u.p], Run: runs[u.x][u.k], Rows: r.Rows}); err != nil {
				return err
			}
		}
		if x.KeepRows {
			rows[i] = r.Rows
		}
		out[u.x].Policies[u.p].Summaries[u.k] = r.Summary
		if opt.Progress != nil {
			mu.Lock()
			finished++
			opt.Progress(finished, len(units))
			mu.Unlock()
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for i, u := range units {
		if rows[i] == nil {
			continue
		}
		pr := &out[u.x].Policies[u.p]
		if pr.Rows == nil {
			pr.Rows = &JobRows{}
		}
		pr.Rows.AppendRows(rows[i])
	}
	for _, res := range out {
		for p := range res.Policies {
			pr := &res.Policies[p]
			for k := pr.Simulated; k < len(pr.Summaries); k++ {
				pr.Summaries[k] = pr.Summaries[0]
			}
		}
	}
	return out, nil
}

// sinkGate lets the units of experiments with a Sink hand their results on
// one at a time, in unit order.
type sinkGate struct {
	mu     sync.Mutex
	cond   *sync.Cond
	next   int
	failed bool
}

func newSinkGate() *sinkGate {
	g := &sinkGate{}
	g.cond = sync.NewCond(&g.mu)
	return g
}

// pass waits for unit seq's turn, calls f (nil: the unit failed before it
// had results) unless an earlier unit failed, and hands the turn on.
func (g *sinkGate) pass(seq int, f func() error) error {
	g.mu.Lock()
	for g.next != seq {
		g.cond.Wait()
	}
	failed := g.failed || f == nil
	g.mu.Unlock()
	var err error
	if !failed {
		err = f()
	}
	g.mu.Lock()
	g.failed = failed || err != nil
	g.next++
	g.cond.Broadcast()
	g.mu.Unlock()
	return err
}

// run simulates one run of one policy on jobs (x's, scaled by x.Scale:
// the pool's shared scaledCopy) and summarises it; emit, when not nil, is
// handed the per-job results.
func (w *worker) run(ctx context.Context, x *Experiment, jobs []sim.Job, spec string, run int, rows *JobRows, emit func(*RunRows) error, deadlines func(*sim.Result) ([]float64, error)) (sim.Summary, error) {
	if res := x.resolution(); w.cur == nil || w.res != res {
		w.res, w.cur = res, nil // the last resolution's simulator is garbage first
		w.cur = res.NewSimulator()
	}
	s := w.cur
	_, byColumn := s.(EstimatesSimulator)
	if !x.Errors.IsExact() && !byColumn {
		w.jobs = append(w.jobs[:0], jobs...)
		jobs = w.jobs
	} else {
		w.jobs = nil // a copy of the last run's jobs is garbage
	}
	if !byColumn || x.Errors.IsExact() || w.draw != nil {
		w.est = nil // nor is the last run's column kept
	}
	var est []float64 // the run's estimates, when a column holds them
	if !x.Errors.IsExact() {
		// The draws go into a column (8 B a job) that the simulator reads
		// in place of the jobs' (EstimatesSimulator) — the run's, shared
		// with its other policies, when the pool shares it (draw) —, else
		// straight into the copy.
		rng := estimate.RunRand(x.Seed, uint64(run))
		fill := func(est []float64) {
			for i := range jobs {
				est[i] = x.Errors.Draw(jobs[i].Size, rng)
			}
		}
		switch {
		case !byColumn:
			for i := range jobs {
				w.jobs[i].Estimate = x.Errors.Draw(jobs[i].Size, rng)
			}
		case w.draw != nil:
			est = w.draw(len(jobs), fill)
		default:
			w.est = resize(w.est, len(jobs))
			est = w.est
			fill(est)
		}
	}
	done, err := w.simulate(ctx, s, x, jobs, est, spec)
	if err != nil {
		return sim.Summary{}, fmt.Errorf("%s, run %d: %w", spec, run, err)
	}
	dl, err := deadlines(done)
	if err != nil {
		return sim.Summary{}, err
	}
	if x.MeanOnly && rows == nil && emit == nil {
		// The metrics' per-job buffers (up to 25 B a job) are not kept
		// through the mean-only runs (the validate stage's last ones,
		// beside their scaled copies of the jobs).
		w.m = sim.Metrics{}
		return meanOnlySummary(jobs, done), nil
	}
	// A fluid run is summarised in its own buffers (which its next run
	// overwrites) once its rows are made, not in the slowdowns, missed
	// flags and sorted copy besides (25 B a job a worker: the σ runs', and
	// the exact-size runs' whose rows results.parquet holds); the rows
	// compute each job's slowdown and missed deadline from its response.
	_, fluid := s.(*FluidSimulator)
	fluid = fluid && done.Response != nil
	var sum sim.Summary
	resp := done.Response
	w.m.Alone = x.Alone
	if !fluid {
		sum = w.m.ComputeRun(jobs, done, x.Capacity, dl)
		resp = w.m.Response
	}
	if rows != nil {
		rows.appendRun(spec, run, jobs, est, done.Completion, resp, x.Capacity, &x.Alone, dl)
	}
	if emit != nil {
		rr := &RunRows{Spec: spec, Run: run, Jobs: jobs, Estimates: est, Completion: done.Completion, Response: resp, Capacity: x.Capacity, Alone: x.Alone, Deadlines: dl}
		if err := emit(rr); err != nil {
			return sim.Summary{}, err
		}
	}
	if fluid {
		sum = w.m.SummaryRun(jobs, done, x.Capacity, dl)
	}
	return sum, nil
}

// meanOnlySummary is a run's job count and mean response, bit for bit
// what sim.Metrics.ComputeRun's summary holds (the responses summed in job
// order).
func meanOnlySummary(jobs []sim.Job, r *sim.Result) sim.Summary {
	s := sim.Summary{Jobs: len(jobs)}
	if len(jobs) == 0 {
		return s
	}
	sum := 0.0
	for i, j := range jobs {
		v := r.Completion[i] - j.Arrival
		if r.Response != nil {
			v = r.Response[i]
		}
		sum += v
	}
	s.Response.Mean = sum / float64(len(jobs))
	return s
}

// simulate runs spec over jobs, in blocks when the experiment says so;
// est, when not nil, are the jobs' estimates (s is then an
// EstimatesSimulator).
func (w *worker) simulate(ctx context.Context, s Simulator, x *Experiment, jobs []sim.Job, est []float64, spec string) (*sim.Result, error) {
	one := func(lo, hi int) (*sim.Result, error) {
		if est != nil {
			return s.(EstimatesSimulator).SimulateEstimates(ctx, jobs[lo:hi], est[lo:hi], lo, x.Capacity, spec)
		}
		return s.Simulate(ctx, jobs[lo:hi], lo, x.Capacity, spec)
	}
	n, b := len(jobs), max(1, x.Blocks)
	if b == 1 || n < 2*b {
		return one(0, n)
	}
	w.done, w.resp = w.done[:0], w.resp[:0]
	for k := 0; k < b; k++ {
		lo, hi := k*n/b, (k+1)*n/b
		r, err := one(lo, hi)
		if err != nil {
			return nil, err
		}
		w.done = append(w.done, r.Completion...)
		w.resp = append(w.resp, r.Response...)
	}
	return &sim.Result{Completion: w.done, Response: w.resp}, nil
}

// PSDeadlines returns every job's completion time under processor sharing
// on the given capacity: its protective deadline (seed 001 §2, seed 002).
func PSDeadlines(jobs []sim.Job, capacity float64) ([]float64, error) {
	return sim.PSCompletions(jobs, capacity)
}

// OfferedLoad is the work of the jobs over the capacity available while
// they arrive: Σ sizes / (capacity × (last arrival − first arrival)). Above
// 1 the cluster cannot keep up and responses grow with the log's length. It
// is NaN when the jobs arrive at one instant.
func OfferedLoad(jobs []sim.Job, capacity float64) float64 {
	return offeredLoad(len(jobs), func(i int) (float64, float64) { return jobs[i].Arrival, jobs[i].Size }, capacity)
}

// OfferedLoadColumns is OfferedLoad of the jobs whose arrivals and sizes
// are the columns given (equal lengths), bit for bit.
func OfferedLoadColumns(arrival, size []float64, capacity float64) float64 {
	return offeredLoad(len(size), func(i int) (float64, float64) { return arrival[i], size[i] }, capacity)
}

// offeredLoad is OfferedLoad of n jobs, job i's arrival and size at(i).
func offeredLoad(n int, at func(i int) (arrival, size float64), capacity float64) float64 {
	if n < 2 {
		return math.NaN()
	}
	first, _ := at(0)
	last, _ := at(n - 1)
	span := last - first
	if !(span > 0) || !(capacity > 0) {
		return math.NaN()
	}
	work := 0.0
	for i := range n {
		_, s := at(i)
		work += s
	}
	return work / (capacity * span)
}
