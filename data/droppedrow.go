package data

import "fmt"

// DroppedRowError is the panic value of a read of a row whose values
// Jobs.KeepRows dropped: a reader past its column's owner's release, which
// must never be given a wrong value. The goroutines that run a pipeline's
// stages and simulations recover it (CatchDroppedRow) and fail the stage
// with it, so that a reader the release missed costs an error naming the
// row and column, not a crash.
type DroppedRowError struct {
	Column string // the column's canonical name (ColJobID for the job ids)
	Row    int    // the row read
	Lo, Hi int    // the stretch of dropped rows [Lo, Hi) that Row lies in
}

func (e *DroppedRowError) Error() string {
	return fmt.Sprintf("data: row %d of column %s was dropped (Jobs.KeepRows dropped its rows [%d, %d)): a stage read the log past its release", e.Row, e.Column, e.Lo, e.Hi)
}

// CatchDroppedRow, deferred by a function that returns an error through
// err, turns a DroppedRowError panic into that error; any other panic goes
// on (re-raised while the panicking frames are still on the stack, so its
// trace still shows where it began).
func CatchDroppedRow(err *error) {
	if r := recover(); r != nil {
		if e, ok := r.(*DroppedRowError); ok {
			*err = e
			return
		}
		panic(r)
	}
}
