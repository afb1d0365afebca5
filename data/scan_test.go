package data

import (
	"errors"
	"fmt"
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

// TestIDOrder checks the two orders in which job ids are unique without
// hashing, across parts, and that a repeat or a step back in both orders
// leaves the ids to the hashed check.
func TestIDOrder(t *testing.T) {
	for _, c := range []struct {
		name  string
		parts [][]string
		want  bool
	}{
		{"empty", nil, true},
		{"one id", [][]string{{"a"}}, true},
		{"byte order", [][]string{{"a10", "a9"}, {"b"}}, true},
		{"shorter first", [][]string{{"j8", "j9"}, {"j10", "j11"}}, true},
		{"repeat in a part", [][]string{{"j1", "j2", "j2"}}, false},
		{"repeat across parts", [][]string{{"j1", "j2"}, {"j2", "j3"}}, false},
		{"restart in a later part", [][]string{{"j0", "j1"}, {"j0"}}, false},
		{"neither order", [][]string{{"b", "a10"}, {"a9"}}, false},
		{"empty part between", [][]string{{"j1"}, {}, {"j1"}}, false},
	} {
		var o idOrder
		for _, p := range c.parts {
			var s Strings
			for _, id := range p {
				s.Append(id)
			}
			o.add(&s)
		}
		if got := o.increasing(); got != c.want {
			t.Errorf("%s: increasing %v, want %v", c.name, got, c.want)
		}
	}
}

// TestScanParquetIDsOutOfOrder checks the scan of ids in no increasing
// order, which it reads again to hash: unique ones pass, one repeated
// (in another row group) is refused.
func TestScanParquetIDsOutOfOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 40))
	n := 3000
	for _, c := range []struct {
		name string
		dup  bool
	}{{"unique", false}, {"one repeated", true}} {
		j := randomJobs(rng, n, false)
		perm := rng.Perm(n)
		j.ID = Strings{}
		for i := 0; i < n; i++ {
			k := perm[i]
			if c.dup && i == n-1 {
				k = perm[0]
			}
			j.ID.Append(fmt.Sprintf("job_%d", k))
		}
		path, _ := writeGroups(t, j, 1000)
		err := ScanParquet(path, ReadOptions{}, func(*Jobs, int, int) error { return nil })
		if c.dup != errors.Is(err, ErrNotScannable) || !c.dup && err != nil {
			t.Errorf("%s: got %v", c.name, err)
		}
	}
}
