package data

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/xitongsys/parquet-go/reader"
	"github.com/xitongsys/parquet-go/source"
)

// memFile is a read-only in-memory source.ParquetFile for parquet-go.
type memFile struct{ *bytes.Reader }

func (m memFile) Write([]byte) (int, error) { return 0, errors.New("read-only") }
func (m memFile) Close() error              { return nil }
func (m memFile) Open(string) (source.ParquetFile, error) {
	return memFile{bytes.NewReader(m.bytes())}, nil
}
func (m memFile) Create(string) (source.ParquetFile, error) { return nil, errors.New("read-only") }
func (m memFile) bytes() []byte {
	b := make([]byte, m.Size())
	m.ReadAt(b, 0)
	return b
}

// TestParquetInterop has github.com/xitongsys/parquet-go, an independent
// implementation, read a Parquet file that Write produced (every column,
// nulls, dictionary-encoded users and queues, Snappy pages) and checks every
// value against the table written.
func TestParquetInterop(t *testing.T) {
	for _, nulls := range []bool{false, true} {
		in := randomJobs(rand.New(rand.NewPCG(7, 8)), 2500, nulls)
		b := writeBytes(t, in, FormatParquet)
		pr, err := reader.NewParquetColumnReader(memFile{bytes.NewReader(b)}, 1)
		if err != nil {
			t.Fatal(err)
		}
		n := int(pr.GetNumRows())
		if n != in.Len() {
			t.Fatalf("parquet-go sees %d rows, want %d", n, in.Len())
		}
		seen := map[string]bool{}
		for k := range pr.SchemaHandler.ValueColumns {
			name := pr.SchemaHandler.GetExName(k + 1) // flat schema: leaf k is element k+1; parquet-go renames, ExName is the file's
			seen[name] = true
			vals, _, _, err := pr.ReadColumnByIndex(int64(k), int64(n))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if len(vals) != n {
				t.Fatalf("%s: %d values, want %d", name, len(vals), n)
			}
			for i, v := range vals {
				want, ok := canonicalValue(in, name, i)
				if !ok {
					if v != nil {
						t.Fatalf("%s row %d: parquet-go read %v for a null", name, i, v)
					}
					continue
				}
				if !sameValue(v, want) {
					t.Fatalf("%s row %d: parquet-go read %v (%T), want %v (%T)", name, i, v, v, want, want)
				}
			}
		}
		pr.ReadStop()
		for _, c := range Columns {
			if !seen[c] {
				t.Errorf("parquet-go does not see column %s", c)
			}
		}
	}
}

// canonicalValue returns row i of the named column as the Go value
// parquet-go produces for it, and whether it is non-null.
func canonicalValue(j *Jobs, col string, i int) (any, bool) {
	switch col {
	case ColJobID:
		return j.ID.At(i), true
	case ColSubmit:
		return j.Submit[i], true
	case ColUser:
		return j.User.At(i)
	case ColQueue:
		return j.Queue.At(i)
	case ColPriority:
		return j.Priority.At(i)
	case ColStart:
		return j.Start.At(i)
	case ColFinish:
		return j.Finish.At(i)
	case ColMapTasks:
		return j.MapTasks.At(i)
	case ColReduceTasks:
		return j.ReduceTasks.At(i)
	case ColMapTaskSeconds:
		return j.MapTaskSeconds.At(i)
	case ColReduceTaskSeconds:
		return j.ReduceTaskSeconds.At(i)
	case ColInputBytes:
		return j.InputBytes.At(i)
	case ColShuffleBytes:
		return j.ShuffleBytes.At(i)
	case ColOutputBytes:
		return j.OutputBytes.At(i)
	case ColSize:
		return j.Size.At(i)
	}
	return nil, false
}

func sameValue(got, want any) bool {
	switch w := want.(type) {
	case float64:
		g, ok := got.(float64)
		return ok && math.Float64bits(g) == math.Float64bits(w)
	default:
		return got == want
	}
}
