package pipeline

import (
	"context"
	"errors"
	"testing"

	"github.com/schedplan/schedplan/data"
)

// TestInterruptibleDroppedRow checks that a stage body that reads a row a
// column's release dropped fails the stage with that error (the body runs
// in a goroutine of its own, whose panic no caller could recover).
func TestInterruptibleDroppedRow(t *testing.T) {
	_, err := interruptible(context.Background(), func() (int, error) {
		panic(&data.DroppedRowError{Column: data.ColJobID, Row: 0, Lo: 10, Hi: 20})
	})
	var d *data.DroppedRowError
	if !errors.As(err, &d) || d.Column != data.ColJobID {
		t.Fatalf("interruptible = %v, want the DroppedRowError of the job ids", err)
	}
}
