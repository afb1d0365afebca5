package pipeline

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/pipeline/inputs"
)

// TestStampPerJobArraysInSideFile checks that a state's per-job arrays
// are kept out of the JSON stamp, in the side file the stamp hashes: a
// skipped stage gets them back exactly (nil and empty arrays, NaN, the
// extremes), and a side file that is missing or changed makes the stage
// run again.
func TestStampPerJobArraysInSideFile(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	want := classState{
		Primary:   inputs.ClassOut{Result: &classify.Result{Name: "primary", K: 2}, Rows: []int{0, 2, math.MaxInt32 + 7}, Assign: []int32{1, 0, math.MinInt32}},
		Secondary: inputs.ClassOut{Result: &classify.Result{Name: "secondary", K: 1}, Rows: nil, Assign: []int32{}},
	}
	stage := func() (ran bool, got classState) {
		r := &Runner{Dir: dir}
		if err := r.Open(); err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		st := &stamped{State: &got}
		err := r.Stage("classify", "k1", st, func() (map[string][]byte, error) {
			ran = true
			got = want
			return map[string][]byte{"x.txt": []byte("x")}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return ran, got
	}
	if ran, _ := stage(); !ran {
		t.Fatal("first run skipped")
	}
	stampJSON, err := os.ReadFile(filepath.Join(dir, StampDir, "classify.json"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(stampJSON, []byte("2147483654")) || !bytes.Contains(stampJSON, []byte(sidePath("classify"))) {
		t.Errorf("stamp holds the arrays or does not list the side file:\n%s", stampJSON)
	}
	ran, got := stage()
	if ran || !reflect.DeepEqual(got, want) {
		t.Fatalf("resumed: ran %v, state %+v; want skipped with %+v", ran, got, want)
	}
	if got.Secondary.Rows != nil || got.Secondary.Assign == nil {
		t.Error("nil and empty arrays not told apart")
	}

	// Deadlines: floats, NaN included, bit for bit.
	bs := boundsState{Deadlines: []float64{1.5, math.NaN(), math.Inf(1), math.Copysign(0, -1)}}
	cols := bs.perJobColumns()
	side := filepath.Join(t.TempDir(), "b.cols")
	if _, err := writeSide(side, cols); err != nil {
		t.Fatal(err)
	}
	var back boundsState
	if err := readSide(side, back.perJobColumns()); err != nil {
		t.Fatal(err)
	}
	for i := range bs.Deadlines {
		if math.Float64bits(back.Deadlines[i]) != math.Float64bits(bs.Deadlines[i]) {
			t.Errorf("deadline %d: %v, want %v", i, back.Deadlines[i], bs.Deadlines[i])
		}
	}
	if readSide(side, want.perJobColumns()) == nil {
		t.Error("a side file of other columns was read")
	}

	// A changed or missing side file: the stage runs again.
	p := filepath.Join(dir, sidePath("classify"))
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	b[len(b)-1] ^= 1
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if ran, _ := stage(); !ran {
		t.Error("a changed side file was trusted")
	}
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if ran, _ := stage(); !ran {
		t.Error("a missing side file was not noticed")
	}
}
