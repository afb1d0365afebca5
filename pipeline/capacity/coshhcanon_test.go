package capacity

import (
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/lp"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
)

// A 2-class, 2-type workload through the execution-time model (classify's
// time = size / (slots × exec_rate) + bytes / retrieve_rate), then the
// COSHH LP: μ, λ and the canonical allocation checked against the numbers
// worked out by hand.
//
// Type T1: 4 slots, 1 MB/s; T2: 1 slot, 100 MB/s; one machine each. Class
// A: 10 jobs of 400 container-seconds reading 1 MB; class B: 10 jobs of 10
// container-seconds reading 100 MB; 20 jobs over 190 s, so α = 10/190 each.
//
//	time A on T1 = 400/4 + 1e6/1e6 = 101 s      A on T2 = 400 + 0.01 = 400.01 s
//	time B on T1 = 10/4 + 1e8/1e6 = 102.5 s     B on T2 = 10 + 1 = 11 s
//
// A is relatively better on T1 (μ_A1/μ_B1 > μ_A2/μ_B2), B on T2. A alone on
// T1 sustains λ_A = 190/(10·101) = 0.188, B alone on T2 λ_B = 190/(10·11)
// = 1.727, so A also gets a fraction x of T2 until both reach λ:
//
//	(1/101 + x/400.01) = (1 − x)/11  ⇒  x = (1/11 − 1/101) / (1/400.01 + 1/11)
//	λ = (1 − x)/11 / (10/190)
func TestCOSHHExecModelByHand(t *testing.T) {
	spec, err := cluster.ParseSpec([]byte(`version: 1
name: two-types
resources:
  - {name: T1, count: 1, slots: 4, exec_rate: 1, retrieve_rate: 1MB/s}
  - {name: T2, count: 1, slots: 1, exec_rate: 1, retrieve_rate: 100MB/s}
`), "two-types.yaml")
	if err != nil {
		t.Fatal(err)
	}
	j := &data.Jobs{Source: "two-classes"}
	var sizes []float64
	var in []int64
	for i := 0; i < 20; i++ {
		j.Submit = append(j.Submit, float64(10*i))
		j.ID.Append("j" + strconv.Itoa(i))
		if i%2 == 0 {
			sizes, in = append(sizes, 400), append(in, 1e6)
		} else {
			sizes, in = append(sizes, 10), append(in, 1e8)
		}
	}
	j.InputBytes.Values = in
	_, res, err := classify.COSHH(j, sizes, spec, classify.Options{K: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Classes) != 2 {
		t.Fatalf("%d classes, want 2", len(res.Classes))
	}
	a, b := 0, 1
	if res.Classes[0].MeanSize < res.Classes[1].MeanSize {
		a, b = 1, 0
	}
	muA, muB := []float64{1 / 101.0, 1 / 400.01}, []float64{1 / 102.5, 1 / 11.0}
	alpha := 10 / 190.0
	for k, want := range map[int][]float64{a: muA, b: muB} {
		c := res.Classes[k]
		if !nearRel(c.Alpha, alpha, 1e-12) {
			t.Errorf("class %d: α = %.12g, want 10/190", k, c.Alpha)
		}
		for ty := range want {
			if !nearRel(c.Mu[ty], want[ty], 1e-12) {
				t.Errorf("class %d: μ on T%d = %.12g jobs/s, want %.12g", k, ty+1, c.Mu[ty], want[ty])
			}
		}
	}
	x := (1/11.0 - 1/101.0) / (1/400.01 + 1/11.0)
	lambda := (1 - x) / 11 / alpha
	for _, s := range []lp.Solver{lp.CLP, lp.Gonum} {
		if s == lp.CLP && !lp.CLPAvailable() {
			continue
		}
		an, err := PlanCapacity(res, spec, CapacityOptions{Solver: s})
		if err != nil {
			t.Fatal(err)
		}
		if !nearRel(an.Lambda, lambda, 1e-9) {
			t.Errorf("%s: λ = %.12g, by hand %.12g", s, an.Lambda, lambda)
		}
		if !an.Canonical || !an.HasDuals {
			t.Errorf("%s: canonical %v, duals %v", s, an.Canonical, an.HasDuals)
		}
		want := map[int][]float64{a: {1, x}, b: {0, 1 - x}}
		for k, d := range want {
			for ty := range d {
				if math.Abs(an.Classes[k].Delta[ty]-d[ty]) > 1e-9 {
					t.Errorf("%s: class %d: δ = %v, want %v", s, k, an.Classes[k].Delta, d)
				}
			}
		}
		// Both types limit λ; their dual prices sum to λ.
		if sum := an.Types[0].DualPrice + an.Types[1].DualPrice; !nearRel(sum, lambda, 1e-9) || !an.Types[0].Bottleneck || !an.Types[1].Bottleneck {
			t.Errorf("%s: dual prices %g + %g (bottlenecks %v, %v), want a sum of λ = %g", s,
				an.Types[0].DualPrice, an.Types[1].DualPrice, an.Types[0].Bottleneck, an.Types[1].Bottleneck, lambda)
		}
	}
}

func nearRel(a, b, rel float64) bool { return math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b)) }

// COSHHResolver re-solves after a re-classification (the first 30 jobs of
// the embedded trace, then all 50) warm-started, and gives the plan a cold
// solve gives.
func TestCOSHHResolverWarm(t *testing.T) {
	j, err := data.Open("embedded:fb2009-50", data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	sizes, _, err := estimate.Sizes(j, estimate.SizeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	spec := cluster.DefaultSpec()
	rows := make([]int, 30)
	for i := range rows {
		rows[i] = i
	}
	first, err := classify.ClassifyRows(j, sizes, spec, rows, classify.Options{K: 4, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	_, all, err := classify.COSHH(j, sizes, spec, classify.Options{K: 4, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []lp.Solver{lp.CLP, lp.Gonum} {
		if s == lp.CLP && !lp.CLPAvailable() {
			continue
		}
		r := &tasklevel.COSHHResolver{Spec: spec, Options: lp.COSHHOptions{Solver: s}}
		if _, err := r.Plan(nil, first); err != nil {
			t.Fatal(err)
		}
		warm, err := r.Plan(nil, all)
		if err != nil {
			t.Fatal(err)
		}
		coldSol, err := tasklevel.COSHHSolve(all, spec, lp.COSHHOptions{Solver: s})
		if err != nil {
			t.Fatal(err)
		}
		cold := tasklevel.COSHHPlan(nil, all, nil, coldSol)
		if fmt.Sprint(warm.Secondary.Suggested) != fmt.Sprint(cold.Secondary.Suggested) {
			t.Errorf("%s: warm suggested sets %v, cold %v", s, warm.Secondary.Suggested, cold.Secondary.Suggested)
		}
		for i := range coldSol.Delta {
			for ty, d := range coldSol.Delta[i] {
				if math.Abs(d-r.LastSecondary.Delta[i][ty]) > 1e-9 {
					t.Errorf("%s: δ[%d][%d] warm %.12g, cold %.12g", s, i, ty, r.LastSecondary.Delta[i][ty], d)
				}
			}
		}
	}
}
