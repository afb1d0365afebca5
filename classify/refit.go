package classify

import (
	"errors"
	"fmt"
	"math"

	"github.com/schedplan/schedplan/data"
	"gonum.org/v1/gonum/mat"
)

// Refit re-classifies rows of j (increasing row numbers; all when nil) in
// r's feature space: the same features, the same scaling and the same
// execution-time model (with r's estimation errors), so that feature
// vectors computed for r (ScaledRows) stay valid for the result. Lloyd's
// iterations start from start — centres in r's scaled space, e.g. r's
// centres plus a new job's vector (seed 003 Alg. 1: a job that fits no
// class re-classifies the jobs seen so far, warm-started from the current
// centres) — and the classes are rebuilt as a classification builds them
// (ordered by mean size, with count, μ, radius and α over the span of
// the rows' submit times: the jobs seen so far).
// Clusters that end empty are dropped (a warning says so). opt supplies
// MaxIter, Tol, Seed, Workers and SmallBytes.
//
// Cost: O(|rows|·T) for the execution-time estimates of the rows (T
// machine types) plus O(iterations·|rows|·k·d) for Lloyd.
func (r *Result) Refit(j *data.Jobs, sizes []float64, rows []int, start [][]float64, opt Options) (*Result, error) {
	opt = opt.withDefaults()
	d := len(r.Features)
	if len(r.Classes) == 0 || d == 0 {
		return nil, errors.New("classify: refit: the classification has no classes")
	}
	if len(start) == 0 {
		return nil, errors.New("classify: refit: no starting centres")
	}
	if r.Model == nil {
		return nil, errors.New("classify: refit: a classification without its model")
	}
	sm := mat.NewDense(len(start), d, nil)
	for c, v := range start {
		if len(v) != d {
			return nil, fmt.Errorf("classify: refit: starting centre %d has %d values for %d features", c, len(v), d)
		}
		for f, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("classify: refit: starting centre %d is not finite", c)
			}
			sm.Set(c, f, x)
		}
	}
	x, err := r.FeatureRows(j, sizes, rows)
	if err != nil {
		return nil, err
	}
	n, _ := x.Dims()
	if n < len(start) {
		return nil, fmt.Errorf("classify: refit: %d rows for %d centres", n, len(start))
	}
	z := r.Scaling.Apply(x)
	km, err := KMeans(z, len(start), KMeansOptions{MaxIter: opt.MaxIter, Tol: opt.Tol, Seed: opt.Seed, Workers: opt.Workers, Start: sm})
	if err != nil {
		return nil, err
	}
	m := *r.Model
	res := &Result{Name: r.Name, FeatureSet: r.FeatureSet, Features: append([]string(nil), r.Features...), Scaling: r.Scaling,
		KRule: "refit", Rows: rows, Resources: append([]string(nil), r.Resources...), Span: r.Span, SizeFloor: r.SizeFloor,
		Model: &m, Inertia: km.Inertia, Silhouette: math.NaN(), Iterations: km.Iterations, Converged: km.Converged}
	var sub []float64
	forRows(j.Len(), rows, func(i int) { sub = append(sub, j.Submit[i]) })
	if s := span(sub); s > 0 {
		res.Span = s
	}
	jt := r.Model.estimatedTimesOf(j, sizes, r.SizeFloor, rows)
	buildClasses(res, j, sizes, 1, rows, jt, km, z, opt)
	return res, nil
}
