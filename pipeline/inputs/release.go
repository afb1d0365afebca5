package inputs

import (
	"errors"

	"github.com/schedplan/schedplan/data"
)

// The log's columns are owned by the run's stages until the last one that
// reads each. The stages up to tune-deploy read every row (classify's
// features and classes.parquet's job ids, the COSHH grid and fit, the
// task-level chunks of tune-deploy, which synthesise tasks from the bytes
// and name them by job id with --tasks); validate and report read the
// validation window alone (results.parquet's job ids, the task-level and
// COSHH rows' bytes and execution-time model). ReleaseTuningRows therefore
// drops, when validate starts, the tuning window's rows of the columns in
// ValidationColumns — at 10 M jobs with a 0.7 split, 0.24 GB of the 0.35 GB
// the job ids and the three byte columns hold. Submit times, the users,
// queues, priorities and task counts stay whole: every simulation window
// is built from them (experiment.JobRange), the report states the tuning
// window's load from the submit times, and the bundle's routing reads the
// users and queues of the tuning window.

// ValidationColumns are the columns of the log that only the validation
// window's rows of are read once validate starts.
var ValidationColumns = []string{data.ColJobID, data.ColInputBytes, data.ColShuffleBytes, data.ColOutputBytes}

// ErrTuningRowsReleased is the error of a stage that reads the tuning
// window's rows of ValidationColumns after ReleaseTuningRows dropped them
// (a second Run on the same Inputs, whose early stages must run again).
var ErrTuningRowsReleased = errors.New("the tuning window's job ids and bytes were released by an earlier run on these inputs (ReleaseTuningRows): prepare the inputs again")

// ReleaseTuningRows keeps only the validation window's rows of
// ValidationColumns (data.Jobs.KeepRows): a read of a dropped row panics,
// and Run refuses to compute a stage before validate on such Inputs
// (ErrTuningRowsReleased). A second call is a no-op.
func (in *Inputs) ReleaseTuningRows() error {
	return in.Jobs.KeepRows(in.Split.TuneJobs, in.Jobs.Len(), ValidationColumns...)
}

// TuningRowsReleased reports whether ReleaseTuningRows dropped rows.
func (in *Inputs) TuningRowsReleased() bool { return in.Jobs.Kept() }
