package estimate

import (
	"math"
	"testing"

	"github.com/schedplan/schedplan/data"
)

// TestSWIMRuleByHand checks the bytes rule on a table small enough to compute
// by hand: w = in + 5·sh + out, scaled so that Σw = 0.9·t_last.
func TestSWIMRuleByHand(t *testing.T) {
	j := &data.Jobs{Source: "hand", Submit: []float64{0, 10}}
	j.ID.Append("a")
	j.ID.Append("b")
	j.InputBytes.Values = []int64{1, 0}
	j.ShuffleBytes.Values = []int64{1, 2}
	j.OutputBytes.Values = []int64{1, 0}
	w, src, err := Sizes(j, DefaultSizeOptions())
	if err != nil {
		t.Fatal(err)
	}
	if src != FromBytes {
		t.Errorf("source %s, want bytes", src)
	}
	// raw w = [7, 10], Σ = 17, multiplier = 0.9·10/17.
	want := []float64{7 * 9.0 / 17, 10 * 9.0 / 17}
	for i := range w {
		if math.Abs(w[i]-want[i]) > 1e-12 {
			t.Errorf("w[%d] = %v, want %v", i, w[i], want[i])
		}
	}
}

func TestSizeSources(t *testing.T) {
	base := func() *data.Jobs {
		j := &data.Jobs{Source: "t", Submit: []float64{0, 5}}
		j.ID.Append("a")
		j.ID.Append("b")
		return j
	}
	j := base()
	if _, _, err := Sizes(j, SizeOptions{}); err == nil {
		t.Error("a table without size columns was accepted")
	}
	j.MapTaskSeconds.Values = []float64{3, 4}
	j.ReduceTaskSeconds.Values = []float64{1, 0}
	w, src, err := Sizes(j, SizeOptions{})
	if err != nil || src != FromTaskSeconds || w[0] != 4 || w[1] != 4 {
		t.Errorf("task-seconds: %v %v %v", w, src, err)
	}
	j.Size.Values = []float64{2, 8}
	w, src, err = Sizes(j, SizeOptions{})
	if err != nil || src != FromSize || w[0] != 2 || w[1] != 8 {
		t.Errorf("explicit: %v %v %v", w, src, err)
	}
	j.Size.Valid = data.NewBitmap(2)
	j.Size.Valid.SetNull(1)
	if _, _, err := Sizes(j, SizeOptions{}); err == nil {
		t.Error("null size accepted")
	}
}

func TestEmbeddedLoad(t *testing.T) {
	j, err := data.Open("embedded", data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	w, _, err := Sizes(j, DefaultSizeOptions())
	if err != nil {
		t.Fatal(err)
	}
	sum := 0.0
	for _, v := range w {
		sum += v
	}
	if want := 0.9 * 86404; math.Abs(sum-want) > 1e-9*want {
		t.Errorf("total work %v, want %v (load 0.9 over the trace)", sum, want)
	}
}

func TestDurationOrigin(t *testing.T) {
	for _, tc := range []struct {
		submit []float64
		want   float64
	}{
		{[]float64{49, 100, 86404}, 86404},         // SWIM: clock from 0, as schedsim
		{[]float64{1.5463008e9, 1.5463011e9}, 300}, // epoch seconds: from the first job
		{[]float64{0, 10}, 10},
		{[]float64{5}, 0},
	} {
		if got := Duration(tc.submit); got != tc.want {
			t.Errorf("Duration(%v) = %v, want %v", tc.submit, got, tc.want)
		}
	}
}
