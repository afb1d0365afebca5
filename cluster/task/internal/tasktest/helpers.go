package tasktest

import (
	"math"
	"testing"

	"github.com/schedplan/schedplan/cluster/task"
)

// Run simulates p over jobs with the invariant checker attached and fails
// the test on any error or violation. The Result is the caller's.
func Run(t testing.TB, jobs []task.Job, cl *task.Cluster, p task.Policy, opt task.Options) *task.Result {
	t.Helper()
	c := task.NewChecker(p)
	opt.Observer = c
	r, err := task.Simulate(jobs, cl, p, opt)
	if err != nil {
		t.Fatalf("%s: %v", p.Name(), err)
	}
	if err := c.Finish(jobs, r); err != nil {
		t.Fatalf("%s: %v", p.Name(), err)
	}
	return r
}

// RunSpec parses spec (task.ParsePolicy) and runs it (see Run).
func RunSpec(t testing.TB, jobs []task.Job, cl *task.Cluster, spec string, opt task.Options) *task.Result {
	t.Helper()
	p, err := task.ParsePolicy(spec)
	if err != nil {
		t.Fatal(err)
	}
	return Run(t, jobs, cl, p, opt)
}

// Responses returns every job's completion less its arrival.
func Responses(jobs []task.Job, r *task.Result) []float64 {
	out := make([]float64, len(jobs))
	for i := range jobs {
		out[i] = r.Completion[i] - jobs[i].Arrival
	}
	return out
}

// Mean is the mean of x.
func Mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// Near reports whether a is within tol of b, relative to b when |b| > 1.
func Near(a, b, tol float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }

// MR builds a map-reduce job: maps map tasks of mapDur (1 container) and
// reds reduce tasks of redDur (rc containers).
func MR(arrival float64, maps int, mapDur float64, reds int, redDur float64, rc int) task.Job {
	j := task.Job{Arrival: arrival, Stages: []task.Stage{{Tasks: make([]task.TaskSpec, maps)}}}
	for i := range j.Stages[0].Tasks {
		j.Stages[0].Tasks[i] = task.TaskSpec{Duration: mapDur, Containers: 1}
	}
	if reds > 0 {
		r := task.Stage{Tasks: make([]task.TaskSpec, reds)}
		for i := range r.Tasks {
			r.Tasks[i] = task.TaskSpec{Duration: redDur, Containers: rc}
		}
		j.Stages = append(j.Stages, r)
	}
	j.Estimate = j.Work()
	return j
}
