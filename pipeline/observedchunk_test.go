package pipeline

import (
	"math"
	"reflect"
	"testing"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/pipeline/inputs"
)

// TestObservedInChunks checks that ObservedOf, which gathers a log 64 Ki
// rows at a time, gives the quantiles of every job's observed times taken
// at once, across chunk boundaries, with missing and inconsistent times.
func TestObservedInChunks(t *testing.T) {
	const n = 150_000
	j := synthJobs(n, 3)
	j.Start.Values, j.Finish.Values = make([]float64, n), make([]float64, n)
	j.Start.Valid, j.Finish.Valid = data.NewBitmap(n), data.NewBitmap(n)
	for i := 0; i < n; i++ {
		j.Start.Values[i] = j.Submit[i] + float64(i%7)
		j.Finish.Values[i] = j.Start.Values[i] + float64(i%101)
		switch i % 1000 {
		case 3:
			j.Finish.Valid.SetNull(i)
			j.Finish.Values[i] = 0
		case 5:
			j.Start.Valid.SetNull(i)
			j.Start.Values[i] = 0
		case 7:
			j.Start.Values[i] = j.Finish.Values[i] + 1 // inconsistent
		}
	}
	got, ok := inputs.ObservedOf(j)
	if !ok {
		t.Fatal("nothing observed")
	}
	r, w, bad := inputs.ObservedTimes(j, 0, n)
	var resp, wait []float64
	for k := range r {
		if !math.IsNaN(r[k]) {
			resp = append(resp, r[k])
		}
		if !math.IsNaN(w[k]) {
			wait = append(wait, w[k])
		}
	}
	want := inputs.Observed{Jobs: len(resp), Response: sim.QuantilesOf(resp), Waited: len(wait), Wait: sim.QuantilesOf(wait), Inconsistent: bad}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("chunked %+v\nwant %+v", got, want)
	}
	if bad == 0 || len(wait) == len(resp) || len(resp) == n {
		t.Errorf("the test log lacks missing or inconsistent times: %d bad, %d waits, %d responses", bad, len(wait), len(resp))
	}
	j.Start, j.Finish = data.Column[float64]{}, data.Column[float64]{}
	if _, ok := inputs.ObservedOf(j); ok {
		t.Error("a log without finish times observed something")
	}
}
