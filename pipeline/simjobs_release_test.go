package pipeline

import (
	"bytes"
	"context"
	"errors"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
	"github.com/schedplan/schedplan/pipeline/tuner"
	"github.com/schedplan/schedplan/pipeline/validation"
)

// TestReleaseSimJobsWindows checks that once the simulation jobs are
// dropped but for a window, every window (kept, rebuilt or straddling
// the kept one) and the tuning window's load are the bits of the whole
// jobs', and HoldSimJobs gives the whole jobs back.
func TestReleaseSimJobsWindows(t *testing.T) {
	in, err := Prepare(testConfig())
	if err != nil {
		t.Fatal(err)
	}
	if err := in.HoldSimJobs(); err != nil { // Prepare builds none
		t.Fatal(err)
	}
	full := slices.Clone(in.SimJobs)
	n, tj := len(full), in.Split.TuneJobs
	load := experiment.OfferedLoad(full[:tj], in.Capacity)
	in.ReleaseSimJobs(tj, n)
	if in.SimJobs != nil || in.NumSimJobs() != n {
		t.Fatalf("after ReleaseSimJobs: SimJobs %d jobs, NumSimJobs %d, want nil and %d", len(in.SimJobs), in.NumSimJobs(), n)
	}
	for _, w := range [][2]int{{tj, n}, {tj + 3, n - 2}, {0, 50}, {tj - 5, tj + 5}, {0, n}, {n, n}} {
		got, err := in.Window(w[0], w[1])
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, full[w[0]:w[1]]) {
			t.Errorf("Window(%d, %d) differs from the whole jobs'", w[0], w[1])
		}
	}
	if _, err := in.Window(0, n+1); err == nil {
		t.Error("Window past the last job: no error")
	}
	if got := in.WindowLoad(0, tj); math.Float64bits(got) != math.Float64bits(load) {
		t.Errorf("WindowLoad of the tuning window %v, want %v", got, load)
	}
	if err := in.HoldSimJobs(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(in.SimJobs, full) {
		t.Error("HoldSimJobs did not rebuild the whole jobs")
	}
	// A SimJobs the caller set is not BuildSimJobs's: never dropped.
	own := slices.Clone(full)
	in.SimJobs = own
	in.ReleaseSimJobs(tj, n)
	if len(in.SimJobs) != n || &in.SimJobs[0] != &own[0] {
		t.Error("ReleaseSimJobs dropped a SimJobs the caller set")
	}
}

// TestValidateDropsSimJobs checks that the validate stage leaves only the
// validation window's simulation jobs live (the old code kept every job
// of the log through validate and report) and only its rows of the job
// ids and the byte columns (inputs.ValidationColumns; the old code kept
// the whole log's), that the simulation jobs are rebuilt bit for bit, and
// that a second Run on the same Inputs, whose early stages would read the
// dropped rows, fails loudly while a Run on Inputs prepared again writes
// the same files.
func TestValidateDropsSimJobs(t *testing.T) {
	in, err := Prepare(testConfig())
	if err != nil {
		t.Fatal(err)
	}
	if err := in.HoldSimJobs(); err != nil { // Prepare builds none
		t.Fatal(err)
	}
	full := slices.Clone(in.SimJobs)
	whole := in.Jobs.Subset(tasklevel.WindowRows(0, in.Jobs.Len()))
	dirs := []string{filepath.Join(t.TempDir(), "a"), filepath.Join(t.TempDir(), "b")}
	var outs []map[string][]byte
	for k, dir := range dirs {
		if k > 0 {
			if _, err := Run(context.Background(), in, &Runner{Dir: dir}); !errors.Is(err, inputs.ErrTuningRowsReleased) {
				t.Fatalf("a second Run on released Inputs: %v, want ErrTuningRowsReleased", err)
			}
			if in, err = Prepare(testConfig()); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := Run(context.Background(), in, &Runner{Dir: dir}); err != nil {
			t.Fatal(err)
		}
		if in.SimJobs != nil {
			t.Fatalf("after Run, SimJobs holds %d jobs: validate kept the whole log's", len(in.SimJobs))
		}
		checkReleasedColumns(t, in, whole)
		outs = append(outs, snapshot(t, dir))
	}
	for name, b := range outs[0] {
		if name != "summary.json" && name != "report.html" && !bytes.Equal(b, outs[1][name]) {
			t.Errorf("%s differs between two Runs", name)
		}
	}
	if err := in.HoldSimJobs(); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(in.SimJobs, full) {
		t.Error("the rebuilt jobs differ from Prepare's")
	}
}

// checkReleasedColumns checks that after a Run the job ids hold the
// validation window's rows alone and the byte columns those and the
// COSHHRefitRows before them (their Values nil, a dropped row's value a
// panic), those rows as whole has them.
func checkReleasedColumns(t *testing.T, in *inputs.Inputs, whole *data.Jobs) {
	t.Helper()
	j, lo := in.Jobs, in.Split.TuneJobs
	from := max(0, lo-validation.COSHHRefitRows) // the bytes' first kept row
	to, err := validation.BytesReadTo(in)        // and the end of those kept
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		col  *data.Column[int64]
		want *data.Column[int64]
	}{{data.ColInputBytes, &j.InputBytes, &whole.InputBytes}, {data.ColShuffleBytes, &j.ShuffleBytes, &whole.ShuffleBytes}, {data.ColOutputBytes, &j.OutputBytes, &whole.OutputBytes}} {
		if c.col.Values != nil || !c.col.Present() {
			t.Errorf("%s: %d values held after Run (present %v), want the tuning rows dropped", c.name, len(c.col.Values), c.col.Present())
		}
		for i := from; i < min(to, j.Len()); i++ {
			if v, ok := c.col.At(i); v != c.want.Values[i] || !ok {
				t.Fatalf("%s row %d: %d, want %d", c.name, i, v, c.want.Values[i])
			}
		}
		if from > 0 {
			mustPanic(t, c.name+" of a tuning row", func() { c.col.At(from - 1) })
		}
	}
	for i := lo; i < j.Len(); i++ {
		if j.ID.At(i) != whole.ID.At(i) {
			t.Fatalf("job id of row %d: %q, want %q", i, j.ID.At(i), whole.ID.At(i))
		}
	}
	if j.ID.Offsets != nil || j.ID.Len() != j.Len() {
		t.Errorf("job ids after Run: %d offsets held, Len %d; want none held and %d", len(j.ID.Offsets), j.ID.Len(), j.Len())
	}
	mustPanic(t, "the job id of a tuning row", func() { j.ID.At(0) })
}

// mustPanic checks that f panics.
func mustPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if recover() == nil {
			t.Errorf("%s: no panic", what)
		}
	}()
	f()
}

// TestTuneHoldsNoWholeSimJobs runs up to bounds (tune and the stages
// beside it) and checks that the whole log's simulation jobs were never
// rebuilt (the old code rebuilt them when tune started, 64 B a job: 0.61
// GB at 10 M jobs), and that tuning through the log's columns
// (tuneSource) gives the report of the whole jobs held.
func TestTuneHoldsNoWholeSimJobs(t *testing.T) {
	cfg := testConfig()
	in, err := Prepare(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cons, err := tuner.ParseConstraints(cfg.Constraints)
	if err != nil {
		t.Fatal(err)
	}
	opt := tuner.TuneOptions{Budget: cfg.Budget, Objective: cfg.Objective, Constraints: cons, Folds: cfg.Folds, Current: cfg.Current, Seed: cfg.Seed}
	if err := in.HoldSimJobs(); err != nil { // Prepare builds none
		t.Fatal(err)
	}
	want, err := tuner.TuneLASMQWindows(context.Background(), in.SimJobs, in.Capacity, in.Split, opt)
	if err != nil {
		t.Fatal(err)
	}
	in.Config.Stages.Until = "bounds"
	if _, err := Run(context.Background(), in, &Runner{Dir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	if in.SimJobs != nil {
		t.Fatalf("after tune and bounds, SimJobs holds %d jobs: the whole log's were rebuilt", len(in.SimJobs))
	}
	val, err := in.WindowSource(in.Split.TuneJobs, in.NumSimJobs())
	if err != nil {
		t.Fatal(err)
	}
	got, err := tuner.TuneLASMQSource(context.Background(), tuneSource(in), val, in.Capacity, in.Split, opt)
	if err != nil {
		t.Fatal(err)
	}
	if in.SimJobs != nil {
		t.Fatal("tuning through the columns rebuilt SimJobs")
	}
	if !reflect.DeepEqual(got, want) {
		t.Error("the tuning through the columns differs from the whole jobs'")
	}
}

// TestClassifyReleasesTuningIDs checks that once classify is done a run
// without a tasks table keeps only the validation window's job ids (no
// later stage but validate reads one: the old code kept the whole log's
// through every stage) and the byte columns whole until validate, and that
// a Run on the same Inputs whose classify must run again fails loudly.
func TestClassifyReleasesTuningIDs(t *testing.T) {
	cfg := testConfig()
	cfg.Stages.Until = "tune"
	in, err := Prepare(cfg)
	if err != nil {
		t.Fatal(err)
	}
	whole := in.Jobs.Subset(tasklevel.WindowRows(0, in.Jobs.Len()))
	if _, err := Run(context.Background(), in, &Runner{Dir: t.TempDir()}); err != nil {
		t.Fatal(err)
	}
	j, lo := in.Jobs, in.Split.TuneJobs
	if j.ID.Offsets != nil || j.InputBytes.Values == nil || j.OutputBytes.Values == nil {
		t.Fatalf("after classify and tune: %d job ids held, byte columns held %v %v; want the ids dropped, the bytes whole", len(j.ID.Offsets), j.InputBytes.Values != nil, j.OutputBytes.Values != nil)
	}
	for i := lo; i < j.Len(); i++ {
		if j.ID.At(i) != whole.ID.At(i) {
			t.Fatalf("job id of row %d: %q, want %q", i, j.ID.At(i), whole.ID.At(i))
		}
	}
	mustPanic(t, "the job id of row 0", func() { j.ID.At(0) })
	if _, err := Run(context.Background(), in, &Runner{Dir: t.TempDir()}); !errors.Is(err, inputs.ErrTuningRowsReleased) {
		t.Errorf("classify again on released job ids: %v, want ErrTuningRowsReleased", err)
	}
}
