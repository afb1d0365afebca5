package colfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/compress"
)

// plainIDsFile writes n rows of a required string column ("id", values of
// growing length, an empty one among them) and a float column in PLAIN
// pages of about 1 KiB, in data pages of the given version compressed by
// codec, in row groups of group rows.
func plainIDsFile(t *testing.T, n int, group int64, v2 bool, codec compress.Compression) ([]byte, arrow.Record) {
	t.Helper()
	sch := arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.BinaryTypes.String}, {Name: "x", Type: arrow.PrimitiveTypes.Float64}}, nil)
	bld := array.NewRecordBuilder(memory.DefaultAllocator, sch)
	defer bld.Release()
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("job_%d_%s", i, strings.Repeat("x", i%37))
		if i == 5 {
			id = ""
		}
		bld.Field(0).(*array.StringBuilder).Append(id)
		bld.Field(1).(*array.Float64Builder).Append(float64(i) / 3)
	}
	rec := bld.NewRecord()
	version := parquet.DataPageV1
	if v2 {
		version = parquet.DataPageV2
	}
	props := parquet.NewWriterProperties(parquet.WithCompression(codec), parquet.WithMaxRowGroupLength(group),
		parquet.WithDictionaryDefault(false), parquet.WithDataPageSize(1<<10), parquet.WithDataPageVersion(version))
	return writeParquetWith(t, rec, props), rec
}

// TestPlainStringsBatches reads a required PLAIN string column by batches
// that start and end inside pages, in data pages v1 and v2: the batches
// (read by plainStrings, not the record reader) are the column's values.
func TestPlainStringsBatches(t *testing.T) {
	const n, group = 3000, 1100
	for _, v2 := range []bool{false, true} {
		data, rec := plainIDsFile(t, n, group, v2, compress.Codecs.Snappy)
		for _, batch := range []int64{1, 7, 500, 5000} {
			row := int64(0)
			for g := 0; g < (n+group-1)/group; g++ {
				b, err := NewParquetBatches(bytes.NewReader(data), int64(len(data)), nil, g, batch)
				if err != nil {
					t.Fatal(err)
				}
				if b.plain[0] == nil || b.plain[1] != nil {
					t.Fatalf("v2 %v: plain readers %v, want one for the id column only", v2, b.plain)
				}
				for {
					part, err := b.Next()
					if errors.Is(err, io.EOF) {
						break
					}
					if err != nil {
						t.Fatalf("v2 %v, batch %d, row group %d: %v", v2, batch, g, err)
					}
					for k := 0; k < 2; k++ {
						a := concat(t, part, k)
						want := array.NewSlice(rec.Column(k), row, row+part.NumRows())
						if !array.Equal(a, want) {
							t.Errorf("v2 %v, batch %d, rows from %d, %s: %v, want %v", v2, batch, row, part.Column(k).Name(), a, want)
						}
						a.Release()
						want.Release()
					}
					row += part.NumRows()
					part.Release()
				}
				b.Close()
			}
			if row != n {
				t.Errorf("v2 %v, batch %d: %d rows, want %d", v2, batch, row, n)
			}
		}
		rec.Release()
	}
}

// TestPlainStringsCorrupt checks that a value whose length runs past its
// page is an error naming the column, the row group and the cause, not a
// panic or a short read.
func TestPlainStringsCorrupt(t *testing.T) {
	for _, v2 := range []bool{false, true} {
		data, rec := plainIDsFile(t, 200, 200, v2, compress.Codecs.Uncompressed)
		rec.Release()
		at := bytes.Index(data, []byte("job_3_xxx"))
		if at < 4 {
			t.Fatal("no job_3 in the file")
		}
		bad := bytes.Clone(data)
		copy(bad[at-4:at], []byte{0, 0, 0, 0x7f}) // a 2 GiB value
		b, err := NewParquetBatches(bytes.NewReader(bad), int64(len(bad)), nil, 0, 64)
		for err == nil {
			var part arrow.Table
			if part, err = b.Next(); err == nil {
				part.Release()
			}
		}
		if b != nil {
			b.Close()
		}
		if errors.Is(err, io.EOF) || !strings.Contains(err.Error(), `column "id"`) || !strings.Contains(err.Error(), "row group 0") ||
			!strings.Contains(err.Error(), errPlainShort.Error()) {
			t.Errorf("v2 %v: error %v, want one naming column \"id\", row group 0 and %q", v2, err, errPlainShort)
		}
	}
}
