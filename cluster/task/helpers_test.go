package task

import (
	"math"
	"testing"
)

// run simulates p over jobs with the invariant checker attached and fails
// the test on any error or violation. The Result is the caller's.
func run(t testing.TB, jobs []Job, cl *Cluster, p Policy, opt Options) *Result {
	t.Helper()
	c := NewChecker(p)
	opt.Observer = c
	r, err := Simulate(jobs, cl, p, opt)
	if err != nil {
		t.Fatalf("%s: %v", p.Name(), err)
	}
	if err := c.Finish(jobs, r); err != nil {
		t.Fatalf("%s: %v", p.Name(), err)
	}
	return r
}

// runSpec parses spec and runs it (see run).
func runSpec(t testing.TB, jobs []Job, cl *Cluster, spec string, opt Options) *Result {
	t.Helper()
	p, err := ParsePolicy(spec)
	if err != nil {
		t.Fatal(err)
	}
	return run(t, jobs, cl, p, opt)
}

func responses(jobs []Job, r *Result) []float64 {
	out := make([]float64, len(jobs))
	for i := range jobs {
		out[i] = r.Completion[i] - jobs[i].Arrival
	}
	return out
}

func mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b)) }

// mr builds a map-reduce job: maps map tasks of mapDur (1 container) and
// reds reduce tasks of redDur (rc containers).
func mr(arrival float64, maps int, mapDur float64, reds int, redDur float64, rc int) Job {
	j := Job{Arrival: arrival, Stages: []Stage{{Tasks: make([]TaskSpec, maps)}}}
	for i := range j.Stages[0].Tasks {
		j.Stages[0].Tasks[i] = TaskSpec{Duration: mapDur, Containers: 1}
	}
	if reds > 0 {
		r := Stage{Tasks: make([]TaskSpec, reds)}
		for i := range r.Tasks {
			r.Tasks[i] = TaskSpec{Duration: redDur, Containers: rc}
		}
		j.Stages = append(j.Stages, r)
	}
	j.Estimate = j.Work()
	return j
}

func checkResponses(t *testing.T, name string, got, want []float64) {
	t.Helper()
	for i := range want {
		if !near(got[i], want[i], 1e-9) {
			t.Errorf("%s: responses %v, want %v", name, got, want)
			return
		}
	}
}
