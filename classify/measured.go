package classify

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// Sources of a class's μ on a type (Class.MuSource).
const (
	MuModel    = "model"    // the execution-time model
	MuMeasured = "measured" // the log's task durations on the type
)

// TaskRun is one task of the log as the measured μ needs it: the tasks
// table's node_type and durations. The tasks table is read by package data;
// callers turn its rows into TaskRuns (this slice is the seam: the pipeline
// does not wire it yet).
type TaskRun struct {
	Row     int     // the task's job, as a row of the jobs table classified
	Type    string  // the machine type it ran on: a resource type of the spec
	Seconds float64 // how long it ran, s
}

// MeasureMu replaces μ by execution rates measured from the log where the
// log has them. For class i and type t with tasks of class i's jobs that
// ran on t,
//
//	μ_it = slots_t / (n_i × d_it)
//
// where d_it is the mean duration of those tasks and n_i the mean number of
// tasks per job of class i (over the class's jobs that have runs): a machine
// of type t runs slots_t tasks at a time. Types a class never ran on keep
// the model's μ, flagged in Class.MuSource. Runs whose row the
// classification did not classify are ignored and counted. A run on an
// unknown type or with a duration that is not a finite non-negative number
// is an error naming the run.
func (r *Result) MeasureMu(runs []TaskRun) (ignored int, err error) {
	if r.Model == nil {
		return 0, fmt.Errorf("classify: the classification has no model")
	}
	nt, k := len(r.Resources), len(r.Classes)
	typeOf := map[string]int{}
	for t, name := range r.Resources {
		typeOf[name] = t
	}
	sum := make([]float64, k*nt)
	cnt := make([]int, k*nt)
	tasks := make([]int, k)
	jobs := make([]map[int]bool, k)
	for q, run := range runs {
		t, ok := typeOf[run.Type]
		if !ok {
			return 0, fmt.Errorf("task run %d (job row %d): machine type %q is not in the cluster spec (types: %v)", q+1, run.Row+1, run.Type, r.Resources)
		}
		if !(run.Seconds >= 0) || math.IsInf(run.Seconds, 0) {
			return 0, fmt.Errorf("task run %d (job row %d): duration %v s is not a finite non-negative number", q+1, run.Row+1, run.Seconds)
		}
		c := int(r.ClassOf(run.Row))
		if c < 0 {
			ignored++
			continue
		}
		sum[c*nt+t] += run.Seconds
		cnt[c*nt+t]++
		tasks[c]++
		if jobs[c] == nil {
			jobs[c] = map[int]bool{}
		}
		jobs[c][run.Row] = true
	}
	for c := range r.Classes {
		cl := &r.Classes[c]
		if len(cl.MuSource) != nt {
			cl.MuSource = slices.Repeat([]string{MuModel}, nt)
		}
		for t := 0; t < nt; t++ {
			if cnt[c*nt+t] == 0 || !(sum[c*nt+t] > 0) {
				continue
			}
			perJob := float64(tasks[c]) / float64(len(jobs[c]))
			mean := sum[c*nt+t] / float64(cnt[c*nt+t])
			cl.Mu[t] = float64(r.Model.Types[t].Slots) / (perJob * mean)
			cl.MuSource[t] = MuMeasured
		}
	}
	if ignored > 0 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("measured μ: %d task runs of jobs the classification does not hold were ignored", ignored))
	}
	return ignored, nil
}

// MuRank returns the numerical rank of the classes' μ matrix (classes ×
// types). Rank 1 means every class's rates are proportional across types:
// the COSHH LP then only sees total capacity, and its optimum is not unique.
// Rows and columns are scaled to a largest entry of 1 first (the rank does
// not change), so that rates of very different magnitudes all count.
func MuRank(classes []Class) int {
	if len(classes) == 0 || len(classes[0].Mu) == 0 {
		return 0
	}
	k, nt := len(classes), len(classes[0].Mu)
	m := mat.NewDense(k, nt, nil)
	for i, c := range classes {
		for t, v := range c.Mu {
			m.Set(i, t, v)
		}
	}
	for i := 0; i < k; i++ {
		if top := mat.Max(m.RowView(i)); top > 0 {
			for t := 0; t < nt; t++ {
				m.Set(i, t, m.At(i, t)/top)
			}
		}
	}
	for t := 0; t < nt; t++ {
		if top := mat.Max(m.ColView(t)); top > 0 {
			for i := 0; i < k; i++ {
				m.Set(i, t, m.At(i, t)/top)
			}
		}
	}
	var svd mat.SVD
	if !svd.Factorize(m, mat.SVDNone) {
		return 0
	}
	vals := svd.Values(nil)
	rank := 0
	for _, v := range vals {
		if v > 1e-9*vals[0] {
			rank++
		}
	}
	return rank
}

// rankOneNote warns when μ of two or more classes on two or more types has
// rank 1.
func rankOneNote(res *Result) string {
	if len(res.Classes) < 2 || len(res.Resources) < 2 || MuRank(res.Classes) > 1 {
		return ""
	}
	return "μ has rank 1 (every class's rates are proportional across machine types): the COSHH LP sees only total capacity and its allocation is not unique; give the machine types memory and retrieve_rate in the cluster spec"
}
