package estimate

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// ClassPredictor predicts a job's size as the mean size of its class
// (Chronos-style, seed 003 §2.2): classes come from a classification of past
// jobs (package classify), a new job is assigned to the class of the nearest
// centre, and its predicted size is that class's mean. It takes class
// numbers, not a classification, so that estimate does not depend on
// classify.
type ClassPredictor struct {
	// Statistic is what a class predicts: the mean of its training jobs'
	// sizes (Chronos), or their median.
	Statistic Statistic
	// Means is the predicted size of each class (the mean or the median of
	// its training jobs' sizes); a class without training jobs gets Global.
	Means []float64
	// Counts is the number of training jobs of each class.
	Counts []int
	// Global is the mean (or median) size of all training jobs: the
	// prediction for a job without a valid class.
	Global float64
}

// Statistic is the summary of a class's sizes a ClassPredictor predicts.
type Statistic string

const (
	Mean   Statistic = "mean"
	Median Statistic = "median"
)

// FitClassPredictor fits a predictor of k classes from training jobs' sizes
// and classes (class[q] is the class of the job of size sizes[q]): each
// class predicts the mean size of its training jobs.
func FitClassPredictor(sizes []float64, class []int32, k int) (*ClassPredictor, error) {
	return FitClassPredictorStat(sizes, class, k, Mean)
}

// FitClassPredictorStat is FitClassPredictor with a choice of statistic.
// Job sizes are heavy-tailed: a class's mean is pulled up by its few largest
// jobs, its median is the better guess in relative or log terms.
func FitClassPredictorStat(sizes []float64, class []int32, k int, stat Statistic) (*ClassPredictor, error) {
	if stat != Mean && stat != Median {
		return nil, fmt.Errorf("class predictor: statistic %q is not mean or median", stat)
	}
	if len(sizes) != len(class) {
		return nil, fmt.Errorf("class predictor: %d sizes for %d classes", len(sizes), len(class))
	}
	if len(sizes) == 0 {
		return nil, errors.New("class predictor: no training jobs")
	}
	if k < 1 {
		return nil, fmt.Errorf("class predictor: %d classes", k)
	}
	p := &ClassPredictor{Statistic: stat, Means: make([]float64, k), Counts: make([]int, k)}
	total := 0.0
	for q, s := range sizes {
		if math.IsNaN(s) || math.IsInf(s, 0) {
			return nil, fmt.Errorf("class predictor: training job %d: size %v is not finite", q+1, s)
		}
		c := class[q]
		if c < 0 || int(c) >= k {
			return nil, fmt.Errorf("class predictor: training job %d: class %d is not in 0..%d", q+1, c, k-1)
		}
		p.Means[c] += s
		p.Counts[c]++
		total += s
	}
	p.Global = total / float64(len(sizes))
	if stat == Median {
		per := make([][]float64, k)
		for q, s := range sizes {
			per[class[q]] = append(per[class[q]], s)
		}
		for c := range per {
			if len(per[c]) > 0 {
				p.Means[c], _ = medianMean(per[c])
			}
		}
		p.Global, _ = medianMean(append([]float64(nil), sizes...))
	}
	for c := range p.Means {
		switch {
		case p.Counts[c] == 0:
			p.Means[c] = p.Global
		case stat == Mean:
			p.Means[c] /= float64(p.Counts[c])
		}
	}
	return p, nil
}

// Predict returns the predicted size of a job of the given class (Global for
// a class out of range, for example -1 for "unclassified").
func (p *ClassPredictor) Predict(class int32) float64 {
	if class < 0 || int(class) >= len(p.Means) {
		return p.Global
	}
	return p.Means[class]
}

// PredictAll returns the predicted size of each job of the given classes.
func (p *ClassPredictor) PredictAll(class []int32) []float64 {
	out := make([]float64, len(class))
	for q, c := range class {
		out[q] = p.Predict(c)
	}
	return out
}

// PredictionError summarises how far predicted sizes ŝ are from actual
// sizes s. Relative errors |ŝ − s| / s and log errors |ln ŝ − ln s| are
// taken over the jobs with s > 0 (and ŝ > 0 for the log errors); RMSLogErr
// is comparable to the σ of the log-normal error model of seed 001
// (ŝ = s·X, X ~ LogN(0, σ²)).
type PredictionError struct {
	Jobs          int     `json:"jobs"`
	Skipped       int     `json:"skipped"` // jobs with s = 0 or ŝ ≤ 0
	MedianAbsRel  float64 `json:"median_abs_rel_error"`
	MeanAbsRel    float64 `json:"mean_abs_rel_error"`
	MedianAbsLog  float64 `json:"median_abs_log_error"`
	MeanAbsLog    float64 `json:"mean_abs_log_error"`
	RMSLog        float64 `json:"rms_log_error"`
	WithinFactor2 float64 `json:"within_factor_2"` // share of jobs with ŝ/s in [1/2, 2]
	MeanSignedLog float64 `json:"mean_log_bias"`   // mean ln(ŝ/s): > 0 over-estimates
}

// ErrorOf measures predicted against actual sizes. NaN fields mean no job
// could be evaluated.
func ErrorOf(actual, predicted []float64) (PredictionError, error) {
	if len(actual) != len(predicted) {
		return PredictionError{}, fmt.Errorf("prediction error: %d actual and %d predicted sizes", len(actual), len(predicted))
	}
	e := PredictionError{Jobs: len(actual)}
	var rel, lg []float64
	signed, sq, within := 0.0, 0.0, 0
	for q, s := range actual {
		p := predicted[q]
		if !(s > 0) || !(p > 0) || math.IsInf(s, 0) || math.IsInf(p, 0) {
			e.Skipped++
			continue
		}
		rel = append(rel, math.Abs(p-s)/s)
		l := math.Log(p / s)
		lg = append(lg, math.Abs(l))
		signed += l
		sq += l * l
		if math.Abs(l) <= math.Ln2 {
			within++
		}
	}
	m := len(rel)
	if m == 0 {
		nan := math.NaN()
		e.MedianAbsRel, e.MeanAbsRel, e.MedianAbsLog, e.MeanAbsLog, e.RMSLog, e.WithinFactor2, e.MeanSignedLog = nan, nan, nan, nan, nan, nan, nan
		return e, nil
	}
	e.MedianAbsRel, e.MeanAbsRel = medianMean(rel)
	e.MedianAbsLog, e.MeanAbsLog = medianMean(lg)
	e.RMSLog = math.Sqrt(sq / float64(m))
	e.MeanSignedLog = signed / float64(m)
	e.WithinFactor2 = float64(within) / float64(m)
	return e, nil
}

// medianMean returns the median (mean of the two middle values for an even
// count) and the mean of x, which it sorts.
func medianMean(x []float64) (median, mean float64) {
	sort.Float64s(x)
	n := len(x)
	if n%2 == 1 {
		median = x[n/2]
	} else {
		median = (x[n/2-1] + x[n/2]) / 2
	}
	for _, v := range x {
		mean += v
	}
	return median, mean / float64(n)
}

// SplitBySubmit splits jobs by submit time: train holds the first
// ⌊frac·n⌋ jobs in order of submit time (ties by row), test the rest, both
// as row indices in that order. frac must be in (0, 1) and both parts
// non-empty.
func SplitBySubmit(submit []float64, frac float64) (train, test []int, err error) {
	n := len(submit)
	if !(frac > 0 && frac < 1) {
		return nil, nil, fmt.Errorf("hold-out split: fraction %v is not in (0, 1)", frac)
	}
	cut := int(math.Floor(frac * float64(n)))
	if cut < 1 || cut >= n {
		return nil, nil, fmt.Errorf("hold-out split: %d jobs cannot be split %.0f%%/%.0f%% into two non-empty parts", n, 100*frac, 100*(1-frac))
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return submit[order[a]] < submit[order[b]] })
	train, test = order[:cut], order[cut:]
	sort.Ints(train)
	sort.Ints(test)
	return train, test, nil
}

// HoldOut is the outcome of EvaluateClassPredictor.
type HoldOut struct {
	Train       int             `json:"train_jobs"`
	Test        int             `json:"test_jobs"`
	Classes     int             `json:"classes"`
	ClassMean   PredictionError `json:"class_mean"`    // each class predicts its mean (Chronos)
	ClassMedian PredictionError `json:"class_median"`  // each class predicts its median
	GlobalMean  PredictionError `json:"global_mean"`   // every job predicted the training mean
	GlobalMed   PredictionError `json:"global_median"` // every job predicted the training median
	// Predictor is the class-mean predictor; Predicted its prediction for
	// each test job.
	Predictor *ClassPredictor `json:"-"`
	Predicted []float64       `json:"-"`
}

// EvaluateClassPredictor fits ClassPredictors of k classes on the training
// jobs (rows train of sizes, classes trainClass) and measures them on the
// test jobs (rows test, classes testClass: the classes a classifier fitted
// on the training jobs alone gives them), beside two baselines that ignore
// classes: the training jobs' mean and median size. Compare ClassMean with
// GlobalMean and ClassMedian with GlobalMed.
func EvaluateClassPredictor(sizes []float64, train, test []int, trainClass, testClass []int32, k int) (*HoldOut, error) {
	if len(train) != len(trainClass) || len(test) != len(testClass) {
		return nil, fmt.Errorf("hold-out: %d training jobs with %d classes, %d test jobs with %d classes", len(train), len(trainClass), len(test), len(testClass))
	}
	pick := func(rows []int, what string) ([]float64, error) {
		out := make([]float64, len(rows))
		for q, i := range rows {
			if i < 0 || i >= len(sizes) {
				return nil, fmt.Errorf("hold-out: %s row %d out of range", what, i)
			}
			out[q] = sizes[i]
		}
		return out, nil
	}
	trainSizes, err := pick(train, "training")
	if err != nil {
		return nil, err
	}
	actual, err := pick(test, "test")
	if err != nil {
		return nil, err
	}
	mean, err := FitClassPredictorStat(trainSizes, trainClass, k, Mean)
	if err != nil {
		return nil, err
	}
	median, err := FitClassPredictorStat(trainSizes, trainClass, k, Median)
	if err != nil {
		return nil, err
	}
	h := &HoldOut{Train: len(train), Test: len(test), Classes: k, Predictor: mean, Predicted: mean.PredictAll(testClass)}
	if h.ClassMean, err = ErrorOf(actual, h.Predicted); err != nil {
		return nil, err
	}
	h.ClassMedian, _ = ErrorOf(actual, median.PredictAll(testClass))
	constant := func(v float64) []float64 {
		out := make([]float64, len(actual))
		for q := range out {
			out[q] = v
		}
		return out
	}
	h.GlobalMean, _ = ErrorOf(actual, constant(mean.Global))
	h.GlobalMed, _ = ErrorOf(actual, constant(median.Global))
	return h, nil
}
