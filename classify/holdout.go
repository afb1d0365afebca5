package classify

import (
	"fmt"
	"strings"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
)

// HoldOutResult is the class-based size predictor (Chronos-style, seed 003
// §2.2) measured on held-out jobs.
type HoldOutResult struct {
	TrainFraction float64  `json:"train_fraction"`
	Features      []string `json:"features"`
	K             int      `json:"k"`
	*estimate.HoldOut
}

// HoldOutPredictor fits classes on the first frac of the jobs by submit time
// with the features known at submission only (SubmitFeatures), assigns the
// other jobs to the nearest class and measures the class-based size
// predictor on them. opt.Features is replaced; KUsers falls back to KAuto
// (users are no feature).
func HoldOutPredictor(j *data.Jobs, sizes []float64, spec *cluster.Spec, frac float64, opt Options) (*HoldOutResult, error) {
	train, test, err := estimate.SplitBySubmit(j.Submit, frac)
	if err != nil {
		return nil, err
	}
	feats, _ := DefaultFeatures(j, sizes, nil, SubmitFeatures)
	if len(feats) == 0 {
		return nil, fmt.Errorf("%s: the log has none of the features known at submission (%s) for every job",
			j.Source, strings.Join(SubmitFeatures, ", "))
	}
	opt.Features = feats
	if opt.K == KUsers {
		opt.K = KAuto
	}
	r, err := ClassifyRows(j, sizes, spec, train, opt)
	if err != nil {
		return nil, err
	}
	testClass, err := r.PredictRows(j, sizes, test)
	if err != nil {
		return nil, err
	}
	h, err := estimate.EvaluateClassPredictor(sizes, train, test, r.Assign, testClass, r.K)
	if err != nil {
		return nil, err
	}
	return &HoldOutResult{TrainFraction: frac, Features: feats, K: r.K, HoldOut: h}, nil
}
