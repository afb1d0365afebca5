package inputs

import (
	"math"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/data"
)

// TestObservedOf checks the observed response and wait times of a
// hand-made log: responses 10, 20, 30 s (job d finishes before it is
// submitted and is left out; job e has no finish).
func TestObservedOf(t *testing.T) {
	j := &data.Jobs{Source: "t"}
	for _, id := range []string{"a", "b", "c", "d", "e"} {
		j.ID.Append(id)
	}
	j.Submit = []float64{0, 5, 10, 20, 30}
	j.Start = data.Column[float64]{Values: []float64{1, 5, 12, 20, 31}}
	j.Finish = data.Column[float64]{Values: []float64{10, 25, 40, 15, 0}, Valid: data.NewBitmap(5)}
	j.Finish.Valid.SetNull(4)
	o, ok := ObservedOf(j)
	if !ok || o.Jobs != 3 || o.Inconsistent != 1 || o.Waited != 3 {
		t.Fatalf("%+v", o)
	}
	if o.Response.Mean != 20 || o.Response.Max != 30 || o.Response.Min != 10 {
		t.Errorf("response %+v", o.Response)
	}
	if math.Abs(o.Wait.Mean-1) > 1e-12 || o.Wait.Max != 2 {
		t.Errorf("wait %+v", o.Wait)
	}
	if s := o.String(); !strings.Contains(s, "observed response time (3 jobs)") || !strings.Contains(s, " s,") {
		t.Errorf("%q", s)
	}
	emb, err := data.Open("embedded:fb2009-50", data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := ObservedOf(emb); ok {
		t.Error("the SWIM trace has no finish times")
	}
}
