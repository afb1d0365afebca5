package classify

import (
	"fmt"
	"strconv"

	"github.com/schedplan/schedplan/data"
)

// rowName names row i of j in an error: "row 12 (job job_7)" (1-based).
// When the row's job id was released (data.Jobs.KeepRows: a run keeps the
// validation window's ids alone once classify starts) it names the job by
// what is still held of it, its user and submit time —
// `row 12 (user "u3", submit time 45.5 s)` —: the row number alone does
// not find the job in the log, whose rows ingest sorts by submit time and
// filters (failed jobs, duplicates).
func rowName(j *data.Jobs, i int) string {
	if j.ID.Held(i) {
		return fmt.Sprintf("row %d (job %s)", i+1, j.ID.At(i))
	}
	return fmt.Sprintf("row %d (user %q, submit time %s s)", i+1, j.UserAt(i), strconv.FormatFloat(j.Submit[i], 'g', -1, 64))
}
