package estimate_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
)

func TestFitClassPredictor(t *testing.T) {
	p, err := estimate.FitClassPredictor([]float64{1, 3, 10, 20, 30}, []int32{0, 0, 2, 2, 2}, 3)
	if err != nil {
		t.Error(err)
	}
	// Class 1 has no training job: it gets the global mean 64/5.
	if !slices.Equal(p.Means, []float64{2, 12.8, 20}) || !slices.Equal(p.Counts, []int{2, 0, 3}) || p.Global != 12.8 {
		t.Errorf("predictor %+v", p)
	}
	if got := p.PredictAll([]int32{2, 0, -1, 7}); !slices.Equal(got, []float64{20, 2, 12.8, 12.8}) {
		t.Errorf("predictions %v", got)
	}
	m, err := estimate.FitClassPredictorStat([]float64{1, 3, 10, 20, 30}, []int32{0, 0, 2, 2, 2}, 3, estimate.Median)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(m.Means, []float64{2, 10, 20}) || m.Global != 10 {
		t.Errorf("median predictor %+v", m)
	}
	if _, err := estimate.FitClassPredictorStat([]float64{1}, []int32{0}, 1, "mode"); err == nil {
		t.Error("statistic mode accepted")
	}
	for _, tc := range []struct {
		sizes []float64
		class []int32
		k     int
		want  string
	}{
		{[]float64{1}, []int32{0, 1}, 2, "1 sizes for 2 classes"},
		{nil, nil, 2, "no training jobs"},
		{[]float64{1}, []int32{3}, 2, "class 3 is not in 0..1"},
		{[]float64{math.NaN()}, []int32{0}, 1, "size NaN"},
		{[]float64{1}, []int32{0}, 0, "0 classes"},
	} {
		if _, err := estimate.FitClassPredictor(tc.sizes, tc.class, tc.k); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
}

func TestErrorOf(t *testing.T) {
	actual := []float64{1, 2, 4, 0, 8}
	pred := []float64{2, 2, 1, 5, 8}
	e, err := estimate.ErrorOf(actual, pred)
	if err != nil {
		t.Error(err)
	}
	// Evaluated: (1→2) rel 1, log ln2; (2→2) 0, 0; (4→1) 0.75, ln4; (8→8) 0, 0.
	ln2 := math.Ln2
	want := estimate.PredictionError{
		Jobs: 5, Skipped: 1,
		MedianAbsRel: 0.375, MeanAbsRel: 1.75 / 4,
		MedianAbsLog: ln2 / 2, MeanAbsLog: 3 * ln2 / 4,
		RMSLog:        math.Sqrt((ln2*ln2 + 4*ln2*ln2) / 4),
		WithinFactor2: 0.75, MeanSignedLog: (ln2 - 2*ln2) / 4,
	}
	close := func(a, b float64) bool { return math.Abs(a-b) <= 1e-12 }
	if e.Jobs != want.Jobs || e.Skipped != want.Skipped || !close(e.MedianAbsRel, want.MedianAbsRel) ||
		!close(e.MeanAbsRel, want.MeanAbsRel) || !close(e.MedianAbsLog, want.MedianAbsLog) ||
		!close(e.MeanAbsLog, want.MeanAbsLog) || !close(e.RMSLog, want.RMSLog) ||
		!close(e.WithinFactor2, want.WithinFactor2) || !close(e.MeanSignedLog, want.MeanSignedLog) {
		t.Errorf("error\n got %+v\nwant %+v", e, want)
	}
	if _, err := estimate.ErrorOf(actual, pred[:2]); err == nil {
		t.Error("length mismatch accepted")
	}
	if e, _ := estimate.ErrorOf([]float64{0}, []float64{1}); !math.IsNaN(e.MeanAbsRel) || e.Skipped != 1 {
		t.Errorf("nothing to evaluate: %+v", e)
	}
}

func TestSplitBySubmit(t *testing.T) {
	submit := []float64{5, 1, 3, 3, 9, 0, 7, 2, 8, 4}
	train, test, err := estimate.SplitBySubmit(submit, 0.7)
	if err != nil {
		t.Error(err)
	}
	// Sorted: 0(r5) 1(r1) 2(r7) 3(r2) 3(r3) 4(r9) 5(r0) | 7(r6) 8(r8) 9(r4).
	if !slices.Equal(train, []int{0, 1, 2, 3, 5, 7, 9}) || !slices.Equal(test, []int{4, 6, 8}) {
		t.Errorf("train %v, test %v", train, test)
	}
	for _, f := range []float64{0, 1, math.NaN(), 0.05} {
		if _, _, err := estimate.SplitBySubmit(submit, f); err == nil {
			t.Errorf("fraction %v accepted", f)
		}
	}
}

// TestClassPredictorHeldOut fits classes on the first 70% of the embedded
// trace by submit time, using only what is known when a job is submitted
// (its input bytes: the SWIM trace has no other such column; job size is
// not one, of course), and predicts the sizes of the last 30%.
func TestClassPredictorHeldOut(t *testing.T) {
	j, err := data.Open("embedded", data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sizes, _, err := estimate.Sizes(j, estimate.SizeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	train, test, err := estimate.SplitBySubmit(j.Submit, 0.7)
	if err != nil {
		t.Fatal(err)
	}
	features, _ := classify.DefaultFeatures(j, sizes, nil, classify.SubmitFeatures)
	if !slices.Equal(features, []string{data.ColInputBytes}) {
		t.Fatalf("submit-time features %v", features)
	}
	r, err := classify.ClassifyRows(j, sizes, nil, train, classify.Options{Features: features, Seed: 1, K: 10})
	if err != nil {
		t.Fatal(err)
	}
	testClass, err := r.PredictRows(j, sizes, test)
	if err != nil {
		t.Fatal(err)
	}
	h, err := estimate.EvaluateClassPredictor(sizes, train, test, r.Assign, testClass, r.K)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("k = %d on %d training jobs, %d test jobs", r.K, h.Train, h.Test)
	for _, e := range []struct {
		name string
		e    estimate.PredictionError
	}{{"class mean", h.ClassMean}, {"class median", h.ClassMedian}, {"global mean", h.GlobalMean}, {"global median", h.GlobalMed}} {
		t.Logf("%-13s median |rel| %.3g, mean |rel| %.3g, median |log| %.3g, mean |log| %.3g, rms log %.3g, within ×2 %.1f%%",
			e.name, e.e.MedianAbsRel, e.e.MeanAbsRel, e.e.MedianAbsLog, e.e.MeanAbsLog, e.e.RMSLog, 100*e.e.WithinFactor2)
	}
	if h.Train+h.Test != j.Len() || h.ClassMean.Jobs != len(test) {
		t.Errorf("train %d + test %d != %d", h.Train, h.Test, j.Len())
	}
	// The classes carry information the global estimates lack: each class
	// statistic beats the same statistic of all training jobs.
	for _, c := range []struct {
		name          string
		class, global estimate.PredictionError
	}{{"mean", h.ClassMean, h.GlobalMean}, {"median", h.ClassMedian, h.GlobalMed}} {
		if !(c.class.MedianAbsRel < c.global.MedianAbsRel && c.class.MeanAbsLog < c.global.MeanAbsLog && c.class.WithinFactor2 > c.global.WithinFactor2) {
			t.Errorf("class %s predictor %+v is no better than the global %s %+v", c.name, c.class, c.name, c.global)
		}
	}
	if len(h.Predicted) != len(test) || h.Predictor.Statistic != estimate.Mean {
		t.Errorf("%d predictions for %d test jobs, statistic %q", len(h.Predicted), len(test), h.Predictor.Statistic)
	}
}
