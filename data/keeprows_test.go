package data

import (
	"bytes"
	"strings"
	"testing"
)

// keepRowsTable is a 6-row table with ids, bytes (a null in row 1 and row
// 4) and a size column.
func keepRowsTable() *Jobs {
	j := &Jobs{Source: "t"}
	for i, id := range []string{"a", "bb", "c", "dddd", "e", "ff"} {
		j.ID.Append(id)
		j.Submit = append(j.Submit, float64(i))
	}
	j.InputBytes = Column[int64]{Values: []int64{10, 0, 30, 40, 0, 60}, Valid: NewBitmap(6)}
	j.InputBytes.Valid.SetNull(1)
	j.InputBytes.Valid.SetNull(4)
	j.Size.Values = []float64{1, 2, 3, 4, 5, 6}
	return j
}

// TestKeepRows checks that a table whose ids and columns keep rows [2, 5)
// gives those rows' values, nulls, Subset and Rows as before, keeps its
// length and columns, panics on a dropped row and refuses to be written
// or kept for other rows.
func TestKeepRows(t *testing.T) {
	whole := keepRowsTable()
	j := keepRowsTable()
	if err := j.KeepRows(2, 5, ColJobID, ColInputBytes, ColSize); err != nil {
		t.Fatal(err)
	}
	if !j.Kept() || j.Len() != 6 || j.ID.Len() != 6 || !j.InputBytes.Present() || !j.Size.Present() || j.InputBytes.Values != nil || j.ID.Offsets != nil {
		t.Fatalf("after KeepRows: kept %v, len %d, ids %d, present %v %v, values %v, offsets %v", j.Kept(), j.Len(), j.ID.Len(), j.InputBytes.Present(), j.Size.Present(), j.InputBytes.Values, j.ID.Offsets)
	}
	for i := 2; i < 5; i++ {
		v, ok := j.InputBytes.At(i)
		w, wok := whole.InputBytes.At(i)
		s, _ := j.Size.At(i)
		if v != w || ok != wok || j.ID.At(i) != whole.ID.At(i) || s != whole.Size.Values[i] {
			t.Errorf("row %d: %q %d %v %v, want %q %d %v %v", i, j.ID.At(i), v, ok, s, whole.ID.At(i), w, wok, whole.Size.Values[i])
		}
	}
	for _, v := range []struct {
		name string
		got  *Jobs
		want *Jobs
	}{{"Subset", j.Subset([]int{4, 2}), whole.Subset([]int{4, 2})}, {"Rows", j.Rows(2, 5).Subset([]int{0, 1, 2}), whole.Rows(2, 5)}} {
		var a, b bytes.Buffer
		if err := Write(&a, v.got, FormatCSV); err != nil {
			t.Fatal(err)
		}
		if err := Write(&b, v.want, FormatCSV); err != nil {
			t.Fatal(err)
		}
		if a.String() != b.String() {
			t.Errorf("%s of kept rows:\n%s\nwant\n%s", v.name, a.String(), b.String())
		}
	}
	// A view straddling the kept rows reads those it holds.
	if v := j.Rows(1, 3); v.ID.At(1) != "c" || v.ID.Len() != 2 || v.Len() != 2 {
		t.Errorf("Rows(1, 3) of kept rows [2, 5): id %q, %d ids, %d rows; want \"c\", 2, 2", v.ID.At(1), v.ID.Len(), v.Len())
	} else if b, ok := v.InputBytes.At(1); b != 30 || !ok {
		t.Errorf("Rows(1, 3): bytes of its row 1 %d %v, want 30", b, ok)
	}
	for _, c := range []struct {
		what string
		f    func()
	}{
		{"id of row 1", func() { j.ID.At(1) }},
		{"bytes of row 5", func() { j.InputBytes.At(5) }},
		{"size of row 0", func() { j.Size.At(0) }},
		{"Subset of row 0", func() { j.Subset([]int{0}) }},
		{"bytes of row 0 of Rows(1, 3)", func() { j.Rows(1, 3).InputBytes.At(0) }},
		{"id of row 0 of Rows(1, 3)", func() { j.Rows(1, 3).ID.At(0) }},
		{"size of Rows(0, 2)", func() { j.Rows(0, 2).Size.At(1) }},
		{"an appended id", func() { j.ID.Append("g") }},
	} {
		func() {
			defer func() {
				r := recover()
				if _, dropped := r.(*DroppedRowError); r == nil || !dropped && c.what != "an appended id" {
					t.Errorf("%s: recovered %v, want a *DroppedRowError", c.what, r)
				}
			}()
			c.f()
		}()
	}
	if err := Write(&bytes.Buffer{}, j, FormatParquet); err == nil || !strings.Contains(err.Error(), "KeepRows") {
		t.Errorf("writing a kept table: %v", err)
	}
	if !j.Kept(ColInputBytes) || !j.Kept(ColShuffleBytes, ColJobID) || j.Kept(ColShuffleBytes, ColPriority) || j.Kept(ColUser) {
		t.Error("Kept of named columns: wrong")
	}
	if err := j.KeepRows(2, 5, ColJobID, ColInputBytes); err != nil {
		t.Errorf("keeping the same rows again: %v", err)
	}
	for _, c := range []struct {
		lo, hi int
		cols   []string
	}{{1, 5, []string{ColInputBytes}}, {2, 6, []string{ColJobID}}, {0, 7, nil}, {2, 5, []string{ColUser}}} {
		if err := j.KeepRows(c.lo, c.hi, c.cols...); err == nil {
			t.Errorf("KeepRows(%d, %d, %v): no error", c.lo, c.hi, c.cols)
		}
	}
	// An absent column has nothing to drop.
	if err := whole.KeepRows(0, 6, ColShuffleBytes); err != nil || whole.ShuffleBytes.Present() || whole.Kept() {
		t.Errorf("keeping an absent column: %v, present %v, kept %v", err, whole.ShuffleBytes.Present(), whole.Kept())
	}
}

// TestStringsHeld: Held tells the ids KeepRows kept from those it dropped,
// on the table and on a view of its rows.
func TestStringsHeld(t *testing.T) {
	j := &Jobs{Source: "t", Submit: []float64{0, 1, 2, 3, 4}}
	for _, id := range []string{"a", "b", "c", "d", "e"} {
		j.ID.Append(id)
	}
	for i := range 5 {
		if !j.ID.Held(i) {
			t.Fatalf("row %d not held before KeepRows", i)
		}
	}
	if err := j.KeepRows(2, 4, ColJobID); err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{false, false, true, true, false} {
		if got := j.ID.Held(i); got != want {
			t.Errorf("row %d: Held = %v, want %v", i, got, want)
		}
	}
	v := j.Rows(1, 5) // rows 1..4: kept 2 and 3 are its 1 and 2
	for i, want := range []bool{false, true, true, false} {
		if got := v.ID.Held(i); got != want {
			t.Errorf("view row %d: Held = %v, want %v", i, got, want)
		}
		if want && v.ID.At(i) != string(rune('a'+i+1)) {
			t.Errorf("view row %d: id %q", i, v.ID.At(i))
		}
	}
}
