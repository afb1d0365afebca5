package classify

import (
	"math"
	"testing"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/data"
)

// Refit keeps the classification's space: started from its own centres on
// its own rows it converges where it was (same assignment, centres and
// radii); started from one centre more, at a job far from every class, it
// returns one class more, which holds that job, and α over the rows' span.
func TestRefitWarmStart(t *testing.T) {
	j, sizes := embedded(t, "embedded:fb2009-50")
	spec := cluster.DefaultSpec()
	_, sec, err := COSHH(j, sizes, spec, Options{K: 3, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	same, err := sec.Refit(j, sizes, nil, sec.Centres(), Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if same.K != sec.K || same.KRule != "refit" {
		t.Fatalf("refit from its own centres: k %d (%s), want %d", same.K, same.KRule, sec.K)
	}
	for q := range sec.Assign {
		if same.Assign[q] != sec.Assign[q] {
			t.Fatalf("row %d moved from class %d to %d", q, sec.Assign[q], same.Assign[q])
		}
	}
	for c, cl := range sec.Classes {
		if math.Abs(same.Classes[c].Radius-cl.Radius) > 1e-9 || same.Classes[c].Count != cl.Count {
			t.Errorf("class %d: radius %v count %d, was %v %d", c, same.Classes[c].Radius, same.Classes[c].Count, cl.Radius, cl.Count)
		}
	}
	// The job farthest from its centre becomes a centre of its own.
	x, err := sec.ScaledRows(j, sizes, nil)
	if err != nil {
		t.Fatal(err)
	}
	far, farD := 0, -1.0
	cs := sec.Centres()
	for i, v := range x {
		if d := sqDist(v, cs[sec.Assign[i]]); d > farD {
			far, farD = i, d
		}
	}
	grown, err := sec.Refit(j, sizes, nil, append(cs, x[far]), Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if grown.K != sec.K+1 {
		t.Fatalf("refit with a new centre: %d classes, want %d (warnings %v)", grown.K, sec.K+1, grown.Warnings)
	}
	if c, err := grown.Predict(rowOf(t, grown, j, sizes, far)); err != nil || grown.Assign[far] != c {
		t.Errorf("job %d: predicted %d (%v), assigned %d", far, c, err, grown.Assign[far])
	}
	if _, err := sec.Refit(j, sizes, []int{0}, cs, Options{}); err == nil {
		t.Error("refit of 1 row into 3 classes: no error")
	}
}

func rowOf(t *testing.T, r *Result, j *data.Jobs, sizes []float64, i int) []float64 {
	t.Helper()
	x, err := r.FeatureRows(j, sizes, []int{i})
	if err != nil {
		t.Fatal(err)
	}
	return x.RawRowView(0)
}
