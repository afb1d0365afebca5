package inputs

import (
	"errors"
	"fmt"
	"slices"

	"github.com/schedplan/schedplan/data"
)

// The log's columns are owned by the run's stages until the last one that
// reads each row. The byte columns are read at every row by classify
// (COSHH's features), capacity (the execution-time model of the load
// decomposition and its replays, classify.JobDemand) and the two stages
// computed beside tune (beside.go): tune-coshh (the COSHH grid's fits and
// task-level runs) and tune-hpfsp (its task-level window). Tune and
// bounds read none. tune-deploy reads the rows of its chunks alone
// (tunedeploy.DeployChunksOf of the tuning window, each cut to a suffix by
// its task budget, and its verdict's chunks of the validation window: the
// task-level jobs' execution-time model, classify.JobDemand); validate
// and report the validation window's (the task-level and COSHH rows, their
// features) and the history rows before it that COSHH's
// re-classifications on the validation window refit on
// (validation.COSHHRefitRows: their paper features read the bytes). The
// job ids are read, with a tasks table, by every task-level window (a
// job's tasks are found by its id); else by validate alone
// (results.parquet names the validation window's jobs): classify's errors
// name a released row's job by its user and submit time. So:
//
//   - ReleaseTuningIDs, as classify starts (or, its stamp fresh, once it
//     is skipped) and when the run has no tasks table, keeps the
//     validation window's job ids alone;
//   - ReleaseTuningBytes, as soon as tune-coshh and tune-hpfsp are both
//     done or skipped (in the goroutine that computes them beside tune,
//     before tune's post-search comparison and tune-deploy, where the
//     run's peak was), keeps of the byte
//     columns tune-deploy's chunks of the tuning window (given by the
//     pipeline, which knows tunedeploy) and the validation window with
//     the history rows before it;
//   - ReleaseTuningRows, when validate starts, keeps the validation
//     window's rows of the job ids and, narrowing the bytes kept, the
//     rows of the validation window whose bytes validate and report read
//     (the task-level views' and COSHH's jobs, the first 300,000 at most:
//     validation.BytesReadTo) and the history rows before them.
//
// At 10 M jobs with a 0.7 split, the tuning window's ids are 85 MB and its
// bytes 168 MB (7 M rows × 24 B), of which ReleaseTuningBytes keeps
// 32,000 rows, 0.8 MB (tune-deploy's four chunks of 4,000, the last one
// inside the history's 20,000). Measured there (session 9, two pairs,
// --memory-limit none, 2 cores; the release 8.5 s into tune's 25 s): the
// largest live heap of tune's post-search comparison went from 916 and
// 923 to 773 and 692 MB, of tune-deploy from 535 and 560 to 413 MB, and
// the peak RSS from 2.54 and 2.33 to 2.18 and 2.17 GB, now in validate.
// A dropped row panics when read
// (data.Jobs.KeepRanges) with a data.DroppedRowError, which the goroutines
// of a run's stages and pools return as the stage's error
// (data.CatchDroppedRow), and CheckTuningRows refuses a stage that would
// read one (a second Run on the same Inputs). Submit times, users,
// queues, priorities, task counts and sizes stay whole: every simulation
// window is built from them (experiment.JobRange), the report states the
// tuning window's load from the submit times, and the bundle's routing
// reads the tuning window's users and queues.

// ValidationColumns are the columns of the log whose validation window's
// rows alone are read once validate starts (and, of the byte columns, the
// history rows of ReleaseTuningRows).
var ValidationColumns = append([]string{data.ColJobID}, byteColumns...)

// byteColumns are the log's byte columns.
var byteColumns = []string{data.ColInputBytes, data.ColShuffleBytes, data.ColOutputBytes}

// ErrTuningRowsReleased is the error of a stage that would read the tuning
// window's rows of a column released before it (a second Run on the same
// Inputs, whose early stages must run again).
var ErrTuningRowsReleased = errors.New("the tuning window's job ids or bytes were released by an earlier run on these inputs (ReleaseTuningIDs, ReleaseTuningBytes, ReleaseTuningRows): prepare the inputs again")

// ReleaseTuningIDs keeps only the validation window's job ids when the run
// has no tasks table (with one, every task-level window finds its jobs'
// tasks by id); a no-op with one, or when already released.
func (in *Inputs) ReleaseTuningIDs() error {
	if in.Tasks != nil {
		return nil
	}
	return in.Jobs.KeepRows(in.Split.TuneJobs, in.Jobs.Len(), data.ColJobID)
}

// ReleaseTuningBytes keeps only, of the byte columns, the rows deploy
// (tune-deploy's chunks of the tuning window) and the validation window
// with the history rows before it (ReleaseTuningRows's). A no-op when
// called again, or when the bytes were released to fewer rows already
// (CheckTuningRows then refuses tune-deploy).
func (in *Inputs) ReleaseTuningBytes(deploy []data.RowRange, history int) error {
	if in.Jobs == nil { // no log (a test's stages)
		return nil
	}
	keep := append(slices.Clone(deploy), in.validationRows(history))
	if !in.colsHold(keep, byteColumns...) {
		return nil
	}
	if err := in.Jobs.KeepRanges(keep, byteColumns...); err != nil {
		return err
	}
	in.deployRows = slices.Clone(deploy)
	return nil
}

// ReleaseTuningRows keeps only the validation window's rows of the job
// ids, and of the byte columns its rows before row to (the rows validate
// and report read the bytes of: validation.BytesReadTo) and the history
// rows before them (the rows a later reader of the validation window
// reads besides); a second call with the same history and to is a no-op,
// and so is one asking for bytes an earlier call dropped (a validate
// shard, which reads none, on Inputs a whole run's validate narrowed): a
// reader of one still fails with a data.DroppedRowError.
func (in *Inputs) ReleaseTuningRows(history, to int) error {
	if err := in.Jobs.KeepRows(in.Split.TuneJobs, in.Jobs.Len(), data.ColJobID); err != nil {
		return err
	}
	r := in.validationRows(history)
	r.Hi = max(r.Lo, min(r.Hi, to))
	if !in.colsHold([]data.RowRange{r}, byteColumns...) {
		return nil
	}
	return in.Jobs.KeepRanges([]data.RowRange{r}, byteColumns...)
}

// validationRows are the validation window and the history rows before
// it.
func (in *Inputs) validationRows(history int) data.RowRange {
	return data.RowRange{Lo: max(0, in.Split.TuneJobs-history), Hi: in.Jobs.Len()}
}

// CheckTuningRows refuses (ErrTuningRowsReleased) to let stage compute
// when it reads rows released already: classify once the job ids or the
// bytes were; capacity, tune-coshh and tune-hpfsp once the bytes were;
// tune-deploy once its chunks' bytes were, or with a tasks table their
// job ids (ReleaseTuningRows). It reads
// nothing for the other stages, which read no released row: tune runs
// beside the goroutine that calls ReleaseTuningBytes.
func (in *Inputs) CheckTuningRows(stage string) error {
	j := in.Jobs
	if j == nil { // no log (a test's stages)
		return nil
	}
	var refuse bool
	switch stage {
	case "classify":
		refuse = j.Kept(data.ColJobID) || j.Kept(byteColumns...)
	case "capacity", "tune-coshh", "tune-hpfsp":
		refuse = j.Kept(byteColumns...)
	case "tune-deploy":
		// Its chunks' bytes, and with a tasks table their job ids (a
		// job's tasks are found by id), which ReleaseTuningRows drops.
		rows := append(slices.Clone(in.deployRows), data.RowRange{Lo: in.Split.TuneJobs, Hi: j.Len()})
		refuse = j.Kept(byteColumns...) && (in.deployRows == nil || !in.colsHold(rows, byteColumns...)) ||
			in.Tasks != nil && j.Kept(data.ColJobID) && (in.deployRows == nil || !in.colsHold(rows, data.ColJobID))
	}
	if refuse {
		return fmt.Errorf("stage %s: %w", stage, ErrTuningRowsReleased)
	}
	return nil
}

// colsHold reports whether the named columns hold every row of rs.
func (in *Inputs) colsHold(rs []data.RowRange, names ...string) bool {
	for _, r := range rs {
		if !in.Jobs.Holds(r.Lo, r.Hi, names...) {
			return false
		}
	}
	return true
}
