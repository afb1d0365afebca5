package data

import (
	"errors"
	"testing"
)

// TestKeptRowOutOfRange: a read of a row outside the table (a reader's
// off-by-one) of a kept column is not a DroppedRowError (which would tell
// the stage that a release dropped the row, and which CatchDroppedRow
// turns into the stage's error): it panics as a read past a whole
// column's end does. The old code blamed a release for rows −1 and n.
func TestKeptRowOutOfRange(t *testing.T) {
	j := rangesTable()
	if err := j.KeepRanges([]RowRange{{0, 2}, {5, 7}}, ColJobID, ColInputBytes, ColSize); err != nil {
		t.Fatal(err)
	}
	v := j.Rows(1, 6)
	for _, tc := range []struct {
		name string
		read func()
	}{
		{"ids, row -1", func() { j.ID.At(-1) }},
		{"ids, row 10", func() { j.ID.At(10) }},
		{"bytes, row -1", func() { j.InputBytes.At(-1) }},
		{"bytes, row 10", func() { j.InputBytes.At(10) }},
		{"sizes, row 10", func() { j.Size.At(10) }},
		{"subset of row 10", func() { j.Subset([]int{0, 10}) }},
		{"view's bytes, row 5", func() { v.InputBytes.At(5) }},
		{"view's ids, row 5", func() { v.ID.At(5) }},
	} {
		func() {
			defer func() {
				r := recover()
				var d *DroppedRowError
				if e, ok := r.(error); r == nil || ok && errors.As(e, &d) {
					t.Errorf("%s: panic %v, want one that is not a DroppedRowError", tc.name, r)
				}
			}()
			tc.read()
		}()
	}
}
