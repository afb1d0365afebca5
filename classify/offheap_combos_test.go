package classify

import (
	"fmt"
	"math"
	"runtime/debug"
	"testing"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/internal/offheap"
)

// TestOffHeapBalancedEverywhere classifies through every public entry
// (Classify, ClassifyRows, COSHH) over option combinations (sampled or
// not, k above 256, restarts, auto k, named features, both feature sets)
// and error returns (a non-finite feature, more classes than rows), and
// checks that nothing stays off the heap afterwards and that every part of
// the result can be read with faults turned into panics (a result aliasing
// a freed buffer would fault).
func TestOffHeapBalancedEverywhere(t *testing.T) {
	const n = 70_000 // 2n bounds × 8 B and n × 3 features × 8 B > offheap.Threshold
	j, sizes := pinLog(n)
	spec := cluster.DefaultSpec()
	rows := make([]int, 0, n)
	for i := 0; i < n; i++ {
		if i%7 != 3 {
			rows = append(rows, i)
		}
	}
	nan := append([]float64(nil), sizes...)
	nan[n/2] = math.NaN()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	type entry func(opt Options, s []float64) ([]*Result, error)
	classifyAll := func(opt Options, s []float64) ([]*Result, error) {
		r, err := Classify(j, s, spec, opt)
		return []*Result{r}, err
	}
	classifyRows := func(opt Options, s []float64) ([]*Result, error) {
		r, err := ClassifyRows(j, s, spec, rows, opt)
		return []*Result{r}, err
	}
	coshh := func(opt Options, s []float64) ([]*Result, error) {
		p, q, err := COSHH(j, s, spec, opt)
		return []*Result{p, q}, err
	}
	entries := map[string]entry{"Classify": classifyAll, "ClassifyRows": classifyRows, "COSHH": coshh}
	opts := map[string]Options{
		"sampled":        {K: 4, Seed: 3, Sample: 5_000, MaxIter: 8},
		"whole":          {K: 3, Seed: 3, Sample: -1, MaxIter: 8},
		"n below sample": {K: 3, Seed: 3, Sample: 2 * n, MaxIter: 8},
		"restarts":       {K: 3, Seed: 3, Sample: 5_000, Restarts: 3, MaxIter: 8},
		"auto k":         {Seed: 2, Sample: 5_000, KMax: 4, MaxIter: 8},
		"k above 256":    {K: 260, Seed: 1, Sample: 2_000, MaxIter: 1, Restarts: 1},
		"paper set":      {K: 3, Seed: 1, Sample: 5_000, FeatureSet: PaperFeatures, MaxIter: 8},
		"size set":       {K: 3, Seed: 1, Sample: 5_000, FeatureSet: SizeFeatures, MaxIter: 8},
		"named features": {K: 3, Seed: 1, Sample: 5_000, Features: []string{FeatSize, "input_bytes"}, MaxIter: 8},
		"users":          {K: KUsers, Seed: 1, Sample: 5_000, MaxIter: 8},
		"bad k":          {K: -5, Seed: 1, Sample: 5_000},
		"empty k range":  {KMin: 5, KMax: 3, Seed: 1, Sample: 5_000},
	}
	before := offheap.InUse()
	errs := 0
	for en, e := range entries {
		for on, opt := range opts {
			for _, bad := range []bool{false, true} {
				name := fmt.Sprintf("%s/%s/nan=%v", en, on, bad)
				if bad && on != "sampled" && on != "paper set" {
					continue
				}
				s := sizes
				if bad {
					s = nan
				}
				var res []*Result
				var err error
				func() {
					defer func() {
						if p := recover(); p != nil {
							t.Errorf("%s: panic %v", name, p)
						}
					}()
					res, err = e(opt, s)
					if err == nil {
						for _, r := range res {
							touch(r)
						}
					}
				}()
				if err != nil {
					errs++
				}
				if got := offheap.InUse(); got != before {
					t.Errorf("%s (err %v): %d B off the heap after the call, want %d", name, err, got, before)
				}
			}
		}
	}
	if offheap.Peak() == 0 {
		t.Error("nothing went off the heap: the test does not exercise it")
	}
	// NaN sizes (Classify, ClassifyRows: sampled, paper set; COSHH: the
	// same), bad k and an empty k range, on every entry: at least 12.
	t.Logf("%d of the calls failed", errs)
	if errs < 12 {
		t.Errorf("%d calls failed, want at least 12: the error returns are not exercised", errs)
	}
}

// touch reads every number a Result holds.
func touch(r *Result) {
	s := r.Inertia + r.Silhouette + r.Span
	for _, a := range r.Assign {
		s += float64(a)
	}
	for _, c := range r.Classes {
		s += c.Radius + c.MeanSize + c.Share
		for _, v := range c.Centroid {
			s += v
		}
		for _, v := range c.Mu {
			s += v
		}
	}
	for _, v := range r.centers {
		s += v
	}
	for _, v := range r.Scaling.Mean {
		s += v
	}
	for _, c := range r.Curve {
		s += c.Inertia + c.Silhouette
	}
	for _, w := range r.Warnings {
		s += float64(len(w))
	}
	if r.Sample != nil {
		s += r.Sample.Gap
	}
	sink = s
}

var sink float64
