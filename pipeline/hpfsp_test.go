package pipeline

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/cluster/task/hpfsp"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// noisyJobs is seed 002 §IV.B's Fig. 5 workload, scaled down: Poisson
// arrivals at load about 0.9 on cl, exponentially distributed task counts
// (mean 20), task times of a job drawn from N(μ_j, (0.2236·μ_j)²) (seed
// 002: N(10, 2.236)) where μ_j varies by job (log-normal around 60 s), so
// a job's size is unknown until its tasks finish. Job.Estimate is left 0:
// only the online estimator sizes the jobs.
func noisyJobs(seed uint64, n int, cl *task.Cluster) []task.Job {
	rng := rand.New(rand.NewPCG(seed, 5))
	jobs := make([]task.Job, n)
	t := 0.0
	for i := range jobs {
		t += rng.ExpFloat64() * 20 * 60 / (0.9 * cl.Rate())
		mu := 60 * math.Exp(0.8*rng.NormFloat64()-0.32)
		k := 1 + int(rng.ExpFloat64()*20)
		j := task.Job{Arrival: t, Stages: []task.Stage{{Tasks: make([]task.TaskSpec, k)}}}
		for x := range j.Stages[0].Tasks {
			j.Stages[0].Tasks[x] = task.TaskSpec{Duration: max(mu*(1+0.2236*rng.NormFloat64()), 0.05*mu), Containers: 1}
		}
		jobs[i] = j
	}
	return jobs
}

// TestSeed002Figure5 checks the shape of seed 002's Fig. 5 (H-PFSP's
// default: Algorithm 2 with §II.C's residual slots) with its EWMA estimator (eq. 1–5, 18; default task time 60 s, the workload's
// mean): with noisy, job-dependent task times a fair phase of a few tasks
// gives the estimator samples before the job competes on its estimate, so
// (§IV.B: "as FAIR LIMIT becomes larger, the mean slowdown first
// reduces") all jobs' mean slowdown (flow time over work at the cluster's
// rate, the paper's metric) and the small jobs' (below the median work)
// mean flow time improve from FAIR_LIMIT 0 to the best limit (mean over 6
// workloads; by 1% or more: the paper gives no magnitude, and with §II.C's
// residual slots given to other jobs the dip is 1.5–1.8%, against 3.6%
// before issue 28 and 8.8% for Algorithm 2 read literally), and a very long fair phase (40 tasks,
// more than most jobs have) loses that gain again (the knee, 10% or more).
// Every run is checked by the task-level invariant checker.
func TestSeed002Figure5(t *testing.T) {
	cl := task.Uniform(10, 3)
	limits := []int{0, 1, 2, 3, 5, 10, 40}
	const seeds = 6
	per := make([][]float64, len(limits)) // small jobs' mean flow time per limit, per seed
	slow := make([]float64, len(limits))  // all jobs' mean slowdown per limit, mean over seeds
	for seed := uint64(1); seed <= seeds; seed++ {
		jobs := noisyJobs(seed, 400, cl)
		works := make([]float64, len(jobs))
		for i := range jobs {
			works[i] = jobs[i].Work()
		}
		sorted := append([]float64(nil), works...)
		sort.Float64s(sorted)
		median := sorted[len(sorted)/2]
		for li, fl := range limits {
			p := &hpfsp.HPFSP{FairLimit: fl, NewEstimator: tasklevel.HPFSPEstimator(estimate.ProgressConfig{Default: []float64{60}})}
			c := task.NewChecker(p)
			r, err := task.Simulate(jobs, cl, p, task.Options{Observer: c})
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Finish(jobs, r); err != nil {
				t.Fatal(err)
			}
			n, all, sm, sd := 0, 0.0, 0.0, 0.0
			for i := range jobs {
				f := r.Completion[i] - jobs[i].Arrival
				all += f
				sd += f / (works[i] / cl.Rate())
				if works[i] < median {
					sm += f
					n++
				}
			}
			per[li] = append(per[li], sm/float64(n))
			slow[li] += sd / float64(len(jobs)) / seeds
			t.Logf("seed %d fair_limit=%2d: small jobs' mean flow time %.1f s, all jobs' %.1f s, mean slowdown %.3f; picks %v", seed, fl, sm/float64(n), all/float64(len(jobs)), sd/float64(len(jobs)), p.Picks)
		}
	}
	// The mean over seeds. (Before late jobs were served by least
	// remaining time, one seed in six cascaded into late jobs served
	// FIFO and a median had to stand in.)
	small := make([]float64, len(limits))
	for li := range per {
		for _, v := range per[li] {
			small[li] += v / seeds
		}
	}
	t.Logf("row: Fig. 5 small jobs' mean flow time, mean over %d seeds, by FAIR_LIMIT %v: %.1f s; all jobs' mean slowdown %.3f", seeds, limits, small, slow)
	for _, c := range []struct {
		name string
		v    []float64
	}{{"all jobs' mean slowdown", slow}, {"small jobs' mean flow time", small}} {
		best := 0
		for i := range c.v {
			if c.v[i] < c.v[best] {
				best = i
			}
		}
		if best == 0 || c.v[best] > 0.99*c.v[0] {
			t.Errorf("%s %.3f: want a gain of 1%% or more from FAIR_LIMIT 0 to the best", c.name, c.v)
		}
		if best == len(limits)-1 || c.v[len(c.v)-1] < 1.1*c.v[best] {
			t.Errorf("%s %.3f: want a knee (FAIR_LIMIT 40 10%% or more above the best)", c.name, c.v)
		}
	}
}

// TestTuneHPFSP searches FAIR_LIMIT on a Fig. 5 workload with the EWMA
// estimator: the winner has the least mean response of all candidates,
// is not the longest fair phase (the knee, seed 002 Fig. 5), and its
// bundle section reads back as the same policy.
func TestTuneHPFSP(t *testing.T) {
	cl := task.Uniform(10, 3)
	jobs := noisyJobs(3, 400, cl)
	newEst := tasklevel.HPFSPEstimator(estimate.ProgressConfig{Default: []float64{60}})
	limits := []int{0, 2, 5, 40}
	best, evals, err := tasklevel.TuneHPFSP(context.Background(), jobs, cl, limits, []float64{0.95, 0.5}, tuner.MinMean, newEst, task.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(evals) != 8 {
		t.Fatalf("%d evaluations, want 8", len(evals))
	}
	for _, e := range evals {
		t.Logf("fair_limit=%d threshold=%v: mean response %.1f s, p99 %.1f s", e.FairLimit, e.Threshold, e.Score.Mean, e.Score.P99)
		if e.Score.Mean < best.Score.Mean {
			t.Errorf("candidate %+v beats the winner %+v", e, best)
		}
	}
	if best.FairLimit == 40 {
		t.Errorf("winner %+v: the longest fair phase", best)
	}
	p, err := task.ParsePolicy(best.Config().Spec())
	if err != nil {
		t.Fatal(err)
	}
	if h := p.(*hpfsp.HPFSP); h.FairLimit != best.FairLimit || h.Threshold != best.Threshold {
		t.Errorf("bundle section %+v reads back as %+v", best.Config(), h)
	}
	for name, c := range map[string]struct {
		jobs   []task.Job
		limits []int
		obj    tuner.Objective
		want   string
	}{
		"no jobs":   {nil, nil, tuner.MinMean, "no jobs"},
		"objective": {jobs, nil, "median", "unknown objective \"median\""},
		"limit":     {jobs, []int{-3}, tuner.MinMean, "fair_limit -3"},
	} {
		if _, _, err := tasklevel.TuneHPFSP(context.Background(), c.jobs, cl, c.limits, nil, c.obj, nil, task.Options{}); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one with %q", name, err, c.want)
		}
	}
}

// TestHPFSPProgressReports checks that running tasks' progress feeds seed
// 002's estimator (eq. 1–5) at the progress reports and that H-PFSP
// decides on it. One machine of 2 containers, default task time 10 s:
// C (one 7 s task) and A (two 100 s tasks) arrive at 0, B (three 20 s
// tasks) at 1. C starts at 0; A's first task at 1 (at 0 A is not
// completable behind C, and Algorithm 2 read literally, fallback=none,
// run here, leaves the container idle until the next event). Until a task of A ends, its estimate is eq.
// 18's default unless its running task's progress is reported: at 3 s A
// has made 0.02 task (below 2% of its 2 tasks), at 6 s 0.05, a sample of
// 100 s (to rounding). When C ends at 7 s the free container
// goes to B (w 15 s of the cluster against A's 96.5 s) with reports,
// and to A (whose w, from the default, is below B's) without: B then
// waits for A's first task, about a hundred seconds, and finishes at
// 140 s instead of 7 + 3·20 = 67 s.
func TestHPFSPProgressReports(t *testing.T) {
	cl := task.Uniform(1, 2)
	one := func(at float64, n int, d float64) task.Job {
		j := task.Job{Arrival: at, Stages: []task.Stage{{Tasks: make([]task.TaskSpec, n)}}}
		for k := range j.Stages[0].Tasks {
			j.Stages[0].Tasks[k] = task.TaskSpec{Duration: d, Containers: 1}
		}
		return j
	}
	jobs := []task.Job{one(0, 1, 7), one(0, 2, 100), one(1, 3, 20)}
	const c, a, b = 0, 1, 2
	var est *estimate.ProgressEstimator
	newEst := func(s *task.State) (hpfsp.RemainingEstimator, error) {
		e, err := tasklevel.HPFSPEstimator(estimate.ProgressConfig{Default: []float64{10}, Alpha: estimate.NoSmoothing})(s)
		est, _ = e.(*estimate.ProgressEstimator)
		return e, err
	}
	for _, report := range []float64{0, -1} {
		p := &hpfsp.HPFSP{FairLimit: 0, NoFallback: true, ReportInterval: report, NewEstimator: newEst}
		obs := &taskTimeProbe{job: a, at: 6}
		obs.get = func() *estimate.ProgressEstimator { return est }
		ck := task.NewChecker(p)
		r, err := task.Simulate(jobs, cl, p, task.Options{Observer: multiObserver{ck, obs}})
		if err != nil {
			t.Fatal(err)
		}
		if err := ck.Finish(jobs, r); err != nil {
			t.Fatal(err)
		}
		name := p.Spec()
		t.Logf("%s: completions C %.0f s, A %.0f s, B %.0f s; A's task time at C's end %.3f s; %d reports", name, r.Completion[c], r.Completion[a], r.Completion[b], obs.got, p.Reports)
		if report == 0 {
			if math.Abs(obs.got-100) > 1e-9 {
				t.Errorf("%s: A's task time when C ends %v s, want 100 s (its running task's rate)", name, obs.got)
			}
			if r.Completion[b] != 7+3*20 || p.Reports == 0 {
				t.Errorf("%s: B completes at %v s (%d reports), want 67 s (it gets C's container at 7 s)", name, r.Completion[b], p.Reports)
			}
		} else {
			if obs.got != 10 && obs.got != 7 {
				t.Errorf("%s: A's task time when C ends %v s, want a default (no sample yet)", name, obs.got)
			}
			if r.Completion[b] <= 100 || p.Reports != 0 {
				t.Errorf("%s: B completes at %v s (%d reports), want after 100 s (A takes C's container)", name, r.Completion[b], p.Reports)
			}
		}
	}
}

// taskTimeProbe records a job's estimated task time at the first task end
// at or after a time.
type taskTimeProbe struct {
	get func() *estimate.ProgressEstimator
	job int
	at  float64
	got float64
	ok  bool
}

func (o *taskTimeProbe) TaskStarted(*task.State, task.TaskRef) {}
func (o *taskTimeProbe) TaskKilled(*task.State, task.TaskRef)  {}
func (o *taskTimeProbe) Dispatched(*task.State)                {}
func (o *taskTimeProbe) TaskEnded(s *task.State, _ task.TaskRef) {
	if !o.ok && s.Now() >= o.at {
		o.got, o.ok = o.get().TaskTime(o.job, 0), true
	}
}

// multiObserver passes every call to each of its observers.
type multiObserver []task.Observer

func (m multiObserver) TaskStarted(s *task.State, t task.TaskRef) {
	for _, o := range m {
		o.TaskStarted(s, t)
	}
}
func (m multiObserver) TaskEnded(s *task.State, t task.TaskRef) {
	for _, o := range m {
		o.TaskEnded(s, t)
	}
}
func (m multiObserver) TaskKilled(s *task.State, t task.TaskRef) {
	for _, o := range m {
		o.TaskKilled(s, t)
	}
}
func (m multiObserver) Dispatched(s *task.State) {
	for _, o := range m {
		o.Dispatched(s)
	}
}

// The cluster spec's heartbeat_s is the task level's node heartbeat and
// H-PFSP's progress-report interval; without one, reports come every 3 s.
func TestHPFSPReportIntervalFromSpec(t *testing.T) {
	for _, c := range []struct {
		extra string
		want  float64
	}{{"", hpfsp.DefaultReportInterval}, {"heartbeat_s: 1.5\n", 1.5}} {
		spec, err := cluster.ParseSpec([]byte("version: 1\nresources:\n  - {name: a, count: 2, slots: 4, exec_rate: 1}\n"+c.extra), "c.yaml")
		if err != nil {
			t.Fatal(err)
		}
		cl, err := tasklevel.TaskCluster(spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := hpfspReportInterval(cl); got != c.want || cl.Heartbeat != spec.Heartbeat {
			t.Errorf("%q: report interval %v s (heartbeat %v s), want %v s", c.extra, got, cl.Heartbeat, c.want)
		}
		// A run reports at that interval: one job of one 10 s task on an
		// otherwise idle cluster gets a report at each multiple of it
		// before 10 s.
		jobs := []task.Job{{Stages: []task.Stage{{Tasks: []task.TaskSpec{{Duration: 10, Containers: 1}}}}}}
		p := &hpfsp.HPFSP{NewEstimator: tasklevel.HPFSPEstimator(estimate.ProgressConfig{Default: []float64{10}})}
		if _, err := task.Simulate(jobs, cl, p, task.Options{}); err != nil {
			t.Fatal(err)
		}
		if want := int(math.Ceil(10/c.want)) - 1; p.Reports != want {
			t.Errorf("%q: %d progress reports in 10 s, want %d", c.extra, p.Reports, want)
		}
	}
}

// At task level hpfsp sizes jobs online by default (it reads no estimate,
// so it runs once, not per error run); estimator=sizes reads them; other
// values are refused by name.
func TestTaskLevelHPFSPEstimator(t *testing.T) {
	cl := task.Uniform(2, 3)
	r := &tasklevel.TaskLevel{Cluster: cl, Jobs: noisyJobs(7, 40, cl)}
	for spec, uses := range map[string]bool{"hpfsp:fair_limit=1": false, "hpfsp:estimator=ewma": false, "hpfsp:estimator=sizes,fair_limit=3": true} {
		info, err := r.Policy(spec)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if info.Uses.Estimates != uses {
			t.Errorf("%s: uses estimates %v, want %v", spec, info.Uses.Estimates, uses)
		}
	}
	for spec, want := range map[string]string{"hpfsp:estimator=oracle": `estimator="oracle"`, "hpfsp:estimator=ewma,fair_limit=-1": "fair_limit -1"} {
		if _, err := r.Policy(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one with %s", spec, err, want)
		}
	}
	// The online run ignores the jobs' estimates: exact ones and reversed
	// ones (the largest job's size on the smallest) schedule alike; with
	// estimator=sizes they do not.
	x, err := r.TaskExperiment(nil)
	if err != nil {
		t.Fatal(err)
	}
	sim := r.NewSimulator()
	respond := func(spec string) []float64 {
		t.Helper()
		res, err := sim.Simulate(context.Background(), x.Jobs, 0, x.Capacity, spec)
		if err != nil {
			t.Fatal(err)
		}
		return append([]float64(nil), res.Response...)
	}
	exact := make([]float64, len(x.Jobs))
	for i := range x.Jobs {
		x.Jobs[i].Estimate = x.Jobs[i].Size
		exact[i] = x.Jobs[i].Size
	}
	online, sized := respond("hpfsp:fair_limit=1"), respond("hpfsp:fair_limit=1,estimator=sizes")
	sort.Float64s(exact)
	for i := range x.Jobs {
		k := sort.SearchFloat64s(exact, x.Jobs[i].Size)
		x.Jobs[i].Estimate = exact[len(exact)-1-k]
	}
	online2, sized2 := respond("hpfsp:fair_limit=1"), respond("hpfsp:fair_limit=1,estimator=sizes")
	if !slices.Equal(online, online2) {
		t.Error("the online H-PFSP changed with the jobs' estimates")
	}
	if slices.Equal(sized, sized2) {
		t.Error("estimator=sizes did not change with the jobs' estimates")
	}
}
