package data

import (
	"bytes"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// writeGroups writes j as Parquet in row groups of rows rows to a file.
func writeGroups(t testing.TB, j *Jobs, rows int) (string, []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "log.parquet")
	if err := WriteFileAtomic(path, true, func(w io.Writer) error { return WriteParquetGroups(w, j, rows) }); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, b
}

// TestParquetStreamedIsWhole checks that a Parquet log read a column of a
// row group at a time (ReadFile) is the table decoding it whole gives,
// exactly (dictionary order and validity bitmaps included, so that the
// trace key is the same), for one and several row groups, with nulls and
// with users and queues that first appear in later row groups.
func TestParquetStreamedIsWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 17))
	for _, tc := range []struct {
		n, rows int
		nulls   bool
	}{{1000, 128, true}, {1000, 128, false}, {1000, 1 << 20, true}, {300, 100, true}, {5, 1, true}} {
		j := randomJobs(rng, tc.n, tc.nulls)
		for i := 0; i < tc.n/2; i++ { // later users and queues only later
			j.User.Codes[i] %= 3
			j.Queue.Codes[i] = 0
		}
		path, b := writeGroups(t, j, tc.rows)
		got, err := ReadFile(path, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want, err := ReadBytes(b, path, ReadOptions{Format: FormatParquet}) // decoded whole
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("n=%d groups of %d: streamed %s", tc.n, tc.rows, diffJobs(got, want, nil))
		}
		var gb, wb bytes.Buffer
		if err := Write(&gb, got, FormatArrow); err != nil {
			t.Fatal(err)
		}
		if err := Write(&wb, want, FormatArrow); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(gb.Bytes(), wb.Bytes()) {
			t.Errorf("n=%d groups of %d: the canonical Arrow bytes differ", tc.n, tc.rows)
		}
	}
}

// TestParquetStreamedErrorRow checks that an error in a value of a later
// row group names the row in the file, not in its row group.
func TestParquetStreamedErrorRow(t *testing.T) {
	j := randomJobs(rand.New(rand.NewPCG(3, 4)), 600, false)
	j.Start.Valid = NewBitmap(600)
	j.Start.Valid.SetNull(437)
	j.Start.Values[437] = 0
	path, _ := writeGroups(t, j, 100)
	m, err := ParseMapping("submit_time=start_time")
	if err != nil {
		t.Fatal(err)
	}
	_, err = ReadFile(path, ReadOptions{Map: m})
	checkInputError(t, err, path, 438, "start_time (submit_time)", "null submit time")

	// A row out of order is sorted (or refused with Strict) across the
	// row groups, as for a file read whole.
	j = randomJobs(rand.New(rand.NewPCG(3, 4)), 600, false)
	j.Start, j.Finish = Column[float64]{}, Column[float64]{}
	j.Submit[350], j.Submit[351] = j.Submit[351], j.Submit[350]
	path, _ = writeGroups(t, j, 100)
	_, err = ReadFile(path, ReadOptions{Strict: true})
	checkInputError(t, err, path, 352, ColSubmit, "not sorted")
}
