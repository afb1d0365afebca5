package tunedeploy

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// Bounds of the task-level deploy tuner's cost: none grows with the log.
var (
	// DeployChunkJobs is the most jobs of one chunk (contiguous rows,
	// simulated from an empty cluster).
	DeployChunkJobs = 4000
	// DeployChunks is how many chunks of the tuning window the candidates
	// are scored on (rolling origins: spread evenly, the last one ending
	// at the window's end), and of the validation window the verdict is.
	DeployChunks = 4
	// DeployTuneSeeds is how many task seeds the finalists are scored
	// with (the screening uses the first).
	DeployTuneSeeds = 3
	// DeployValidateSeeds is how many task seeds the verdict replays the
	// validation window's chunks with (disjoint from the tuning seeds).
	DeployValidateSeeds = 10
)

// DeployMinChunkJobs is the fewest jobs a chunk is cut to: a window of
// fewer than DeployChunks × this many jobs is cut into fewer chunks.
const DeployMinChunkJobs = 300

// DeployFinalists is how many candidates the screening keeps (besides
// keep) for scoring on every seed.
const DeployFinalists = 5

// DeploySimplerSlack is how much worse (in the mean paired relative
// difference, 0.01 = 1% of the objective) a simpler family's best
// candidate may be than the best one and still be preferred.
const DeploySimplerSlack = 0.01

// DeployLevel and DeployReplicates are the bootstrap intervals' level
// and replicate count.
const (
	DeployLevel      = 0.95
	DeployReplicates = 2000
)

// DeployDefaultConstraints are the task-level constraints when the run
// keeps the tuner's default (DefaultConstraints): relative to the current
// scheduler, with room for the task level's noise. The p99 slowdown bound
// keeps out orders that starve small jobs (FIFO inside a level: p99
// slowdowns of 100 and more against Fair's 5 on the embedded trace). No
// default bound on "missed" (jobs more than 10% + 1 s later than under the
// current scheduler, task.ReferenceDeadlines): any order that speeds most
// jobs up delays some, and even FSP with exact sizes delays 6% of the
// embedded trace's jobs that much (LAS_MQ candidates 5–7%), so a share
// bound excluded every candidate, the ideal one included; the share is
// reported, and --constraint "missed<=current+0.05" sets one.
const DeployDefaultConstraints = "p99-slowdown<=1.1*current"

// DeployChunk is a chunk of a window: rows FirstRow.. of the log (1-based).
type DeployChunk struct {
	FirstRow int `json:"first_row"`
	Jobs     int `json:"jobs"`
}

// DeployChunksOf cuts rows lo..lo+n−1 into at most count chunks of at most
// maxJobs contiguous rows each, spread evenly, the last one ending at the
// window's end.
func DeployChunksOf(lo, n, count, maxJobs int) []DeployChunk {
	if n <= 0 || count <= 0 {
		return nil
	}
	c := max(1, min(count, n/DeployMinChunkJobs))
	size := min(maxJobs, n/c)
	var out []DeployChunk
	for i := range c {
		a := lo
		if c > 1 {
			a = lo + (n-size)*i/(c-1)
		}
		out = append(out, DeployChunk{FirstRow: a + 1, Jobs: size})
	}
	return out
}

// DeploySeed derives the task seed k of a purpose (tuning or validation:
// disjoint streams) from the run's seed (SplitMix64's finaliser).
func DeploySeed(seed uint64, purpose string, k int) uint64 {
	z := seed ^ 0x9e3779b97f4a7c15*uint64(k+1)
	for _, c := range purpose {
		z = z*0x100000001b3 ^ uint64(c)
	}
	z ^= z >> 30
	z *= 0xbf58476d1ce4e5b9
	z ^= z >> 27
	z *= 0x94d049bb133111eb
	return z ^ z>>31
}

// DeployTuning is the task-level deploy tuner's record: every candidate
// replayed as emitted on chunks of the tuning window (never the
// validation window) × task seeds, paired against the current scheduler.
type DeployTuning struct {
	Objective   tuner.Objective `json:"objective"`
	Constraints string          `json:"constraints"`
	// Current is the current scheduler's task-level spec and CurrentName
	// what it is.
	Current     string        `json:"current"`
	CurrentName string        `json:"current_name"`
	Chunks      []DeployChunk `json:"chunks"`
	Seeds       []uint64      `json:"seeds"`
	// ScreenSeeds is how many of the seeds the screening used.
	ScreenSeeds int               `json:"screen_seeds"`
	Candidates  []DeployCandidate `json:"candidates"`
	// Contender is the index of the best candidate other than keep (the
	// simplest within DeploySimplerSlack of the best feasible finalist);
	// Chosen is it when its tuning interval lies below 0 and it meets the
	// constraints, else 0 (keep). Capacity is the capacity-scheduler.xml
	// candidate emitted (the contender when it is one, else the best
	// capacity finalist; −1: none).
	Contender int `json:"contender"`
	Chosen    int `json:"chosen"`
	Capacity  int `json:"capacity_file"`
	// FluidSpearman is the rank correlation of the capacity candidates'
	// fluid and task-level differences on the screening pairs (nil: fewer
	// than 3 or no spread).
	FluidSpearman *float64 `json:"fluid_task_spearman,omitempty"`
	// FSPGapClosed is the share of the gap between the current scheduler
	// and FSP with exact sizes (task level) that the contender closes on
	// the tuning pairs (nil when FSP does not beat the current scheduler).
	FSPGapClosed *float64 `json:"fsp_gap_closed,omitempty"`
	// TasksReplayed is set when the log has a tasks table (the seeds then
	// only synthesise the jobs it lacks).
	TasksReplayed bool `json:"tasks_replayed,omitempty"`
	// LogQueues is set when the log has a queue column: the replayed
	// applications name their log queue (else none).
	LogQueues bool `json:"log_queues,omitempty"`
}

// deployConstraints returns the task-level constraints of a run's
// --constraint (DeployDefaultConstraints for the tuner's default).
func deployConstraints(s string) (string, []tuner.Constraint, error) {
	if s == tuner.DefaultConstraints {
		s = DeployDefaultConstraints
	}
	c, err := tuner.ParseConstraints(s)
	return s, c, err
}

// currentTask returns the current scheduler at task level: its spec and
// name (--current-config, else Fair with one pool per user).
func currentTask(cfg inputs.RunConfig) (spec, name string, err error) {
	if cfg.CurrentConfig == "" {
		return "fair:pool=user", "fair, one pool per user", nil
	}
	spec, err = inputs.CurrentConfigSpec(cfg.CurrentConfig)
	return spec, filepath.Base(cfg.CurrentConfig), err
}

// DeployPair is one (chunk, seed) replay: its task-level jobs.
type DeployPair struct {
	chunk, seed int
	Res         *tasklevel.TaskLevel
}

// TaskPairs builds the task-level jobs of every chunk with every seed of
// seeds[from:to], as the validation stage does: their deadlines ("missed")
// are the current scheduler's completions (Reference: --current-config,
// else Fair with one pool per user), and their applications name the
// log's queues (Named), so that a log with a queue column is replayed as
// the emitted file routes it (by the queues it keeps), not all in
// root.default.
func TaskPairs(in *inputs.Inputs, cl *task.Cluster, chunks []DeployChunk, seeds []uint64, from, to int) ([]DeployPair, error) {
	current, _, err := currentTask(in.Config)
	if err != nil {
		return nil, err
	}
	if from >= to {
		return nil, nil
	}
	windows := make([][]sim.Job, len(chunks))
	for c, ch := range chunks {
		a := ch.FirstRow - 1
		if windows[c], err = in.Window(a, a+ch.Jobs); err != nil { // in.SimJobs may be released (after Run)
			return nil, err
		}
	}
	// The pairs' jobs are independent: built side by side, stored by index.
	out := make([]DeployPair, len(chunks)*(to-from))
	err = experiment.ParallelFor(context.Background(), len(out), runtime.GOMAXPROCS(0), func(_, i int) error {
		c, s := i/(to-from), from+i%(to-from)
		a, n := chunks[c].FirstRow-1, chunks[c].Jobs
		// The model the validation judges in (one cluster model: each
		// job as fast on a type as the execution-time model says), and
		// applications naming the queue they named in the log, as
		// deployed.
		jobs, err := tasklevel.ModelTaskJobs(in.Jobs, in.Tasks, windows[c], a, in.Capacity, in.Spec, cl.Rate(), seeds[s])
		if err != nil {
			return err
		}
		out[i] = DeployPair{c, s, &tasklevel.TaskLevel{Cluster: cl, Jobs: jobs, ContainerMB: in.Config.ContainerMB, Named: bundle.LogQueuesOf(in.Jobs, a, n), Reference: current}}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// Replay runs the policies (specs[0] the current scheduler's) on every
// pair and returns each pair's scores, [pair][policy]. Equal specs (keep
// and the current scheduler; candidates TuneDeploy gave one file, as their
// bytes are equal) are replayed once: a replay is a function of its spec,
// its file's bytes, the chunk and the seed. The current scheduler's run
// in the pool gives the deadlines (PooledExperiment), instead of a run of
// its own before each pair's.
func Replay(ctx context.Context, pairs []DeployPair, specs []string) ([][]tuner.Score, error) {
	var uniq []string
	col := make([]int, len(specs))
	for k, s := range specs {
		if col[k] = slices.Index(uniq, s); col[k] < 0 {
			col[k], uniq = len(uniq), append(uniq, s)
		}
	}
	// Each pair's experiment computes its jobs' times alone (FluidAlone):
	// side by side.
	xs := make([]*experiment.Experiment, len(pairs))
	err := experiment.ParallelFor(ctx, len(pairs), runtime.GOMAXPROCS(0), func(_, i int) error {
		x, err := pairs[i].Res.PooledExperiment(uniq)
		xs[i] = x
		return err
	})
	if err != nil {
		return nil, err
	}
	out, err := runExperiments(ctx, experiment.RunOptions{}, xs...)
	if err != nil {
		return nil, err
	}
	scores := make([][]tuner.Score, len(out))
	for i, r := range out {
		for k := range specs {
			scores[i] = append(scores[i], tuner.ScoreOf(r.Policies[col[k]].Aggregate().Mean))
		}
	}
	return scores, nil
}

// runExperiments is experiment.RunExperiments (tests count its runs).
var runExperiments = experiment.RunExperiments

// PairedDiff is −Objective.Improvement of s over the current scheduler's
// ref, bounded to ±1e6 (a metric nothing defines is the worst).
func PairedDiff(o tuner.Objective, s, ref tuner.Score) float64 {
	return math.Max(-1e6, math.Min(1e6, -o.Improvement(s, ref)))
}

// deployTuner scores the candidates.
type deployTuner struct {
	in   *inputs.Inputs
	dt   *DeployTuning
	cons []tuner.Constraint
	cl   *task.Cluster
	// sums of the candidates' and the current scheduler's scores over
	// their pairs, and the pair counts.
	sum, cur []tuner.Score
	n        []int
}

// TuneDeploy is the task-level deploy tuner: it renders every candidate
// (deployCandidates) from bundle b, replays the rendered files at task
// level on chunks of the tuning window × task seeds, paired against the
// current scheduler, and picks the contender and the choice (see
// DeployTuning). All candidates are screened on the first seed, the
// DeployFinalists best feasible on every seed.
func TuneDeploy(ctx context.Context, in *inputs.Inputs, tr *tuner.TuneReport, b *bundle.Bundle) (*DeployTuning, error) {
	cfg := in.Config
	keep, keepName, err := currentTask(cfg)
	if err != nil {
		return nil, err
	}
	consText, cons, err := deployConstraints(cfg.Constraints)
	if err != nil {
		return nil, fmt.Errorf("--constraint: %w", err)
	}
	cl, err := tasklevel.TaskCluster(in.Spec)
	if err != nil {
		return nil, err
	}
	opt := bundle.FairSchedulerOptions{ContainerMB: cfg.ContainerMB}
	cands, err := deployCandidates(tr, b, keep, keepName, opt)
	if err != nil {
		return nil, err
	}
	cands = append(cands, deployReferences...)
	dir, err := os.MkdirTemp("", "schedplan-deploy-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	// Candidates whose rendered files are the same bytes share one file,
	// so their specs are equal and score replays them once.
	paths := map[[sha256.Size]byte]string{}
	for i := range cands {
		if !cands[i].deployable() {
			continue
		}
		f := cands[i].file
		if f == nil {
			if f, err = cands[i].render(b, opt); err != nil {
				return nil, err
			}
		}
		cands[i].file = nil
		k := sha256.Sum256(f)
		path, ok := paths[k]
		if !ok {
			path = filepath.Join(dir, fmt.Sprintf("candidate-%d.xml", i))
			if err := os.WriteFile(path, f, 0o600); err != nil {
				return nil, err
			}
			paths[k] = path
		}
		cands[i].Policy = cands[i].FileSpec(path)
	}
	seeds := 1
	if in.Tasks == nil {
		seeds = DeployTuneSeeds
	}
	chunks, err := budgetChunks(in, DeployChunksOf(0, in.Split.TuneJobs, DeployChunks, DeployChunkJobs))
	if err != nil {
		return nil, err
	}
	t := &deployTuner{in: in, cons: cons, cl: cl, dt: &DeployTuning{
		Objective: cfg.Objective, Constraints: consText, Current: keep, CurrentName: keepName,
		Chunks:      chunks,
		ScreenSeeds: 1, Candidates: cands, Contender: -1, Capacity: -1, TasksReplayed: in.Tasks != nil,
		LogQueues: in.Jobs.Queue.Present(),
	}}
	for k := range seeds {
		t.dt.Seeds = append(t.dt.Seeds, DeploySeed(cfg.Seed, "tune", k))
	}
	if len(t.dt.Chunks) == 0 {
		return t.dt, nil
	}
	t.sum, t.cur, t.n = make([]tuner.Score, len(cands)), make([]tuner.Score, len(cands)), make([]int, len(cands))
	for i := range cands {
		cands[i].Diffs = make([][]float64, len(t.dt.Chunks))
	}
	all := make([]int, len(cands))
	for i := range all {
		all[i] = i
	}
	if err := t.score(ctx, all, 0, 1); err != nil {
		return nil, err
	}
	if err := t.fluid(ctx, tr); err != nil {
		return nil, err
	}
	fin := t.finalists()
	refs := t.references()
	if err := t.score(ctx, append(append([]int{0}, fin...), refs...), 1, seeds); err != nil {
		return nil, err
	}
	t.pick(fin)
	t.front()
	t.gap()
	// The stored policies name the files as emit writes them.
	for i := range cands {
		if cands[i].deployable() {
			cands[i].Policy = cands[i].FileSpec(cands[i].Family)
		}
	}
	return t.dt, nil
}

// score replays candidates idx (the current scheduler first, always) on
// every chunk with seeds from..to−1 and records their differences.
func (t *deployTuner) score(ctx context.Context, idx []int, from, to int) error {
	if from >= to {
		return nil
	}
	cands := t.dt.Candidates
	specs := []string{t.dt.Current}
	for _, i := range idx {
		specs = append(specs, cands[i].Policy)
	}
	pairs, err := TaskPairs(t.in, t.cl, t.dt.Chunks, t.dt.Seeds, from, to)
	if err != nil {
		return err
	}
	scores, err := Replay(ctx, pairs, specs)
	if err != nil {
		return fmt.Errorf("task-level deploy tuning: %w", err)
	}
	for p, pr := range pairs {
		ref := scores[p][0]
		for k, i := range idx {
			s := scores[p][k+1]
			cands[i].Diffs[pr.chunk] = append(cands[i].Diffs[pr.chunk], PairedDiff(t.dt.Objective, s, ref))
			t.sum[i], t.cur[i] = addScore(t.sum[i], s), addScore(t.cur[i], ref)
			t.n[i]++
		}
	}
	for _, i := range idx {
		c := &cands[i]
		c.Mean = tuner.MeanOfGroups(c.Diffs)
		c.Score, c.Current = scaleScore(t.sum[i], 1/float64(t.n[i])), scaleScore(t.cur[i], 1/float64(t.n[i]))
		c.Feasible, c.Violations = true, nil
		for _, con := range t.cons {
			if ok, why := con.Check(c.Score, c.Current); !ok {
				c.Feasible, c.Violations = false, append(c.Violations, why)
			}
		}
		c.Score, c.Current = jsonSafe(c.Score), jsonSafe(c.Current)
	}
	return nil
}

// jsonSafe maps a score's metrics that are not finite (NaN: nothing
// defines them; ±Inf) to math.MaxFloat64, the worst value and still a JSON
// number, as relImprovement does.
func jsonSafe(s tuner.Score) tuner.Score {
	f := func(v float64) float64 {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return math.MaxFloat64
		}
		return v
	}
	return tuner.Score{Mean: f(s.Mean), P99: f(s.P99), P99Slowdown: f(s.P99Slowdown), MeanSlowdown: f(s.MeanSlowdown), Missed: f(s.Missed)}
}

func addScore(a, b tuner.Score) tuner.Score {
	return tuner.Score{Mean: a.Mean + b.Mean, P99: a.P99 + b.P99, P99Slowdown: a.P99Slowdown + b.P99Slowdown, MeanSlowdown: a.MeanSlowdown + b.MeanSlowdown, Missed: a.Missed + b.Missed}
}

func scaleScore(a tuner.Score, f float64) tuner.Score {
	return tuner.Score{Mean: a.Mean * f, P99: a.P99 * f, P99Slowdown: a.P99Slowdown * f, MeanSlowdown: a.MeanSlowdown * f, Missed: a.Missed * f}
}

// better orders candidates a before b: feasible first, then by mean
// difference, then simpler.
func (t *deployTuner) better(a, b int) int {
	ca, cb := &t.dt.Candidates[a], &t.dt.Candidates[b]
	switch {
	case ca.Feasible != cb.Feasible:
		if ca.Feasible {
			return -1
		}
		return 1
	case ca.Mean != cb.Mean:
		return cmpFloat(ca.Mean, cb.Mean)
	}
	return ca.Complexity - cb.Complexity
}

// finalists are the DeployFinalists best candidates other than keep by
// the screening (feasible first), and the best of every kind (Complexity:
// plain fair-scheduler.xml, tuned, capacity-scheduler.xml) that has none
// among them, so that the simplest kind that wins is always scored on
// every seed.
func (t *deployTuner) finalists() []int {
	var idx []int
	for i, c := range t.dt.Candidates {
		if c.deployable() {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, t.better)
	fin := idx[:min(DeployFinalists, len(idx))]
	for _, kind := range []int{1, 2, 3} {
		has := slices.ContainsFunc(fin, func(i int) bool { return t.dt.Candidates[i].Complexity == kind })
		if k := slices.IndexFunc(idx, func(i int) bool { return t.dt.Candidates[i].Complexity == kind }); !has && k >= 0 {
			fin = append(fin, idx[k])
		}
	}
	fin = slices.Clone(fin)
	for _, i := range fin {
		t.dt.Candidates[i].Finalist = true
	}
	return fin
}

// references returns the indices of the reference policies, marked as
// scored on every seed.
func (t *deployTuner) references() []int {
	var idx []int
	for i := range t.dt.Candidates {
		if t.dt.Candidates[i].Family == FamilyReference {
			t.dt.Candidates[i].Finalist = true
			idx = append(idx, i)
		}
	}
	return idx
}

// gap sets FSPGapClosed.
func (t *deployTuner) gap() {
	k := slices.IndexFunc(t.dt.Candidates, func(c DeployCandidate) bool { return c.Family == FamilyReference && c.Policy == "fsp" })
	if k < 0 || t.dt.Contender < 0 || !(t.dt.Candidates[k].Mean < 0) {
		return
	}
	g := t.dt.Candidates[t.dt.Contender].Mean / t.dt.Candidates[k].Mean
	t.dt.FSPGapClosed = &g
}

// front marks the candidates (keep and the references included) on the
// Pareto front of their scores.
func (t *deployTuner) front() {
	scores := make([]tuner.Score, len(t.dt.Candidates))
	for i, c := range t.dt.Candidates {
		scores[i] = c.Score
	}
	for _, i := range tuner.ParetoFront(scores) {
		t.dt.Candidates[i].Pareto = true
	}
}

// pick sets the finalists' intervals, the contender, the choice and the
// capacity file.
func (t *deployTuner) pick(fin []int) {
	cands := t.dt.Candidates
	for _, i := range fin {
		iv := tuner.PairedBootstrap(cands[i].Diffs, DeployLevel, DeployReplicates, DeploySeed(t.in.Config.Seed, "tune-boot", i))
		iv.Metric = "relative difference in " + tuner.ObjectiveLabel(t.dt.Objective) + " against the current scheduler"
		cands[i].Interval = &iv
	}
	ranked := slices.Clone(fin)
	slices.SortStableFunc(ranked, t.better)
	for _, i := range ranked {
		if cands[i].Family == FamilyCapacity {
			t.dt.Capacity = i
			break
		}
	}
	// A candidate that behaves as the current scheduler on every pair is
	// keep under another name: not a contender.
	ranked = slices.DeleteFunc(ranked, func(i int) bool { return !cands[i].differs() })
	if len(ranked) == 0 {
		return
	}
	best := ranked[0]
	t.dt.Contender = best
	if cands[best].Feasible {
		// A simpler candidate within the slack, and one the tuner would
		// choose too when it would choose the best: within the noise, not
		// a gain traded for nothing.
		wins := cands[best].Interval.Hi < 0
		for _, i := range ranked {
			if cands[i].Feasible && cands[i].Mean <= cands[best].Mean+DeploySimplerSlack && (!wins || cands[i].Interval.Hi < 0) &&
				cands[i].Complexity < cands[t.dt.Contender].Complexity {
				t.dt.Contender = i
			}
		}
	}
	c := &cands[t.dt.Contender]
	if c.Feasible && c.Interval.Hi < 0 {
		t.dt.Chosen = t.dt.Contender
	}
	if c.Family == FamilyCapacity {
		t.dt.Capacity = t.dt.Contender
	}
}

// fluid records the capacity candidates' fluid-model differences on the
// chunks (their LAS_MQ against the fluid current scheduler) and their rank
// correlation with the task-level screening differences.
func (t *deployTuner) fluid(ctx context.Context, tr *tuner.TuneReport) error {
	cands := t.dt.Candidates
	specs := []string{t.in.Config.Current}
	var idx []int
	for i, c := range cands {
		if c.LASMQ != nil {
			idx = append(idx, i)
			specs = append(specs, c.LASMQ.Spec())
		}
	}
	if len(idx) == 0 {
		return nil
	}
	var xs []*experiment.Experiment
	for _, ch := range t.dt.Chunks {
		jobs, err := t.in.Window(ch.FirstRow-1, ch.FirstRow-1+ch.Jobs)
		if err != nil {
			return err
		}
		dl, err := experiment.PSDeadlines(jobs, t.in.Capacity)
		if err != nil {
			return err
		}
		xs = append(xs, &experiment.Experiment{Jobs: jobs, Capacity: t.in.Capacity, Deadlines: dl, Policies: specs, Runs: 1})
	}
	out, err := experiment.RunExperiments(ctx, experiment.RunOptions{}, xs...)
	if err != nil {
		return fmt.Errorf("deploy tuning (fluid): %w", err)
	}
	var fl, tk []float64
	for k, i := range idx {
		d := 0.0
		for _, r := range out {
			d += PairedDiff(t.dt.Objective, tuner.ScoreOf(r.Policies[k+1].Aggregate().Mean), tuner.ScoreOf(r.Policies[0].Aggregate().Mean)) / float64(len(out))
		}
		cands[i].Fluid = &d
		fl, tk = append(fl, d), append(tk, cands[i].Mean)
	}
	if r := tuner.Spearman(fl, tk); !math.IsNaN(r) {
		t.dt.FluidSpearman = &r
	}
	return nil
}

// DeployCost bounds the task-level simulations of the tune-deploy stage
// and its verdict, and their job steps: they do not grow with the log.
func DeployCost() (sims, jobSteps float64) {
	cands := float64(3 + bundle.FairTunedGrid() + DeployFluidConfigs*len(DeployMultipliers)*len(DeployLevelOrders))
	screen := cands * float64(DeployChunks)
	final := float64(DeployFinalists+4) * float64(DeployChunks*(DeployTuneSeeds-1))
	verdict := 2 * float64(DeployChunks*DeployValidateSeeds)
	sims = screen + final + verdict
	return sims, sims * float64(DeployChunkJobs)
}
