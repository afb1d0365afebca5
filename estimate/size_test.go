package estimate

import (
	"errors"
	"fmt"
	"math"
	"strings"
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

// jobsOf returns an unvalidated table (as a program may build one, bypassing
// data.Validate) of n jobs submitted 10 s apart with the given sizes.
func jobsOf(sizes []float64) *data.Jobs {
	j := &data.Jobs{Source: "t.csv"}
	for i := range sizes {
		j.ID.Append(fmt.Sprintf("j%d", i))
		j.Submit = append(j.Submit, float64(10*i))
	}
	j.Size.Values = sizes
	return j
}

// TestSizesRejectUnrepresentable checks that sizes whose sums or shares
// cannot be represented are rejected with the file, row and column of the
// job (issue 10: a size of 1e307 among 200 rows made `run` spin forever in
// 10000·v/total; 200 sizes of 1e308 made Σ overflow; all sizes 0 gave NaN).
func TestSizesRejectUnrepresentable(t *testing.T) {
	normal := func(n int) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = float64(1 + i%7)
		}
		return s
	}
	same := func(n int, v float64) []float64 {
		s := make([]float64, n)
		for i := range s {
			s[i] = v
		}
		return s
	}
	for _, tc := range []struct {
		name  string
		sizes []float64
		opt   SizeOptions
		row   int
		col   string
		msg   string
	}{
		{"1e307 among 200", append(normal(200), 1e307), SizeOptions{}, 201, data.ColSize, "larger than 1e+12"},
		{"1e308 among 200", append(normal(200), 1e308), SizeOptions{}, 201, data.ColSize, "larger than 1e+12"},
		{"200 of 1e308", same(200, 1e308), SizeOptions{}, 1, data.ColSize, "larger than 1e+12"},
		{"200 of 1e308 normalised", same(200, 1e308), SizeOptions{NormaliseAll: true}, 1, data.ColSize, "larger than 1e+12"},
		{"NaN", append(normal(3), math.NaN()), SizeOptions{}, 4, data.ColSize, "NaN"},
		{"all zero", same(200, 0), SizeOptions{}, 0, data.ColSize, "every job has size 0"},
		{"all zero normalised", same(200, 0), SizeOptions{NormaliseAll: true}, 0, data.ColSize, "every job has size 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := Sizes(jobsOf(tc.sizes), tc.opt)
			checkInputError(t, err, "t.csv", tc.row, tc.col, tc.msg)
		})
	}
}

// TestSizeOptionsChecked checks that options that would make every size
// NaN, infinite or negative are refused.
func TestSizeOptionsChecked(t *testing.T) {
	for _, tc := range []struct {
		opt SizeOptions
		msg string
	}{
		{SizeOptions{Load: math.NaN(), NormaliseAll: true}, "load NaN is not a finite positive number"},
		{SizeOptions{Load: -1}, "load -1 is not"},
		{SizeOptions{Load: math.Inf(1)}, "load +Inf is not"},
		{SizeOptions{DN: math.Inf(1)}, "d/n +Inf is not a finite non-negative number"},
		{SizeOptions{DN: -2}, "d/n -2 is not"},
	} {
		_, _, err := Sizes(jobsOf([]float64{1, 2}), tc.opt)
		if err == nil || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%+v: error %v, want %q", tc.opt, err, tc.msg)
		}
	}
}

// TestSizesBytesExtremes checks the bytes rule on the largest byte counts
// and submit times a program can put in a table: the result is finite or an
// error naming the job, never +Inf or NaN.
func TestSizesBytesExtremes(t *testing.T) {
	j := jobsOf(nil)
	for i := 0; i < 200; i++ {
		j.ID.Append(fmt.Sprintf("j%d", i))
		j.Submit = append(j.Submit, float64(10*i))
		j.InputBytes.Values = append(j.InputBytes.Values, math.MaxInt64)
		j.ShuffleBytes.Values = append(j.ShuffleBytes.Values, math.MaxInt64)
	}
	j.Size = data.Column[float64]{}
	w, _, err := Sizes(j, DefaultSizeOptions())
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range w {
		if want := 0.9 * 1990 / 200; math.Abs(v-want) > 1e-12*want {
			t.Fatalf("w[%d] = %v, want %v", i, v, want)
		}
	}
	j.Submit[199] = 1e308 // the span, and so every size, is out of range
	_, _, err = Sizes(j, DefaultSizeOptions())
	checkInputError(t, err, "t.csv", 0, data.ColSubmit, "spans 1e+308 s")
}

// TestSumChecked checks that the total of sizes is summed without overflow
// and that an overflow names the job at which it happens.
func TestSumChecked(t *testing.T) {
	if s, row := sumChecked([]float64{1, 2, 3}); s != 6 || row != 0 {
		t.Errorf("sum %v row %d", s, row)
	}
	if _, row := sumChecked([]float64{1, math.MaxFloat64, math.MaxFloat64, 1}); row != 3 {
		t.Errorf("overflow at row %d, want 3", row)
	}
}

func checkInputError(t *testing.T, err error, file string, row int, col, msg string) {
	t.Helper()
	var ie *data.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("error %v (%T), want a *data.InputError", err, err)
	}
	if ie.File != file || ie.Row != row || ie.Column != col || !strings.Contains(ie.Msg, msg) {
		t.Errorf("error %q: file %q row %d column %q; want %q, %d, %q with %q", err, ie.File, ie.Row, ie.Column, file, row, col, msg)
	}
}
