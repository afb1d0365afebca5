package classify

import (
	"errors"
	"fmt"

	"github.com/schedplan/schedplan/data"
)

// rowName names row i of j in an error: "row 12 (job job_7)" (1-based),
// or "row 12" when the row's job id was released (data.Jobs.KeepRows: a
// run keeps the validation window's ids alone once classify starts).
func rowName(j *data.Jobs, i int) (name string) {
	name = fmt.Sprintf("row %d", i+1)
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); !ok || !errors.As(e, new(*data.DroppedRowError)) {
				panic(r)
			}
		}
	}()
	return fmt.Sprintf("row %d (job %s)", i+1, j.ID.At(i))
}
