package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
	"github.com/schedplan/schedplan/pipeline/validation"
)

// releaseLog writes a 40,000-job synthetic log (synthJobs: bytes, no task
// counts) and prepares it: its tuning window (28,000 jobs) is longer than
// COSHHRefitRows and tune-deploy's chunks together, so that the release
// beside tune drops rows of it.
func releaseLog(t *testing.T) *inputs.Inputs {
	t.Helper()
	return releaseLogOf(t, 40_000)
}

// releaseLogOf is releaseLog of n jobs.
func releaseLogOf(t *testing.T, n int) *inputs.Inputs {
	t.Helper()
	in, err := Prepare(releaseConfigOf(t, n))
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// releaseConfigOf writes releaseLogOf's log of n jobs and returns the
// run's configuration, not prepared.
func releaseConfigOf(t *testing.T, n int) inputs.RunConfig {
	t.Helper()
	path := filepath.Join(t.TempDir(), "synth.parquet")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := data.Write(f, synthJobs(n, 7), data.FormatParquet); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig()
	cfg.Trace, cfg.Budget, cfg.Runs = path, 40, 1
	return cfg
}

// byteCols are the log's byte columns.
var byteCols = []string{data.ColInputBytes, data.ColShuffleBytes, data.ColOutputBytes}

// TestBesideReleasesTuningBytes: once tune-coshh and tune-hpfsp are done
// (--until bounds: tune and the stages beside it), the byte columns hold
// tune-deploy's chunks and the validation window with COSHH's refit
// history alone, the other rows of the tuning window dropped (the old
// code kept them whole until validate); the rest of the run then reads
// none of the dropped rows (a second Run on the same Inputs computes
// tune-deploy, emit, validate and report: a read of one would fail it
// with a DroppedRowError), and validate narrows the bytes to its rows.
func TestBesideReleasesTuningBytes(t *testing.T) {
	in := releaseLog(t)
	whole := in.Jobs.Subset(tasklevel.WindowRows(0, in.Jobs.Len()))
	p := &pipelineRun{in: in}
	deploy := p.deployRows()
	keep := append(deploy, data.RowRange{Lo: max(0, in.Split.TuneJobs-validation.COSHHRefitRows), Hi: in.Jobs.Len()})
	held := make([]bool, in.Jobs.Len())
	for _, r := range keep {
		for i := r.Lo; i < r.Hi; i++ {
			held[i] = true
		}
	}
	dropped := 0
	for _, h := range held {
		if !h {
			dropped++
		}
	}
	if dropped == 0 {
		t.Fatalf("the log's %d tuning jobs keep every row (chunks %v): the test misses its case", in.Split.TuneJobs, deploy)
	}
	dir := filepath.Join(t.TempDir(), "out")
	in.Config.Stages.Until = "bounds"
	if _, err := Run(context.Background(), in, &Runner{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	if !in.Jobs.Kept(byteCols...) {
		t.Fatalf("after tune-coshh and tune-hpfsp the byte columns are whole: %d rows of the tuning window not released", dropped)
	}
	for i, h := range held {
		if in.Jobs.Holds(i, i+1, byteCols...) != h {
			t.Fatalf("row %d: held %v, want %v (kept %v)", i, !h, h, keep)
		}
	}
	for _, c := range []struct {
		name      string
		got, want *data.Column[int64]
	}{{data.ColInputBytes, &in.Jobs.InputBytes, &whole.InputBytes}, {data.ColShuffleBytes, &in.Jobs.ShuffleBytes, &whole.ShuffleBytes}, {data.ColOutputBytes, &in.Jobs.OutputBytes, &whole.OutputBytes}} {
		for i, h := range held {
			if !h {
				mustPanic(t, c.name+" of a released row", func() { c.got.At(i) })
			} else if v, _ := c.got.At(i); v != c.want.Values[i] {
				t.Fatalf("%s row %d: %d, want %d", c.name, i, v, c.want.Values[i])
			}
		}
	}
	in.Config.Stages.Until = ""
	if _, err := Run(context.Background(), in, &Runner{Dir: dir}); err != nil {
		t.Fatalf("the stages after bounds on the released bytes: %v", err)
	}
	checkReleasedColumns(t, in, whole)
}

// TestReleasedBytesRefuseReaders: a stage that reads the tuning window's
// bytes, computed again on Inputs whose bytes were released (its stamp
// removed from a copy of the output directory, a second Run on the same
// Inputs), fails with ErrTuningRowsReleased (CheckTuningRows) and never
// reads a dropped row: capacity, tune-coshh and tune-hpfsp once the bytes
// were released beside tune, tune-deploy once validate narrowed them;
// the stages that read no released row run.
func TestReleasedBytesRefuseReaders(t *testing.T) {
	in := releaseLog(t)
	tmp := t.TempDir()
	beside, whole := filepath.Join(tmp, "beside"), filepath.Join(tmp, "whole")
	in.Config.Stages.Until = "bounds"
	if _, err := Run(context.Background(), in, &Runner{Dir: beside}); err != nil {
		t.Fatal(err)
	}
	for k, tc := range []struct {
		from    string // the directory copied: after bounds, or after the whole run
		stamp   string // removed
		until   string
		refused bool
	}{
		{beside, "capacity", "bounds", true},
		{beside, "tune-coshh", "bounds", true},
		{beside, "tune-hpfsp", "bounds", true},
		{beside, "bounds", "bounds", false},
		{beside, "tune", "bounds", false},
		{beside, "", "", false}, // the rest of the run (into whole): validate narrows the bytes
		{whole, "tune-deploy", "tune-deploy", true},
		{whole, "validate", "", false},
		{whole, "report", "", false},
	} {
		dir := filepath.Join(tmp, fmt.Sprint(k))
		if tc.stamp == "" {
			dir = whole
		}
		if err := os.CopyFS(dir, os.DirFS(tc.from)); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(filepath.Join(dir, StampDir, tc.stamp+".json")); err != nil && tc.stamp != "" {
			t.Fatal(err)
		}
		in.Config.Stages.Until = tc.until
		_, err := Run(context.Background(), in, &Runner{Dir: dir})
		var d *data.DroppedRowError
		switch {
		case errors.As(err, &d):
			t.Errorf("%s again: a dropped row was read: %v", tc.stamp, err)
		case tc.refused && !errors.Is(err, inputs.ErrTuningRowsReleased):
			t.Errorf("%s again on released bytes: %v, want ErrTuningRowsReleased", tc.stamp, err)
		case tc.refused && !strings.Contains(err.Error(), "stage "+tc.stamp+":"):
			t.Errorf("%s again: %v, want the stage named", tc.stamp, err)
		case !tc.refused && err != nil:
			t.Errorf("%s again: %v", tc.stamp, err)
		}
	}
}

// TestValidateNarrowsBytes: validate keeps, of the byte columns, the rows
// of the validation window that the task-level and COSHH views read
// (validation.BytesReadTo: here COSHH's first COSHHValidateMaxJobs, past
// the task-level views' 2,000) and COSHH's refit history before them, not
// the whole window's (the old code: 72 of the 10 M log's live MB in
// validate); the run reads none of the rows dropped (a read would fail it
// with a DroppedRowError).
func TestValidateNarrowsBytes(t *testing.T) {
	defer func(n int) { validation.TaskValidateMaxJobs = n }(validation.TaskValidateMaxJobs)
	validation.TaskValidateMaxJobs = 2000
	in := releaseLogOf(t, 75_000)
	whole := in.Jobs.Subset(tasklevel.WindowRows(0, in.Jobs.Len()))
	to, err := validation.BytesReadTo(in)
	if err != nil {
		t.Fatal(err)
	}
	from, n := max(0, in.Split.TuneJobs-validation.COSHHRefitRows), in.Jobs.Len()
	if to >= n || to != in.Split.TuneJobs+validation.COSHHValidateMaxJobs {
		t.Fatalf("the validation window's bytes are read to row %d of %d (tuning jobs %d): the test misses its case", to, n, in.Split.TuneJobs)
	}
	if _, err := Run(context.Background(), in, &Runner{Dir: filepath.Join(t.TempDir(), "out")}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want *data.Column[int64]
	}{{data.ColInputBytes, &in.Jobs.InputBytes, &whole.InputBytes}, {data.ColShuffleBytes, &in.Jobs.ShuffleBytes, &whole.ShuffleBytes}, {data.ColOutputBytes, &in.Jobs.OutputBytes, &whole.OutputBytes}} {
		for i := from; i < to; i++ {
			if v, ok := c.got.At(i); v != c.want.Values[i] || !ok {
				t.Fatalf("%s row %d: %d, want %d", c.name, i, v, c.want.Values[i])
			}
		}
		mustPanic(t, c.name+" of a row past the views'", func() { c.got.At(to) })
		mustPanic(t, c.name+" of the validation window's last row", func() { c.got.At(n - 1) })
		mustPanic(t, c.name+" of a tuning row before the history", func() { c.got.At(from - 1) })
	}
}
