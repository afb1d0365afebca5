package pipeline

import (
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"sync"
	"testing"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// Busy periods by hand (capacity 1): job 0 (size 2) and job 1 (t = 1,
// size 1) keep the server busy until 3; job 2 arrives at 5 to an empty
// system; job 3 (t = 5.5) finds 0.5 of job 2 left; job 4 (t = 20) starts a
// third period.
func TestBusyStartsHand(t *testing.T) {
	jobs := []sim.Job{{Arrival: 0, Size: 2}, {Arrival: 1, Size: 1}, {Arrival: 5, Size: 1}, {Arrival: 5.5, Size: 3}, {Arrival: 20, Size: 1}}
	if got := tuner.BusyStarts(jobs, 1); !slices.Equal(got, []int{0, 2, 4}) {
		t.Errorf("busy starts %v, want [0 2 4]", got)
	}
	// At capacity 2 job 0 is done at 1, when job 1 arrives, and job 2 at
	// 5.5, when job 3 arrives.
	if got := tuner.BusyStarts(jobs, 2); !slices.Equal(got, []int{0, 1, 2, 3, 4}) {
		t.Errorf("capacity 2: busy starts %v, want [0 1 2 3 4]", got)
	}
}

// Cuts land on busy-period starts where one is within a quarter chunk, and
// every chunk is non-empty.
func TestPlanChunksCutsAtBusyStarts(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	jobs := poissonJobs(rng, 3000, 0.6, func() float64 { return rng.ExpFloat64() })
	starts := tuner.BusyStarts(jobs, 1)
	for _, parts := range []int{1, 4, 5, 9} {
		b := tuner.PlanChunks(jobs, 1, parts)
		if len(b) != parts+2 || b[0] != 0 || b[parts+1] != len(jobs) {
			t.Fatalf("%d folds: bounds %v", parts, b)
		}
		for i := 1; i < len(b); i++ {
			if b[i] <= b[i-1] {
				t.Fatalf("%d folds: empty chunk in %v", parts, b)
			}
		}
		for _, x := range b[1 : parts+1] {
			if _, ok := slices.BinarySearch(starts, x); !ok {
				t.Errorf("%d folds: cut %d is not a busy-period start (load 0.6 has one in every quarter chunk)", parts, x)
			}
		}
	}
}

// The sampling rule of sampleUnits: the expected sample is the budget, the
// Horvitz–Thompson weights estimate the chunk's job count without bias,
// and units of at least s jobs are always taken, with weight 1.
func TestSampleUnitsIsUnbiased(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	const budget = 2000
	var jobs []sim.Job
	var units []tuner.JobSpan
	for len(units) < 400 {
		// Heavy-tailed unit sizes, cut at a quarter of the budget as
		// cvWindows cuts long busy periods.
		n := min(budget/4, 1+int(math.Pow(rng.Float64(), -1.2)))
		lo := len(jobs)
		for k := 0; k < n; k++ {
			jobs = append(jobs, sim.Job{Size: rng.ExpFloat64()})
		}
		units = append(units, tuner.JobSpan{Lo: lo, Hi: len(jobs)})
	}
	total := float64(len(jobs))
	var sumN, sumEst float64
	const reps = 300
	for r := 0; r < reps; r++ {
		got, w := tuner.SampleUnits(jobs, units, budget, estimate.RunRand(9, uint64(r)))
		n, est := 0.0, 0.0
		for i, u := range got {
			k := float64(u.Hi - u.Lo)
			n += k
			est += w[i] * k
			if w[i] < 1-1e-12 {
				t.Fatalf("weight %v below 1", w[i])
			}
			if i > 0 && got[i-1].Lo >= u.Lo {
				t.Fatal("blocks not in time order")
			}
		}
		sumN += n / reps
		sumEst += est / reps
	}
	if math.Abs(sumN/budget-1) > 0.05 {
		t.Errorf("mean sample %v jobs, budget %d", sumN, budget)
	}
	if math.Abs(sumEst/total-1) > 0.02 {
		t.Errorf("mean Horvitz–Thompson estimate %v of %v jobs", sumEst, total)
	}
	// A chunk within the budget is taken whole.
	got, w := tuner.SampleUnits(jobs, units[:5], budget, estimate.RunRand(1, 1))
	if !reflect.DeepEqual(got, units[:5]) || slices.ContainsFunc(w, func(v float64) bool { return v != 1 }) {
		t.Errorf("a small chunk was sampled: %v %v", got, w)
	}
}

// Simulating a chunk busy period by busy period is exact: the window's
// score equals the whole chunk's simulated at once (the experiment runner,
// with the PS deadlines), for every policy.
func TestWindowScoreIsExactOnBusyPeriods(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	jobs := poissonJobs(rng, 4000, 0.8, func() float64 { return math.Pow(rng.ExpFloat64(), 2) })
	starts := tuner.BusyStarts(jobs, 1)
	cut := starts[sort.SearchInts(starts, 1500)]
	wins, infos, err := tuner.CVWindows(jobs, 1, []int{0, cut, len(jobs)}, []float64{0}, 1e6, 1, len(jobs))
	if err != nil {
		t.Fatal(err)
	}
	score := tuner.SimulateWindows(nil, 1)
	for ch, lo := range []int{0, cut} {
		hi := lo + infos[ch].Jobs
		if !infos[ch].Exact || infos[ch].Units < 2 || infos[ch].Scored != infos[ch].Jobs {
			t.Fatalf("chunk %d: %+v", ch, infos[ch])
		}
		dl, err := experiment.PSDeadlines(jobs[lo:hi], 1)
		if err != nil {
			t.Fatal(err)
		}
		specs := []string{"ps", "las", "srpt", "las_mq:k=4,alpha0=1,p=4,decay=0,order=ps"}
		res, err := (&experiment.Experiment{Jobs: jobs[lo:hi], Capacity: 1, Deadlines: dl, Policies: specs, Runs: 1}).Run(context.Background(), experiment.RunOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for i, spec := range specs {
			got, resp, err := score(context.Background(), spec, wins[ch][0], true)
			if err != nil {
				t.Fatal(err)
			}
			want := tuner.ScoreOf(res.Policies[i].Summaries[0])
			for _, m := range tuner.ScoreMetrics {
				if a, b := m.Of(got), m.Of(want); math.Abs(a-b) > 1e-9*math.Max(1, math.Abs(b)) {
					t.Errorf("chunk %d %s: %s %v in busy periods, %v whole", ch, spec, m.Name, a, b)
				}
			}
			if len(resp) != hi-lo {
				t.Errorf("kept %d responses for %d jobs", len(resp), hi-lo)
			}
		}
	}
}

func TestParseConstraints(t *testing.T) {
	cur := tuner.Score{Mean: 10, P99: 100, MeanSlowdown: 2, P99Slowdown: 8, Missed: 0.01}
	for _, tc := range []struct {
		in    string
		n     int
		bound float64 // of the first constraint
	}{
		{tuner.DefaultConstraints, 2, 8},
		{"p99<=1.5*current", 1, 150},
		{"missed<=current+0.01", 1, 0.02},
		{"mean <= 2*current+1", 1, 21},
		{"slowdown<=100", 1, 100},
		{"none", 0, 0},
		{"", 0, 0},
	} {
		cs, err := tuner.ParseConstraints(tc.in)
		if err != nil || len(cs) != tc.n {
			t.Errorf("%q: %v, %v", tc.in, cs, err)
			continue
		}
		if tc.n > 0 && cs[0].Bound(cur) != tc.bound {
			t.Errorf("%q: bound %v, want %v", tc.in, cs[0].Bound(cur), tc.bound)
		}
		back, err := tuner.ParseConstraints(tuner.ConstraintsString(cs))
		if err != nil || !reflect.DeepEqual(back, cs) {
			t.Errorf("%q does not round-trip: %q → %v (%v)", tc.in, tuner.ConstraintsString(cs), back, err)
		}
	}
	for _, bad := range []string{"p99", "speed<=current", "p99<=current-1", "p99<=NaN", "p99<=-1", "p99<=2current", "p99<=current*2", "p99<=+Inf", "p99<=current+x"} {
		if _, err := tuner.ParseConstraints(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
	c, _ := tuner.ParseConstraints("missed<=current")
	if ok, _ := c[0].Check(cur, cur); !ok {
		t.Error("the current scheduler violates a bound relative to itself")
	}
	if ok, why := c[0].Check(tuner.Score{Missed: 0.02}, cur); ok || why == "" {
		t.Error("a violation passed")
	}
}

func TestImprovementAndFront(t *testing.T) {
	ref := tuner.Score{Mean: 10, P99: 100, Missed: 0}
	for _, tc := range []struct {
		o    tuner.Objective
		s    tuner.Score
		want float64
	}{
		{tuner.MinMean, tuner.Score{Mean: 8}, 0.2},
		{tuner.MinP99, tuner.Score{P99: 150}, -0.5},
		{tuner.MinMix, tuner.Score{Mean: 5, P99: 100}, 0.25},
		{tuner.MinMissed, tuner.Score{Missed: 0.03}, -0.03}, // the reference misses none: absolute
		{tuner.MinMissed, tuner.Score{}, 0},
	} {
		if got := tc.o.Improvement(tc.s, ref); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: improvement %v, want %v", tc.o, got, tc.want)
		}
	}
	a := tuner.Score{Mean: 1, P99: 1, MeanSlowdown: 1, P99Slowdown: 1, Missed: 0}
	b := tuner.Score{Mean: 2, P99: 2, MeanSlowdown: 2, P99Slowdown: 2, Missed: 0.1} // dominated by a
	c := tuner.Score{Mean: 0.5, P99: 3, MeanSlowdown: 1, P99Slowdown: 1, Missed: 0} // trades p99 for mean
	if got := tuner.ParetoFront([]tuner.Score{a, b, c, a}); !slices.Equal(got, []int{0, 2, 3}) {
		t.Errorf("front %v, want [0 2 3]", got)
	}
}

// cvRun is one cross-validated tuning of a log and the held-out scores of
// its choice and of the named baselines.
type cvRun struct {
	rep     *tuner.TuneReport
	heldOut map[int]tuner.Score // by candidate index
}

// tuneAndHoldOut tunes jobs[:70%] and scores the choice and the named
// baselines on the rest (exact sizes, with the rest's PS deadlines).
func tuneAndHoldOut(t testing.TB, jobs []sim.Job, opt tuner.TuneOptions) cvRun {
	t.Helper()
	split, err := experiment.SplitByTime(jobs, 0.7)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := tuner.TuneLASMQWindows(context.Background(), jobs, 1, split, opt)
	if err != nil {
		t.Fatal(err)
	}
	cv := rep.CV
	_, val := split.Windows(jobs)
	dl, err := experiment.PSDeadlines(val, 1)
	if err != nil {
		t.Fatal(err)
	}
	idx := []int{cv.Chosen, cv.CurrentIdx, cv.LASIdx, cv.PSIdx, cv.FGIdx}
	var specs []string
	for _, i := range idx {
		specs = append(specs, cv.Candidates[i].Policy)
	}
	res, err := (&experiment.Experiment{Jobs: val, Capacity: 1, Deadlines: dl, Policies: specs, Runs: 1}).Run(context.Background(), experiment.RunOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := cvRun{rep: rep, heldOut: map[int]tuner.Score{}}
	for k, i := range idx {
		r.heldOut[i] = tuner.ScoreOf(res.Policies[k].Summaries[0])
	}
	return r
}

// checkHeldOut is the acceptance of issue 18 on one log: on the held-out
// window the choice meets the constraints (against the current scheduler
// there) and is no worse in the objective than any of the current
// scheduler, plain LAS, PS and the first guess that meets them too.
func checkHeldOut(t *testing.T, name string, r cvRun, cons []tuner.Constraint, obj tuner.Objective) {
	t.Helper()
	cv := r.rep.CV
	ch := &cv.Candidates[cv.Chosen]
	if cv.NoFeasible || !ch.Feasible {
		t.Errorf("%s: the choice %s is not feasible on the folds", name, ch.Label())
	}
	cur := r.heldOut[cv.CurrentIdx]
	feasible := func(s tuner.Score) (bool, []string) {
		ok := true
		var why []string
		for _, c := range cons {
			if good, w := c.Check(s, cur); !good {
				ok, why = false, append(why, w)
			}
		}
		return ok, why
	}
	mine := r.heldOut[cv.Chosen]
	if ok, why := feasible(mine); !ok {
		t.Errorf("%s: the choice %s violates the constraints on the held-out window: %v", name, ch.Label(), why)
	}
	for _, b := range []int{cv.CurrentIdx, cv.LASIdx, cv.PSIdx, cv.FGIdx} {
		s := r.heldOut[b]
		if ok, _ := feasible(s); !ok {
			continue
		}
		if obj.Improvement(mine, cur) < obj.Improvement(s, cur)-1e-9 {
			t.Errorf("%s: on the held-out window the choice %s (%s %v) is worse than %s (%v)", name, ch.Label(), obj, tuner.MetricOf(string(obj), mine), cv.Candidates[b].Label(), tuner.MetricOf(string(obj), s))
		}
	}
	t.Logf("%s: chose %s: held-out mean %.4g s, p99 slowdown %.3g, missed %.2f%%; current %.4g s; LAS %.4g s (missed %.2f%%); first guess %.4g s",
		name, ch.Label(), mine.Mean, mine.P99Slowdown, 100*mine.Missed, cur.Mean, r.heldOut[cv.LASIdx].Mean, 100*r.heldOut[cv.LASIdx].Missed, r.heldOut[cv.FGIdx].Mean)
}

// Synthetic logs with known structure (Poisson arrivals at load 0.9,
// 16,000 jobs): bimodal sizes (90% of size 1, 10% of size 100), where the
// first threshold must separate the two; Weibull(0.5) sizes, heavy-tailed,
// where size-based orders pay; and uniform sizes on [0.5, 1.5], where
// FIFO-like orders are best in mean response — but finish 8–10% of the jobs
// later than PS would, so the default constraint keeps PS (the current
// scheduler), and a constraint on p99 slowdown alone lets the tuner find
// FIFO.
func TestTuneCVAcceptanceSynthetic(t *testing.T) {
	if testing.Short() {
		t.Skip("tunes four 16,000-job logs")
	}
	def, _ := tuner.ParseConstraints(tuner.DefaultConstraints)
	relaxed, _ := tuner.ParseConstraints("p99-slowdown<=current")
	for _, tc := range []struct {
		name  string
		draw  func(*rand.Rand) float64
		cons  []tuner.Constraint
		check func(*testing.T, *tuner.CVResult)
	}{
		{"bimodal", func(r *rand.Rand) float64 {
			if r.Float64() < 0.9 {
				return 1
			}
			return 100
		}, def, func(t *testing.T, cv *tuner.CVResult) {
			if p := cv.Candidates[cv.Deployed].LASMQ; !(p.K > 1 && p.Alpha0 > 1 && p.Alpha0 < 100) {
				t.Errorf("bimodal: deployed %v does not separate sizes 1 and 100", p)
			}
		}},
		{"weibull 0.5", func(r *rand.Rand) float64 { return math.Pow(r.ExpFloat64(), 2) / 2 }, def, func(t *testing.T, cv *tuner.CVResult) {
			if cv.Candidates[cv.Chosen].Improvement < 0.02 {
				t.Errorf("weibull: mean fold score %v: size-based levels should pay", cv.Candidates[cv.Chosen].Improvement)
			}
		}},
		{"uniform", func(r *rand.Rand) float64 { return 0.5 + r.Float64() }, def, nil},
		{"uniform, p99 slowdown only", func(r *rand.Rand) float64 { return 0.5 + r.Float64() }, relaxed, func(t *testing.T, cv *tuner.CVResult) {
			p := cv.Candidates[cv.Chosen].LASMQ
			if p == nil || p.Order == sim.OrderPS || cv.Candidates[cv.Chosen].Improvement < 0.2 {
				t.Errorf("uniform: chose %s (mean fold score %v), want a FIFO-like order", cv.Candidates[cv.Chosen].Label(), cv.Candidates[cv.Chosen].Improvement)
			}
		}},
	} {
		rng := rand.New(rand.NewPCG(1, 99))
		jobs := poissonJobs(rng, 16000, 0.9, func() float64 { return tc.draw(rng) })
		r := tuneAndHoldOut(t, jobs, tuner.TuneOptions{Budget: 150, Constraints: tc.cons})
		checkHeldOut(t, tc.name, r, tc.cons, tuner.MinMean)
		if tc.check != nil {
			tc.check(t, r.rep.CV)
		}
	}
}

// embeddedCV caches the embedded trace's tuning at the default folds and
// seed, which several tests read.
var embeddedCV = struct {
	sync.Once
	r cvRun
}{}

func embeddedRun(t *testing.T) cvRun {
	embeddedCV.Do(func() { embeddedCV.r = tuneAndHoldOut(t, embeddedSimJobs(t), tuner.TuneOptions{Budget: 500}) })
	if embeddedCV.r.rep == nil {
		t.Fatal("embedded tuning failed")
	}
	return embeddedCV.r
}

func TestTuneCVAcceptanceEmbedded(t *testing.T) {
	if testing.Short() {
		t.Skip("tunes the embedded trace")
	}
	r := embeddedRun(t)
	def, _ := tuner.ParseConstraints(tuner.DefaultConstraints)
	checkHeldOut(t, "embedded", r, def, tuner.MinMean)
	cv := r.rep.CV
	ch := &cv.Candidates[cv.Chosen]
	// The report's parts: folds, the rule's rolling-origin check, the
	// interval around the choice's mean fold score, its rank under each σ,
	// an explanation that names the runner-up and the baselines, a front.
	if len(cv.Scored) != 5 || len(cv.Folds) != 6 || len(cv.Procedure) != 5 || len(cv.SigmaRanks) != 3 {
		t.Errorf("folds %d/%d, procedure %d, σ ranks %v", len(cv.Scored), len(cv.Folds), len(cv.Procedure), cv.SigmaRanks)
	}
	if !cv.CI.Available || !(cv.CI.Lo <= ch.Improvement && ch.Improvement <= cv.CI.Hi) || cv.CI.Replicates < 100 {
		t.Errorf("interval %+v does not hold the mean fold score %v", cv.CI, ch.Improvement)
	}
	if cv.RunnerUp < 0 || tuner.Kind(&cv.Candidates[cv.RunnerUp]) == tuner.Kind(ch) {
		t.Errorf("runner-up %d is not of another kind than the choice", cv.RunnerUp)
	}
	front := 0
	for i := range cv.Candidates {
		if cv.Candidates[i].Pareto {
			front++
		}
	}
	if front < 2 || !cv.Candidates[cv.Chosen].Pareto && !dominatedByInfeasibleOnly(cv, cv.Chosen) {
		t.Errorf("front of %d; the choice is dominated by a feasible candidate", front)
	}
	if len(cv.Explanation) < 6 || cv.Shortlist != nil || cv.Sampled {
		t.Errorf("explanation %d sentences, shortlist %v, sampled %v", len(cv.Explanation), cv.Shortlist, cv.Sampled)
	}
	// Every named baseline is a candidate, so the choice is no worse on
	// the folds than any of them that is feasible.
	for _, b := range []int{cv.CurrentIdx, cv.LASIdx, cv.PSIdx, cv.FGIdx} {
		if c := &cv.Candidates[b]; c.Feasible && c.Improvement > ch.Improvement+ch.SE+1e-12 {
			t.Errorf("%s beats the choice on the folds beyond its noise: %v > %v", c.Label(), c.Improvement, ch.Improvement)
		}
	}
	// The stage's state round-trips through JSON.
	b, err := json.Marshal(r.rep)
	if err != nil {
		t.Fatal(err)
	}
	var back tuner.TuneReport
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if b2, _ := json.Marshal(&back); string(b2) != string(b) {
		t.Error("the tune report does not round-trip through JSON")
	}
}

// dominatedByInfeasibleOnly says whether every candidate that dominates i
// violates the constraints.
func dominatedByInfeasibleOnly(cv *tuner.CVResult, i int) bool {
	for j := range cv.Candidates {
		if tuner.Dominates(cv.Candidates[j].FoldMean, cv.Candidates[i].FoldMean) && cv.Candidates[j].Feasible {
			return false
		}
	}
	return true
}

// Issue 18: re-running with another seed, or one fold more or less, gives
// a configuration whose held-out mean response is within 2%.
func TestTuneCVStableAcrossSeedsAndFolds(t *testing.T) {
	if testing.Short() {
		t.Skip("tunes the embedded trace four more times")
	}
	base := embeddedRun(t)
	want := base.heldOut[base.rep.CV.Chosen].Mean
	jobs := embeddedSimJobs(t)
	for _, opt := range []tuner.TuneOptions{{Folds: 4}, {Folds: 6}, {Seed: 2}, {Folds: 6, Seed: 3}} {
		opt.Budget = 500
		r := tuneAndHoldOut(t, jobs, opt)
		got := r.heldOut[r.rep.CV.Chosen].Mean
		t.Logf("folds %d seed %d: %s, held-out mean %.4g s (base %.4g s)", opt.Folds, opt.Seed, r.rep.CV.Candidates[r.rep.CV.Chosen].Label(), got, want)
		if math.Abs(got/want-1) > 0.02 {
			t.Errorf("folds %d seed %d: held-out mean %v, %+.1f%% from %v", opt.Folds, opt.Seed, got, 100*(got/want-1), want)
		}
	}
}

// Issue 17: a log whose folds exceed the job budget is scored on samples
// of busy periods; the shortlist is re-scored whole; the winner's sampled
// score is near its whole one; each candidate costs at most about the
// budget per fold; and the choice does as well on the whole folds as the
// unsampled tuner's.
func TestTuneCVSampledFolds(t *testing.T) {
	if testing.Short() {
		t.Skip("tunes a 60,000-job log twice")
	}
	rng := rand.New(rand.NewPCG(8, 8))
	jobs := poissonJobs(rng, 60000, 0.8, func() float64 { return math.Pow(rng.ExpFloat64(), 2) / 2 })
	opt := tuner.TuneOptions{Budget: 60, SampleJobs: 3000}
	cv, err := tuner.TuneCV(context.Background(), jobs, 1, opt, tuner.SimulateWindows(nil, 1))
	if err != nil {
		t.Fatal(err)
	}
	if !cv.Sampled || cv.Shortlist == nil {
		t.Fatalf("sampled %v, shortlist %v", cv.Sampled, cv.Shortlist)
	}
	for _, f := range cv.Folds {
		if !f.Sampled || float64(f.Scored) > 1.5*float64(opt.SampleJobs) {
			t.Errorf("fold %d: %d of %d jobs simulated (budget %d)", f.Index, f.Scored, f.Jobs, opt.SampleJobs)
		}
	}
	if !slices.Contains(cv.Shortlist.Candidates, cv.Chosen) || !cv.Candidates[cv.Chosen].Whole {
		t.Error("the choice was not re-scored on the whole folds")
	}
	if g := cv.Shortlist.Gap; math.Abs(g) > 0.05 {
		t.Errorf("the winner's sampled mean response is %+.1f%% from its whole-fold value", 100*g)
	}
	full, err := tuner.TuneCV(context.Background(), jobs, 1, tuner.TuneOptions{Budget: 60, SampleJobs: 1 << 30}, tuner.SimulateWindows(nil, 1))
	if err != nil {
		t.Fatal(err)
	}
	a, b := cv.Candidates[cv.Chosen].Improvement, full.Candidates[full.Chosen].Improvement
	t.Logf("sampled: %s %+.2f%% (sampled %+.2f%%); unsampled: %s %+.2f%%", cv.Candidates[cv.Chosen].Label(), 100*a, 100**cv.Candidates[cv.Chosen].SampledImprovement, full.Candidates[full.Chosen].Label(), 100*b)
	if a < b-0.01 {
		t.Errorf("sampled tuner's choice scores %+.2f%% on the whole folds, the unsampled one's %+.2f%%", 100*a, 100*b)
	}
}

// A tuning window too small for the folds still tunes (fewer folds; one
// job is its own fold).
func TestTuneCVTinyWindows(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7} {
		jobs := make([]sim.Job, n)
		for i := range jobs {
			jobs[i] = sim.Job{Arrival: float64(i), Size: float64(i + 1), Estimate: float64(i + 1)}
		}
		cv, err := tuner.TuneCV(context.Background(), jobs, 1, tuner.TuneOptions{Budget: 20}, tuner.SimulateWindows(nil, 1))
		if err != nil {
			t.Fatalf("%d jobs: %v", n, err)
		}
		if len(cv.Scored) != max(1, min(5, n-1)) || cv.Candidates[cv.Deployed].LASMQ == nil {
			t.Errorf("%d jobs: %d folds, deployed %s", n, len(cv.Scored), cv.Candidates[cv.Deployed].Policy)
		}
		if _, err := json.Marshal(cv); err != nil {
			t.Errorf("%d jobs: %v", n, err)
		}
	}
	if _, err := tuner.TuneCV(context.Background(), nil, 1, tuner.TuneOptions{Budget: 5}, tuner.SimulateWindows(nil, 1)); err == nil {
		t.Error("no jobs: no error")
	}
}
