package data

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// TestScanParquetBatchesRowGroups checks that ScanParquet hands a row
// group larger than scanBatch over in parts of at most scanBatch rows (its
// memory is one part's, not the row group's), with nulls and users that
// first appear in later parts, and that the parts, concatenated, are the
// table Open reads.
func TestScanParquetBatchesRowGroups(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 30))
	n := 2*scanBatch + 1234
	j := randomJobs(rng, n, true)
	for i := 0; i < scanBatch; i++ { // later users only in later parts
		j.User.Codes[i] %= 2
	}
	path, _ := writeGroups(t, j, n) // one row group
	whole, err := Open(path, ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var firsts []int
	acc := jobsAppender{}
	err = ScanParquet(path, ReadOptions{}, func(part *Jobs, first, total int) error {
		if total != n {
			t.Errorf("total %d, want %d", total, n)
		}
		firsts = append(firsts, first)
		return acc.add(part)
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, scanBatch, 2 * scanBatch}; !reflect.DeepEqual(firsts, want) {
		t.Errorf("parts start at %v, want %v", firsts, want)
	}
	got := &acc.j
	got.Source, got.idsChecked = whole.Source, whole.idsChecked
	if !reflect.DeepEqual(got.Submit, whole.Submit) || !reflect.DeepEqual(got.ID, whole.ID) ||
		!reflect.DeepEqual(got.Finish, whole.Finish) || !reflect.DeepEqual(got.OutputBytes, whole.OutputBytes) ||
		!reflect.DeepEqual(got.MapTasks, whole.MapTasks) {
		t.Errorf("parts differ from the whole table: %s", diffJobs(got, whole, nil))
	}
	for i := 0; i < n; i++ {
		g, gok := got.User.At(i)
		w, wok := whole.User.At(i)
		if g != w || gok != wok {
			t.Fatalf("row %d: user %q (%v), want %q (%v)", i+1, g, gok, w, wok)
		}
	}
}
