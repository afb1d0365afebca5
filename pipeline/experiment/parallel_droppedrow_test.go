package experiment

import (
	"context"
	"errors"
	"testing"

	"github.com/schedplan/schedplan/data"
)

// TestParallelForDroppedRow checks that a simulation that reads a row a
// column's release dropped fails its pool with that error instead of
// crashing the process from a worker goroutine, where no caller could
// recover it.
func TestParallelForDroppedRow(t *testing.T) {
	err := ParallelFor(context.Background(), 8, 2, func(w, i int) error {
		if i == 5 {
			panic(&data.DroppedRowError{Column: data.ColInputBytes, Row: 3, Lo: 4, Hi: 8})
		}
		return nil
	})
	var d *data.DroppedRowError
	if !errors.As(err, &d) || d.Row != 3 {
		t.Fatalf("ParallelFor = %v, want the DroppedRowError of row 3", err)
	}
}
