package colfile

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/compress"
	"github.com/apache/arrow/go/v17/parquet/pqarrow" // the reference, in tests only
)

// typesRecord is a record of every flat type schedplan writes, 10 rows
// with nulls in the nullable columns.
func typesRecord(t *testing.T) arrow.Record {
	t.Helper()
	mem := memory.DefaultAllocator
	valid := []bool{true, false, true, true, true, true, false, true, true, true}
	fields := []arrow.Field{
		{Name: "b", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "i8", Type: arrow.PrimitiveTypes.Int8, Nullable: true},
		{Name: "u8", Type: arrow.PrimitiveTypes.Uint8},
		{Name: "i16", Type: arrow.PrimitiveTypes.Int16},
		{Name: "u16", Type: arrow.PrimitiveTypes.Uint16, Nullable: true},
		{Name: "i32", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "u32", Type: arrow.PrimitiveTypes.Uint32},
		{Name: "i64", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "u64", Type: arrow.PrimitiveTypes.Uint64},
		{Name: "f32", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "f64", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "bin", Type: arrow.BinaryTypes.Binary},
		{Name: "dict", Type: &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}, Nullable: true},
		{Name: "ts_ms", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}, Nullable: true},
		{Name: "ts_us", Type: &arrow.TimestampType{Unit: arrow.Microsecond}},
		{Name: "ts_ns", Type: &arrow.TimestampType{Unit: arrow.Nanosecond, TimeZone: "UTC"}},
		{Name: "date", Type: arrow.FixedWidthTypes.Date32},
	}
	b := array.NewRecordBuilder(mem, arrow.NewSchema(fields, nil))
	defer b.Release()
	for i := 0; i < 10; i++ {
		for k, f := range fields {
			fb := b.Field(k)
			if f.Nullable && !valid[i] {
				fb.AppendNull()
				continue
			}
			v := int64(i*7 - 20)
			switch fb := fb.(type) {
			case *array.BooleanBuilder:
				fb.Append(i%3 == 0)
			case *array.Int8Builder:
				fb.Append(int8(v))
			case *array.Uint8Builder:
				fb.Append(uint8(i * 25))
			case *array.Int16Builder:
				fb.Append(int16(v * 1000))
			case *array.Uint16Builder:
				fb.Append(uint16(i * 6000))
			case *array.Int32Builder:
				fb.Append(int32(v * 100000))
			case *array.Uint32Builder:
				fb.Append(uint32(i) * 400_000_000)
			case *array.Int64Builder:
				fb.Append(v << 40)
			case *array.Uint64Builder:
				fb.Append(uint64(i) << 61)
			case *array.Float32Builder:
				fb.Append(float32(v) / 3)
			case *array.Float64Builder:
				fb.Append(float64(v) / 7)
			case *array.StringBuilder:
				fb.Append(strings.Repeat("x", i))
			case *array.BinaryBuilder:
				fb.Append([]byte{byte(i), 0, 255})
			case *array.BinaryDictionaryBuilder:
				if err := fb.AppendString([]string{"prod", "dev", "adhoc"}[i%3]); err != nil {
					t.Fatal(err)
				}
			case *array.TimestampBuilder:
				fb.Append(arrow.Timestamp(1_600_000_000_000 + v))
			case *array.Date32Builder:
				fb.Append(arrow.Date32(18000 + v))
			default:
				t.Fatalf("no value for %T", fb)
			}
		}
	}
	return b.NewRecord()
}

// concat returns column k of tbl as one array.
func concat(t *testing.T, tbl arrow.Table, k int) arrow.Array {
	t.Helper()
	a, err := array.Concatenate(tbl.Column(k).Data().Chunks(), memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// sameValues reports whether a and b hold the same values and nulls
// (dictionary arrays compared by value, whatever their dictionaries).
func sameValues(a, b arrow.Array) bool {
	da, ok := a.(*array.Dictionary)
	db, ok2 := b.(*array.Dictionary)
	if !ok || !ok2 {
		return array.Equal(a, b)
	}
	if da.Len() != db.Len() {
		return false
	}
	for i := 0; i < da.Len(); i++ {
		va, _ := StringValue(da, i)
		vb, _ := StringValue(db, i)
		if da.IsNull(i) != db.IsNull(i) || va != vb {
			return false
		}
	}
	return true
}

// TestParquetRoundTripTypes writes every type schedplan writes, in row
// groups of 3 rows, and reads it back: the same values, nulls and types
// (dictionaries and time zones through the stored Arrow schema), whole and
// a batch at a time; pqarrow, the reference, reads our file as we do, and
// we read pqarrow's file of the same record as pqarrow does.
func TestParquetRoundTripTypes(t *testing.T) {
	rec := typesRecord(t)
	defer rec.Release()
	var ours bytes.Buffer
	if err := WriteParquetGroups(&ours, rec, []string{"dict"}, 3); err != nil {
		t.Fatal(err)
	}
	var theirs bytes.Buffer
	fw, err := pqarrow.NewFileWriter(rec.Schema(), &theirs, ParquetPropsGroups([]string{"dict"}, 3), pqarrow.NewArrowWriterProperties(pqarrow.WithStoreSchema()))
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	for _, file := range []struct {
		name string
		b    []byte
	}{{"ours", ours.Bytes()}, {"pqarrow's", theirs.Bytes()}} {
		got, err := ReadParquet(bytes.NewReader(file.b), int64(len(file.b)), nil)
		if err != nil {
			t.Fatalf("%s: %v", file.name, err)
		}
		ref, err := pqarrow.ReadTable(context.Background(), bytes.NewReader(file.b), nil, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
		if err != nil {
			t.Fatalf("%s: pqarrow: %v", file.name, err)
		}
		if got.NumRows() != 10 || got.NumCols() != rec.NumCols() {
			t.Fatalf("%s: %d rows, %d columns", file.name, got.NumRows(), got.NumCols())
		}
		for k := 0; k < int(rec.NumCols()); k++ {
			name := rec.ColumnName(k)
			if n := len(got.Column(k).Data().Chunks()); n != 4 {
				t.Errorf("%s %s: %d chunks, want one per row group (4)", file.name, name, n)
			}
			a, r := concat(t, got, k), concat(t, ref, k)
			if !arrow.TypeEqual(a.DataType(), r.DataType()) || !array.Equal(a, r) {
				t.Errorf("%s %s: read %s %v, pqarrow %s %v", file.name, name, a.DataType(), a, r.DataType(), r)
			}
			if !sameValues(a, rec.Column(k)) {
				t.Errorf("%s %s: read %v, wrote %v", file.name, name, a, rec.Column(k))
			}
			a.Release()
			r.Release()
		}
		for g := 0; g < 4; g++ {
			b, err := NewParquetBatches(bytes.NewReader(file.b), int64(len(file.b)), nil, g, 2)
			if err != nil {
				t.Fatal(err)
			}
			row := int64(3 * g)
			for {
				part, err := b.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				for k := 0; k < int(part.NumCols()); k++ {
					a := concat(t, part, k)
					want := array.NewSlice(rec.Column(k), row, row+part.NumRows())
					if !sameValues(a, want) {
						t.Errorf("%s, row group %d, rows from %d, %s: batch %v, want %v", file.name, g, row, part.Column(k).Name(), a, want)
					}
					a.Release()
					want.Release()
				}
				row += part.NumRows()
				part.Release()
			}
			b.Close()
			if row != int64(min(3*g+3, 10)) {
				t.Errorf("%s, row group %d: batches end at row %d", file.name, g, row)
			}
		}
		got.Release()
		ref.Release()
	}
}

// writeParquetWith writes rec as a Parquet file with the writer
// properties props.
func writeParquetWith(t *testing.T, rec arrow.Record, props *parquet.WriterProperties) []byte {
	t.Helper()
	var b bytes.Buffer
	fw, err := newArrowParquetWriter(rec.Schema(), &b, props)
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.write(rec); err != nil {
		t.Fatal(err)
	}
	if err := fw.close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestParquetReadErrorsNameColumnAndGroup corrupts one page of one column
// chunk: the error names the column and the row group.
func TestParquetReadErrorsNameColumnAndGroup(t *testing.T) {
	rec := typesRecord(t)
	defer rec.Release()
	data := writeParquetWith(t, rec, parquet.NewWriterProperties(parquet.WithCompression(compress.Codecs.Uncompressed),
		parquet.WithMaxRowGroupLength(5), parquet.WithDictionaryDefault(false)))
	pr, _, err := OpenParquet(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	cc, err := pr.MetaData().RowGroup(1).ColumnChunk(10) // f64, second row group
	if err != nil {
		t.Fatal(err)
	}
	pr.Close()
	bad := bytes.Clone(data)
	for i := cc.DataPageOffset(); i < cc.DataPageOffset()+cc.TotalCompressedSize(); i++ {
		bad[i] = 0xff // the page header and its values
	}
	_, err = ReadParquet(bytes.NewReader(bad), int64(len(bad)), nil)
	if err == nil || !strings.Contains(err.Error(), `column "f64"`) || !strings.Contains(err.Error(), "row group 1") {
		t.Errorf("corrupt chunk: error %v, want one naming column \"f64\" and row group 1", err)
	}
	_, err = NewParquetBatches(bytes.NewReader(bad), int64(len(bad)), nil, 1, 2)
	if err == nil {
		b, _ := NewParquetBatches(bytes.NewReader(bad), int64(len(bad)), nil, 1, 2)
		_, err = b.Next()
		b.Close()
	}
	if err == nil || !strings.Contains(err.Error(), `column "f64"`) || !strings.Contains(err.Error(), "row group 1") {
		t.Errorf("corrupt chunk, by batches: error %v, want one naming column \"f64\" and row group 1", err)
	}
}
