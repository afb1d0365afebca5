package data

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/xitongsys/parquet-go/reader"
	"github.com/xitongsys/parquet-go/source"
	"github.com/xitongsys/parquet-go/writer"
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

// foreignJob is a job row as github.com/xitongsys/parquet-go writes it: no
// Arrow schema in the file, optional columns as pointers, submit time in
// milliseconds under another name, start time as a TIMESTAMP_MILLIS column.
type foreignJob struct {
	ID         string   `parquet:"name=id, type=BYTE_ARRAY, convertedtype=UTF8"`
	TS         int64    `parquet:"name=ts, type=INT64"`
	Start      *int64   `parquet:"name=start_time, type=INT64, convertedtype=TIMESTAMP_MILLIS, repetitiontype=OPTIONAL"`
	Owner      *string  `parquet:"name=owner, type=BYTE_ARRAY, convertedtype=UTF8, encoding=PLAIN_DICTIONARY, repetitiontype=OPTIONAL"`
	MapTasks   *int32   `parquet:"name=map_tasks, type=INT32, repetitiontype=OPTIONAL"`
	InputBytes *int64   `parquet:"name=input_bytes, type=INT64, repetitiontype=OPTIONAL"`
	Size       *float64 `parquet:"name=size, type=DOUBLE, repetitiontype=OPTIONAL"`
	Note       string   `parquet:"name=note, type=BYTE_ARRAY, convertedtype=UTF8"`
}

// TestReadForeignParquet reads a Parquet file written by parquet-go (no
// Arrow schema, several row groups) through a column mapping.
func TestReadForeignParquet(t *testing.T) {
	var buf bytes.Buffer
	pw, err := writer.NewParquetWriterFromWriter(&buf, new(foreignJob), 1)
	if err != nil {
		t.Fatal(err)
	}
	const n = 3000
	owners := []string{"ann", "bob", "cyd"}
	for i := 0; i < n; i++ {
		r := foreignJob{ID: "f" + strconv.Itoa(i), TS: int64(i) * 1500, Note: "x"}
		if i%7 != 0 {
			o, m, in, s, st := owners[i%3], int32(i%50), int64(i)*1000, float64(i)/8, int64(i)*1500+250
			r.Owner, r.MapTasks, r.InputBytes, r.Size, r.Start = &o, &m, &in, &s, &st
		}
		if err := pw.Write(r); err != nil {
			t.Fatal(err)
		}
		if i%1000 == 999 { // several row groups
			if err := pw.Flush(true); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := pw.WriteStop(); err != nil {
		t.Fatal(err)
	}
	if pr, err := file.NewParquetReader(bytes.NewReader(buf.Bytes())); err != nil || pr.NumRowGroups() < 2 {
		t.Fatalf("want a file of several row groups: %v", err)
	}
	m, err := ParseMapping("job_id=id,submit_time=ts:ms,user=owner")
	if err != nil {
		t.Fatal(err)
	}
	j, err := ReadBytes(buf.Bytes(), "foreign.parquet", ReadOptions{Format: FormatParquet, Map: m, Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if j.Len() != n {
		t.Fatalf("%d jobs, want %d", j.Len(), n)
	}
	for i := 0; i < n; i++ {
		if j.ID.At(i) != "f"+strconv.Itoa(i) || j.Submit[i] != float64(i)*1.5 {
			t.Fatalf("row %d: id %q submit %v", i, j.ID.At(i), j.Submit[i])
		}
		u, uok := j.User.At(i)
		mt, mok := j.MapTasks.At(i)
		in, iok := j.InputBytes.At(i)
		s, sok := j.Size.At(i)
		st, stok := j.Start.At(i)
		if i%7 == 0 {
			if uok || mok || iok || sok || stok {
				t.Fatalf("row %d: nulls read as values", i)
			}
			continue
		}
		if u != owners[i%3] || mt != int32(i%50) || in != int64(i)*1000 || s != float64(i)/8 || st != float64(i)*1.5+0.25 {
			t.Fatalf("row %d: %q %d %d %v %v", i, u, mt, in, s, st)
		}
	}
}
