package inputs

import (
	"errors"

	"github.com/schedplan/schedplan/data"
)

// The log's columns are owned by the run's stages until the last one that
// reads each row. The stages up to tune-deploy read every row of the byte
// columns (classify's features; the COSHH grid and fit; the execution-time
// model of tune-hpfsp's and tune-deploy's task-level windows, which
// classify.JobDemand reads the bytes for); validate and report read the
// validation window's alone (the task-level and COSHH rows, their
// features). The job ids are read, with a tasks table, by every task-level
// window (a job's tasks are found by its id); else by validate alone
// (results.parquet names the validation window's jobs): classify's errors
// name a released row's job by its user and submit time. So:
//
//   - ReleaseTuningIDs, as classify starts (or, its stamp fresh, once it
//     is skipped) and when the run has no tasks table, keeps the
//     validation window's job ids alone;
//   - ReleaseTuningRows, when validate starts, keeps the validation
//     window's rows of the job ids and the three byte columns
//     (ValidationColumns), and of the byte columns the history rows
//     before it that COSHH's re-classifications on the validation window
//     refit on (validation.COSHHRefitRows: their paper features read the
//     bytes).
//
// At 10 M jobs with a 0.7 split, the tuning window's ids are 85 MB and its
// bytes 160 MB. A dropped row panics when read (data.Jobs.KeepRows) with a
// data.DroppedRowError, which the goroutines of a run's stages and pools
// return as the stage's error (data.CatchDroppedRow), and
// CheckTuningRows refuses a stage that would read one (a second Run on the
// same Inputs). Submit times, users, queues, priorities, task counts and
// sizes stay whole: every simulation window is built from them
// (experiment.JobRange), the report states the tuning window's load from
// the submit times, and the bundle's routing reads the tuning window's
// users and queues.

// ValidationColumns are the columns of the log whose validation window's
// rows alone are read once validate starts (and, of the byte columns, the
// history rows of ReleaseTuningRows).
var ValidationColumns = append([]string{data.ColJobID}, byteColumns...)

// byteColumns are the log's byte columns.
var byteColumns = []string{data.ColInputBytes, data.ColShuffleBytes, data.ColOutputBytes}

// ErrTuningRowsReleased is the error of a stage that would read the tuning
// window's rows of a column released before it (a second Run on the same
// Inputs, whose early stages must run again).
var ErrTuningRowsReleased = errors.New("the tuning window's job ids or bytes were released by an earlier run on these inputs (ReleaseTuningIDs, ReleaseTuningRows): prepare the inputs again")

// ReleaseTuningIDs keeps only the validation window's job ids when the run
// has no tasks table (with one, every task-level window finds its jobs'
// tasks by id); a no-op with one, or when already released.
func (in *Inputs) ReleaseTuningIDs() error {
	if in.Tasks != nil {
		return nil
	}
	return in.Jobs.KeepRows(in.Split.TuneJobs, in.Jobs.Len(), data.ColJobID)
}

// ReleaseTuningRows keeps only the validation window's rows of the job
// ids, and of the byte columns those and the history rows before them
// (the rows a later reader of the validation window reads besides);
// a second call with the same history is a no-op.
func (in *Inputs) ReleaseTuningRows(history int) error {
	lo, n := in.Split.TuneJobs, in.Jobs.Len()
	if err := in.Jobs.KeepRows(lo, n, data.ColJobID); err != nil {
		return err
	}
	return in.Jobs.KeepRows(max(0, lo-history), n, byteColumns...)
}

// CheckTuningRows refuses (ErrTuningRowsReleased) to let stage compute
// when it reads rows released already: classify once the job ids were,
// every stage but validate and report once the bytes were.
func (in *Inputs) CheckTuningRows(stage string) error {
	j := in.Jobs
	switch {
	case j.Kept(byteColumns...) && stage != "validate" && stage != "report", j.Kept(data.ColJobID) && stage == "classify":
		return ErrTuningRowsReleased
	}
	return nil
}
