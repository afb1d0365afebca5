package inputs

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/pipeline/experiment"
)

// releaseInputs are Inputs of a 100-job log with ids and the three byte
// columns, its tuning window the first 70 jobs.
func releaseInputs() *Inputs {
	j := &data.Jobs{Source: "t"}
	for i := range 100 {
		j.ID.Append(fmt.Sprint("j", i))
		j.Submit = append(j.Submit, float64(i))
		j.InputBytes.Values = append(j.InputBytes.Values, int64(1000+i))
		j.ShuffleBytes.Values = append(j.ShuffleBytes.Values, int64(2000+i))
		j.OutputBytes.Values = append(j.OutputBytes.Values, int64(3000+i))
	}
	return &Inputs{Jobs: j, Split: experiment.Split{TuneJobs: 70}}
}

// TestCheckTuningRows: which stages CheckTuningRows lets compute after
// each release, the rows each release keeps, and ReleaseTuningBytes's
// no-ops (again; after validate's narrower ReleaseTuningRows).
func TestCheckTuningRows(t *testing.T) {
	deploy := []data.RowRange{{Lo: 0, Hi: 10}, {Lo: 30, Hi: 40}, {Lo: 60, Hi: 70}} // the last chunk inside the history
	const history = 15
	stages := []string{"ingest", "classify", "capacity", "tune", "tune-coshh", "tune-hpfsp", "bounds", "tune-deploy", "emit", "validate", "report"}
	for _, tc := range []struct {
		name    string
		release func(in *Inputs) error
		held    []data.RowRange // the bytes' rows held after
		refused []string
	}{
		{name: "nothing released", held: []data.RowRange{{Lo: 0, Hi: 100}}},
		{name: "ids", release: func(in *Inputs) error { return in.ReleaseTuningIDs() }, held: []data.RowRange{{Lo: 0, Hi: 100}}, refused: []string{"classify"}},
		{name: "bytes beside tune", release: func(in *Inputs) error { return in.ReleaseTuningBytes(deploy, history) },
			held: []data.RowRange{{Lo: 0, Hi: 10}, {Lo: 30, Hi: 40}, {Lo: 55, Hi: 100}}, refused: []string{"classify", "capacity", "tune-coshh", "tune-hpfsp"}},
		{name: "bytes beside tune, twice", release: func(in *Inputs) error {
			if err := in.ReleaseTuningBytes(deploy, history); err != nil {
				return err
			}
			return in.ReleaseTuningBytes(deploy, history)
		}, held: []data.RowRange{{Lo: 0, Hi: 10}, {Lo: 30, Hi: 40}, {Lo: 55, Hi: 100}}, refused: []string{"classify", "capacity", "tune-coshh", "tune-hpfsp"}},
		{name: "then validate's", release: func(in *Inputs) error {
			if err := in.ReleaseTuningBytes(deploy, history); err != nil {
				return err
			}
			return in.ReleaseTuningRows(history, 100)
		}, held: []data.RowRange{{Lo: 55, Hi: 100}}, refused: []string{"classify", "capacity", "tune-coshh", "tune-hpfsp", "tune-deploy"}},
		{name: "validate's, then beside tune's (a second Run)", release: func(in *Inputs) error {
			if err := in.ReleaseTuningRows(history, 100); err != nil {
				return err
			}
			return in.ReleaseTuningBytes(deploy, history)
		}, held: []data.RowRange{{Lo: 55, Hi: 100}}, refused: []string{"classify", "capacity", "tune-coshh", "tune-hpfsp", "tune-deploy"}},
		{name: "validate's, to the rows it reads", release: func(in *Inputs) error {
			if err := in.ReleaseTuningBytes(deploy, history); err != nil {
				return err
			}
			return in.ReleaseTuningRows(history, 80)
		}, held: []data.RowRange{{Lo: 55, Hi: 80}}, refused: []string{"classify", "capacity", "tune-coshh", "tune-hpfsp", "tune-deploy"}},
		{name: "history longer than the tuning window", release: func(in *Inputs) error { return in.ReleaseTuningBytes(deploy, 200) },
			held: []data.RowRange{{Lo: 0, Hi: 100}}, refused: []string{"classify", "capacity", "tune-coshh", "tune-hpfsp"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := releaseInputs()
			if tc.release != nil {
				if err := tc.release(in); err != nil {
					t.Fatal(err)
				}
			}
			for i := range 100 {
				want := false
				for _, r := range tc.held {
					want = want || i >= r.Lo && i < r.Hi
				}
				if got := in.Jobs.Holds(i, i+1, byteColumns...); got != want {
					t.Fatalf("bytes of row %d held %v, want %v", i, got, want)
				}
				if want {
					if v, _ := in.Jobs.OutputBytes.At(i); v != int64(3000+i) {
						t.Fatalf("output bytes of row %d: %d", i, v)
					}
				}
			}
			for _, s := range stages {
				err := in.CheckTuningRows(s)
				refused := false
				for _, r := range tc.refused {
					refused = refused || r == s
				}
				switch {
				case refused && (!errors.Is(err, ErrTuningRowsReleased) || !strings.Contains(err.Error(), s)):
					t.Errorf("%s: %v, want ErrTuningRowsReleased naming the stage", s, err)
				case !refused && err != nil:
					t.Errorf("%s: %v, want it let compute", s, err)
				}
			}
		})
	}
}

// TestReleaseTuningBytesNoLog: Inputs without a log (a test's stages)
// release and refuse nothing.
func TestReleaseTuningBytesNoLog(t *testing.T) {
	in := &Inputs{}
	if err := in.ReleaseTuningBytes([]data.RowRange{{Lo: 0, Hi: 5}}, 10); err != nil {
		t.Error(err)
	}
	if err := in.CheckTuningRows("classify"); err != nil {
		t.Error(err)
	}
}
