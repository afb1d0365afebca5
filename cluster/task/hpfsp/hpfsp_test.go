package hpfsp

import (
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/cluster/task/internal/tasktest"
)

// equalJobs is seed 002 §IV.A's Fig. 2 experiment: n WordCount jobs of the
// same size submitted together (here 60 maps and 10 reduces of 10 s on 1
// container each).
func equalJobs(n int) []task.Job {
	jobs := make([]task.Job, n)
	for i := range jobs {
		jobs[i] = tasktest.MR(0, 60, 10, 10, 10, 1)
	}
	return jobs
}

// poissonJobs is seed 002 §IV.B's simulated workload, scaled down: n jobs,
// Poisson arrivals, exponentially distributed task counts of equal tasks
// (mean tasks of taskSec seconds on 1 container), at load about 0.9 on
// cl; the durations of a job's tasks are its own N(taskSec, sd) (Fig. 5;
// sd 0: Fig. 4's fixed task times).
func poissonJobs(seed uint64, n int, tasks, taskSec, sd float64, cl *task.Cluster) []task.Job {
	rng := rand.New(rand.NewPCG(seed, 2))
	jobs := make([]task.Job, n)
	t := 0.0
	for i := range jobs {
		t += rng.ExpFloat64() * tasks * taskSec / (0.9 * cl.Rate())
		k := 1 + int(rng.ExpFloat64()*tasks)
		j := task.Job{Arrival: t, Stages: []task.Stage{{Tasks: make([]task.TaskSpec, k)}}}
		for x := range j.Stages[0].Tasks {
			j.Stages[0].Tasks[x] = task.TaskSpec{Duration: max(taskSec+sd*rng.NormFloat64(), 0.1*taskSec), Containers: 1}
		}
		j.Estimate = j.Work()
		jobs[i] = j
	}
	return jobs
}

func meanSlowdown(jobs []task.Job, r *task.Result, rate float64) float64 {
	s := 0.0
	for i := range jobs {
		s += (r.Completion[i] - jobs[i].Arrival) / (jobs[i].Work() / rate)
	}
	return s / float64(len(jobs))
}

// TestSeed002Figure4 checks seed 002's Fig. 4 (fixed task times, so the
// estimates are exact after the first tasks; here exact from the start)
// with the default (Algorithm 2 with §II.C's residual slots): H-PFSP's mean slowdown is below Fair's for
// every FAIR_LIMIT, and a longer fair phase makes H-PFSP less efficient
// (towards Fair).
func TestSeed002Figure4(t *testing.T) {
	cl := task.Uniform(10, 3)
	jobs := poissonJobs(4, 200, 20, 60, 0, cl)
	fair := meanSlowdown(jobs, tasktest.RunSpec(t, jobs, cl, "fair:pool=single", task.Options{}), cl.Rate())
	var sd []float64
	for _, fl := range []int{0, 2, 5, 10, 40} {
		p := &HPFSP{FairLimit: fl}
		sd = append(sd, meanSlowdown(jobs, tasktest.Run(t, jobs, cl, p, task.Options{}), cl.Rate()))
		t.Logf("fair_limit=%2d: mean slowdown %.3f (Fair %.3f); picks %v", fl, sd[len(sd)-1], fair, p.Picks)
		if sd[len(sd)-1] >= fair {
			t.Errorf("fair_limit=%d: mean slowdown %.3f not below Fair's %.3f", fl, sd[len(sd)-1], fair)
		}
	}
	t.Logf("row: Fig. 4 mean slowdown by FAIR_LIMIT 0, 2, 5, 10, 40: %.2f (Fair %.2f)", sd, fair)
	if sd[len(sd)-1] <= sd[1] {
		t.Errorf("mean slowdown with fair_limit 40 (%.3f) not above fair_limit 2's (%.3f)", sd[len(sd)-1], sd[1])
	}
}

// TestHPFSPDeterministic runs the same workload twice on one policy value
// (Start resets it) and compares every completion time.
func TestHPFSPDeterministic(t *testing.T) {
	cl := task.Uniform(4, 5)
	jobs := poissonJobs(7, 300, 10, 30, 10, cl)
	p := &HPFSP{FairLimit: 3}
	a := tasktest.Run(t, jobs, cl, p, task.Options{})
	b := tasktest.Run(t, jobs, cl, p, task.Options{})
	if !reflect.DeepEqual(a.Completion, b.Completion) {
		t.Error("two runs of the same workload differ")
	}
}

// TestHPFSPSlowStart runs H-PFSP under the checker with slow start, at
// events and at heartbeats (1 s, at most 2 containers per heartbeat), on
// map-reduce jobs whose reduce tasks hold 2 containers.
func TestHPFSPSlowStart(t *testing.T) {
	cl := task.Uniform(5, 4)
	rng := rand.New(rand.NewPCG(3, 3))
	var jobs []task.Job
	at := 0.0
	for range 200 {
		at += rng.ExpFloat64() * 20
		jobs = append(jobs, tasktest.MR(at, 1+rng.IntN(30), 5+rng.Float64()*10, rng.IntN(6), 10+rng.Float64()*20, 2))
	}
	hb := task.Uniform(5, 4)
	hb.Heartbeat, hb.MaxAssign = 1, 2
	for _, c := range []*task.Cluster{cl, hb} {
		for _, ss := range []float64{0.05, 0.5, 1} {
			p := &HPFSP{FairLimit: 2, Threshold: 0.8}
			tasktest.Run(t, jobs, c, p, task.Options{SlowStart: ss})
			if p.Picks[PickCompletable] == 0 || p.Picks[PickFair] == 0 {
				t.Errorf("heartbeat %v s, slow start %v: picks %v: no fair-phase or completable pick", c.Heartbeat, ss, p.Picks)
			}
		}
	}
}

// TestHPFSPSpec checks the registry entry: defaults, Spec round trip and
// errors that name the parameter.
func TestHPFSPSpec(t *testing.T) {
	for _, spec := range []string{"hpfsp", "hpfsp:fair_limit=5", "hpfsp:fair_limit=0,threshold=0.5", "HPFSP:threshold=1", "hpfsp:report=off", "hpfsp:report=1.5", "hpfsp:late_first=1", "hpfsp:fallback=ps,vps=busy", "hpfsp:late_first=true,fallback=PS,vps=busy", "hpfsp:late_first=0,fallback=none,vps=work"} {
		p, err := task.ParsePolicy(spec)
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		h := p.(*HPFSP)
		q, err := task.ParsePolicy(h.Spec())
		if err != nil {
			t.Fatalf("%s → %s: %v", spec, h.Spec(), err)
		}
		if q.(*HPFSP).Spec() != h.Spec() {
			t.Errorf("%s: Spec %q reads back as %q", spec, h.Spec(), q.(*HPFSP).Spec())
		}
	}
	if p, _ := task.ParsePolicy("hpfsp"); p.(*HPFSP).Spec() != "hpfsp:fair_limit=2,threshold=0.95" {
		t.Errorf("default spec %q", p.(*HPFSP).Spec())
	}
	if p, _ := task.ParsePolicy("hpfsp:vps=busy,late_first=1,fallback=ps"); p.(*HPFSP).Spec() != "hpfsp:fair_limit=2,threshold=0.95,late_first=1,vps=busy" {
		t.Errorf("options' spec %q", p.(*HPFSP).Spec())
	}
	// Algorithm 2 read literally is the named option fallback=none; the
	// default (§II.C's residual slots) is fallback=ps.
	if p, _ := task.ParsePolicy("hpfsp:fallback=none"); !p.(*HPFSP).NoFallback || p.(*HPFSP).Spec() != "hpfsp:fair_limit=2,threshold=0.95,fallback=none" {
		t.Errorf("fallback=none: spec %q", p.(*HPFSP).Spec())
	}
	if p, _ := task.ParsePolicy("hpfsp"); p.(*HPFSP).NoFallback {
		t.Errorf("default: NoFallback set; want the residual slots given to other jobs (§II.C)")
	}
	// threshold=0 is documented as "the default", and the error's range says so.
	if p, err := task.ParsePolicy("hpfsp:threshold=0"); err != nil || p.(*HPFSP).Spec() != "hpfsp:fair_limit=2,threshold=0.95" {
		t.Errorf("threshold=0: %v, %v; want the default 0.95", p, err)
	}
	for spec, want := range map[string]string{
		"hpfsp:fair_limit=-1":  "fair_limit -1",
		"hpfsp:fair_limit=x":   "fair_limit=\"x\"",
		"hpfsp:threshold=1.5":  "threshold 1.5",
		"hpfsp:threshold=NaN":  "threshold NaN",
		"hpfsp:limit=3":        "unknown parameter \"limit\"",
		"hpfsp:threshold=-0.1": "threshold -0.1 is not in (0, 1] (or 0: the default, 0.95)",
		"hpfsp:report=-2":      "report=\"-2\"",
		"hpfsp:report=NaN":     "report=\"NaN\"",
		"hpfsp:report=soon":    "report=\"soon\"",
		"hpfsp:report=1e-300":  "below 0.001 s",
		"hpfsp:late_first=yes": "late_first=\"yes\"",
		"hpfsp:fallback=fifo":  "want ps or none",
		"hpfsp:vps=idle":       "want work or busy",
	} {
		if _, err := task.ParsePolicy(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want one naming %s", spec, err, want)
		}
	}
}

// fixedEstimator is a RemainingEstimator that returns a constant factor
// of the true remaining work (a biased online estimator) and counts its
// notifications.
type fixedEstimator struct {
	s               *task.State
	factor          float64
	added, started  int
	finished, freed int
}

func (e *fixedEstimator) AddJob(int, []int) error { e.added++; return nil }
func (e *fixedEstimator) TaskStarted(int, int, int, float64) error {
	e.started++
	return nil
}
func (e *fixedEstimator) TaskFinished(int, int, int, float64) error {
	e.finished++
	return nil
}
func (e *fixedEstimator) ObserveStage(int, int, float64, float64) error { return nil }
func (e *fixedEstimator) RemoveJob(int)                                 { e.freed++ }
func (e *fixedEstimator) StageProgress(j, st int) float64               { return e.s.StageProgress(j, st) }
func (e *fixedEstimator) Remaining(j int) float64 {
	if e.factor < 0 {
		return math.NaN() // a broken estimator: HPFSP falls back
	}
	return e.factor * max(e.s.Jobs()[j].Work()-e.s.Attained(j), 0) / e.s.Rate()
}

// TestHPFSPEstimator checks that HPFSP drives a plugged estimator (every
// job added and removed, every task started and finished) and that a
// broken one (NaN) falls back to the jobs' estimates.
func TestHPFSPEstimator(t *testing.T) {
	cl := task.Uniform(4, 5)
	jobs := poissonJobs(9, 100, 10, 30, 5, cl)
	tasks := 0
	for i := range jobs {
		tasks += jobs[i].NumTasks()
	}
	for _, f := range []float64{1, 3, -1} {
		var e *fixedEstimator
		p := &HPFSP{FairLimit: 1, NewEstimator: func(s *task.State) (RemainingEstimator, error) {
			e = &fixedEstimator{s: s, factor: f}
			return e, nil
		}}
		r := tasktest.Run(t, jobs, cl, p, task.Options{})
		if e.added != len(jobs) || e.freed != len(jobs) || e.started != tasks || e.finished != tasks {
			t.Errorf("factor %v: estimator saw %d adds, %d removes, %d starts, %d ends; want %d jobs, %d tasks",
				f, e.added, e.freed, e.started, e.finished, len(jobs), tasks)
		}
		t.Logf("factor %v: mean slowdown %.3f", f, meanSlowdown(jobs, r, cl.Rate()))
	}
}

// TestHPFSPVirtualPSAdvance checks eq. 8: the virtual PS advances by the
// work the real schedule did, not by the clock. One task of 10 s on one
// container of a 2-container cluster (w = 5 s of the whole cluster): at
// half the cluster's rate the virtual PS (eq. 8) empties as the job
// finishes, so it never goes late; a virtual PS at the cluster's full rate
// (vps=busy, the only behaviour before issue 28) runs it out at t = 5.
func TestHPFSPVirtualPSAdvance(t *testing.T) {
	cl := task.Uniform(1, 2)
	jobs := []task.Job{tasktest.MR(0, 1, 10, 0, 0, 1)}
	jobs[0].Estimate = jobs[0].Work()
	for _, c := range []struct {
		busy bool
		late int
	}{{false, 0}, {true, 1}} {
		p := &HPFSP{BusyPS: c.busy}
		late := 0
		p.x.OnLate = func(int) { late++ }
		r := tasktest.Run(t, jobs, cl, p, task.Options{})
		if late != c.late || r.Completion[0] != 10 {
			t.Errorf("vps=busy %v: %d late, completion %v; want %d late, completion 10", c.busy, late, r.Completion[0], c.late)
		}
	}
}
