package data

import (
	"reflect"
	"testing"
)

// rowsTable is a table of n rows with every kind of column: strings,
// dictionaries with nulls, and numeric columns with and without nulls.
func rowsTable(n int) *Jobs {
	j := &Jobs{Source: "rows"}
	j.User = Dict{Values: []string{"a", "b"}}
	j.Queue = Dict{Values: []string{"q"}}
	j.MapTasks = Column[int32]{Valid: NewBitmap(n)}
	j.InputBytes = Column[int64]{}
	j.Size = Column[float64]{Valid: NewBitmap(n)}
	for i := 0; i < n; i++ {
		j.ID.Append(string(rune('a'+i%26)) + string(rune('0'+i%10)))
		j.Submit = append(j.Submit, float64(i))
		j.User.Codes = append(j.User.Codes, int32(i%3-1)) // −1: null
		j.Queue.Codes = append(j.Queue.Codes, 0)
		j.MapTasks.Values = append(j.MapTasks.Values, int32(i))
		if i%5 == 0 {
			j.MapTasks.Valid.SetNull(i)
		}
		j.InputBytes.Values = append(j.InputBytes.Values, int64(i)<<20)
		j.Size.Values = append(j.Size.Values, float64(i)/3)
		if i%7 == 3 {
			j.Size.Valid.SetNull(i)
		}
	}
	return j
}

// TestRowsIsSubsetWithoutCopy checks that Rows(lo, hi) holds what
// Subset of those rows holds, and shares the parent's values.
func TestRowsIsSubsetWithoutCopy(t *testing.T) {
	const n = 200
	j := rowsTable(n)
	for _, c := range []struct{ lo, hi int }{{0, n}, {0, 130}, {70, 200}, {65, 129}, {3, 3}, {199, 200}} {
		idx := make([]int, 0, c.hi-c.lo)
		for i := c.lo; i < c.hi; i++ {
			idx = append(idx, i)
		}
		got, want := j.Rows(c.lo, c.hi), j.Subset(idx)
		if got.Len() != want.Len() {
			t.Fatalf("rows %d..%d: %d rows, want %d", c.lo, c.hi, got.Len(), want.Len())
		}
		for i := 0; i < got.Len(); i++ {
			if got.ID.At(i) != want.ID.At(i) {
				t.Fatalf("rows %d..%d: id %d = %q, want %q", c.lo, c.hi, i, got.ID.At(i), want.ID.At(i))
			}
			gu, gok := got.User.At(i)
			wu, wok := want.User.At(i)
			gm, gmok := got.MapTasks.At(i)
			wm, wmok := want.MapTasks.At(i)
			gs, gsok := got.Size.At(i)
			ws, wsok := want.Size.At(i)
			gb, _ := got.InputBytes.At(i)
			wb, _ := want.InputBytes.At(i)
			if gu != wu || gok != wok || gm != wm || gmok != wmok || gs != ws || gsok != wsok || gb != wb || got.Submit[i] != want.Submit[i] {
				t.Fatalf("rows %d..%d: row %d differs from Subset's", c.lo, c.hi, i)
			}
		}
		if got.ID.Offsets[0] != 0 || int(got.ID.Offsets[got.Len()]) != len(got.ID.Data) {
			t.Errorf("rows %d..%d: id offsets %d..%d over %d bytes", c.lo, c.hi, got.ID.Offsets[0], got.ID.Offsets[got.Len()], len(got.ID.Data))
		}
		if !reflect.DeepEqual(got.Queue, want.Queue) || got.Priority.Present() {
			t.Errorf("rows %d..%d: queue or priority differ", c.lo, c.hi)
		}
		if c.hi > c.lo && (&got.Submit[0] != &j.Submit[c.lo] || &got.InputBytes.Values[0] != &j.InputBytes.Values[c.lo]) {
			t.Errorf("rows %d..%d: values copied, want them shared with the table", c.lo, c.hi)
		}
	}
	// Appending to the view must not write into the table's next row.
	v := j.Rows(10, 20)
	v.Submit = append(v.Submit, -1)
	if j.Submit[20] != 20 {
		t.Errorf("appending to the view overwrote the table's row 20: %v", j.Submit[20])
	}
}
