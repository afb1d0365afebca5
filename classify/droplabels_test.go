package classify

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/schedplan/schedplan/cluster"
)

// TestDropLabels: a result without its labels still counts its jobs (and
// encodes as it did), knows no row's class and predicts as before.
func TestDropLabels(t *testing.T) {
	j, sizes := embedded(t, "embedded")
	_, r, err := COSHH(j, sizes, cluster.DefaultSpec(), Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	n := r.Jobs()
	before, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	x := r.Centres()[0]
	want, err := r.Predict(x)
	if err != nil {
		t.Fatal(err)
	}
	r.DropLabels()
	if r.Jobs() != n || r.Assign != nil || r.Rows != nil || r.ClassOf(0) != -1 {
		t.Errorf("after DropLabels: %d jobs (want %d), %d labels, ClassOf(0) = %d", r.Jobs(), n, len(r.Assign), r.ClassOf(0))
	}
	after, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Error("the result encodes differently without its labels")
	}
	if got, err := r.Predict(x); err != nil || got != want {
		t.Errorf("Predict = %d, %v; want %d", got, err, want)
	}
}
