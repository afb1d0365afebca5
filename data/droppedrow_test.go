package data

import (
	"errors"
	"strings"
	"testing"
)

// TestCatchDroppedRow checks that a read of a dropped row, under
// CatchDroppedRow, is an error naming the row and the column, and that any
// other panic goes on.
func TestCatchDroppedRow(t *testing.T) {
	j := &Jobs{Source: "t", Submit: []float64{0, 1, 2, 3}}
	j.InputBytes = Column[int64]{Values: []int64{10, 11, 12, 13}}
	if err := j.KeepRows(2, 4, ColInputBytes); err != nil {
		t.Fatal(err)
	}
	read := func(i int) (err error) {
		defer CatchDroppedRow(&err)
		j.InputBytes.At(i)
		return nil
	}
	if err := read(3); err != nil {
		t.Fatalf("a kept row: %v", err)
	}
	err := read(1)
	var d *DroppedRowError
	if !errors.As(err, &d) || d.Row != 1 || d.Column != ColInputBytes || d.Lo != 0 || d.Hi != 2 {
		t.Fatalf("a dropped row: %v, want a DroppedRowError of row 1 of %s in its dropped rows [0, 2)", err, ColInputBytes)
	}
	if !strings.Contains(err.Error(), "row 1 of column input_bytes") {
		t.Errorf("message %q does not name the row and column", err)
	}
	defer func() {
		if r := recover(); r != "other" {
			t.Errorf("another panic: recovered %v, want it to go on", r)
		}
	}()
	func() (err error) {
		defer CatchDroppedRow(&err)
		panic("other")
	}()
}
