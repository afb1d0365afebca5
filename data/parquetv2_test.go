package data

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math"
	"math/big"
	"os"
	"strconv"
	"testing"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/compress"
	"github.com/apache/arrow/go/v17/parquet/file"
	"github.com/apache/arrow/go/v17/parquet/pqarrow"
	"github.com/xitongsys/parquet-go/writer"

	"github.com/schedplan/schedplan/data/internal/colfile"
)

// updateGolden (-update) rewrites docs/formats.md (TestFormatsDoc) and
// testdata/arrowgo-v2.parquet.
var updateGolden = flag.Bool("update", false, "rewrite docs/formats.md and testdata/arrowgo-v2.parquet")

var update = updateGolden

// v2Source is the table held by testdata/duckdb-v2*.parquet and
// testdata/arrowgo-v2.parquet, computed here in the order DuckDB evaluates
// the SQL that wrote them (testdata/README.md), one correctly rounded IEEE
// operation at a time, so that every value is equal bit for bit.
func v2Source(n int) *Jobs {
	j := &Jobs{Source: "v2"}
	j.User = Dict{Codes: make([]int32, n)}
	j.Queue = Dict{Codes: make([]int32, n)}
	users := map[string]int32{}
	queues := map[string]int32{}
	code := func(d *Dict, seen map[string]int32, v string) int32 {
		c, ok := seen[v]
		if !ok {
			c = int32(len(d.Values))
			seen[v] = c
			d.Values = append(d.Values, v)
		}
		return c
	}
	f64 := func() Column[float64] { return Column[float64]{Values: make([]float64, n), Valid: NewBitmap(n)} }
	i32 := func() Column[int32] { return Column[int32]{Values: make([]int32, n), Valid: NewBitmap(n)} }
	i64 := func() Column[int64] { return Column[int64]{Values: make([]int64, n), Valid: NewBitmap(n)} }
	j.Priority, j.MapTasks, j.ReduceTasks = i32(), i32(), i32()
	j.Start, j.Finish, j.MapTaskSeconds, j.ReduceTaskSeconds, j.Size = f64(), f64(), f64(), f64(), f64()
	j.InputBytes, j.ShuffleBytes, j.OutputBytes = i64(), i64(), i64()
	for i := 0; i < n; i++ {
		x := float64(i)
		sub := float64(1.7e9+float64(x*3.3)) + float64(x/7)
		soff := float64(i % 13)
		foff := 10.5 + float64(float64(i%97)*3.125)
		j.ID.Append(fmt.Sprintf("job_%05d", i))
		j.Submit = append(j.Submit, sub)
		j.User.Codes[i] = -1
		if i%11 != 0 {
			j.User.Codes[i] = code(&j.User, users, fmt.Sprintf("user%d", i%7))
		}
		q := "dev"
		switch {
		case i%50 == 1:
			q = ""
		case i%3 == 0:
			q = "prod"
		}
		j.Queue.Codes[i] = code(&j.Queue, queues, q)
		j.Priority.Values[i] = int32(1 + i%5)
		j.Start.Values[i] = sub + soff
		if i%17 == 0 {
			j.Start.Values[i] = 0
			j.Start.Valid.SetNull(i)
		}
		j.Finish.Values[i] = float64(sub+soff) + foff
		j.MapTasks.Values[i] = int32(1 + i%40)
		j.ReduceTasks.Values[i] = int32(i % 9)
		if i%4 == 0 {
			j.ReduceTasks.Values[i] = 0
			j.ReduceTasks.Valid.SetNull(i)
		}
		j.MapTaskSeconds.Values[i] = x / 3
		j.ReduceTaskSeconds.Values[i] = x / 11
		if i%5 == 0 {
			j.ReduceTaskSeconds.Values[i] = 0
			j.ReduceTaskSeconds.Valid.SetNull(i)
		}
		j.InputBytes.Values[i] = int64(i)*1048576 + 17
		j.ShuffleBytes.Values[i] = int64(i) * 4096
		j.OutputBytes.Values[i] = int64(i) * 1000
		if i%6 == 0 {
			j.OutputBytes.Values[i] = 0
			j.OutputBytes.Valid.SetNull(i)
		}
		j.Size.Values[i] = float64(float32(i) / 3) // a FLOAT (REAL) column
		if i%9 == 0 {
			j.Size.Values[i] = 0
			j.Size.Valid.SetNull(i)
		}
	}
	// Columns without nulls read back without a bitmap.
	for _, c := range []*Column[int32]{&j.Priority, &j.MapTasks} {
		c.Valid = nil
	}
	for _, c := range []*Column[int64]{&j.InputBytes, &j.ShuffleBytes} {
		c.Valid = nil
	}
	j.Finish.Valid, j.MapTaskSeconds.Valid = nil, nil
	return j
}

// TestDuckDBParquetV2 reads Parquet files written by DuckDB 1.5.6 with
// parquet_version v2 (testdata/README.md): doubles and floats in
// BYTE_STREAM_SPLIT, which arrow-go v17 does not decode (issue 10: "0 values
// for 3000 rows"), job ids in DELTA_LENGTH_BYTE_ARRAY, byte counts in
// DELTA_BINARY_PACKED, strings and small integers in RLE_DICTIONARY; nulls in
// most columns and one empty queue name. Every value must equal the source.
func TestDuckDBParquetV2(t *testing.T) {
	for _, tc := range []struct {
		file string
		n    int
	}{{"testdata/duckdb-v2.parquet", 3000}, {"testdata/duckdb-v2-small.parquet", 20}} {
		j, err := ReadFile(tc.file, ReadOptions{Strict: true})
		if err != nil {
			t.Fatal(err)
		}
		if d := diffJobs(v2Source(tc.n), j, nil); d != "" {
			t.Errorf("%s: %s", tc.file, d)
		}
	}
}

// TestParquetUnsupportedEncoding checks that a column in an encoding no
// decoder here reads (BYTE_STREAM_SPLIT under a list, written by DuckDB) is
// refused with the encoding and the column named, not as "0 values".
func TestParquetUnsupportedEncoding(t *testing.T) {
	_, err := ReadFile("testdata/duckdb-v2-list.parquet", ReadOptions{})
	checkInputError(t, err, "testdata/duckdb-v2-list.parquet", 0, "submit_time", "encoding BYTE_STREAM_SPLIT")
}

// v2Props are writer properties with the encodings of Parquet format 2 that
// arrow-go v17 writes, per column, in data pages of the given version.
func v2Props(version parquet.DataPageVersion, codec compress.Compression, pageSize int64) *parquet.WriterProperties {
	return parquet.NewWriterProperties(
		parquet.WithDataPageVersion(version),
		parquet.WithVersion(parquet.V2_LATEST),
		parquet.WithCompression(codec),
		parquet.WithDataPageSize(pageSize),
		parquet.WithMaxRowGroupLength(700),
		parquet.WithDictionaryDefault(false),
		parquet.WithDictionaryFor(ColUser, true),
		parquet.WithDictionaryFor(ColPriority, true),
		parquet.WithEncodingFor(ColJobID, parquet.Encodings.DeltaLengthByteArray),
		parquet.WithEncodingFor(ColQueue, parquet.Encodings.DeltaByteArray),
		parquet.WithEncodingFor(ColMapTasks, parquet.Encodings.DeltaBinaryPacked),
		parquet.WithEncodingFor(ColReduceTasks, parquet.Encodings.DeltaBinaryPacked),
		parquet.WithEncodingFor(ColInputBytes, parquet.Encodings.DeltaBinaryPacked),
		parquet.WithEncodingFor(ColShuffleBytes, parquet.Encodings.DeltaBinaryPacked),
		parquet.WithEncodingFor(ColOutputBytes, parquet.Encodings.DeltaBinaryPacked),
		parquet.WithCreatedBy("schedplan test (arrow-go v17)"),
	)
}

// v2Record is v2Source as an Arrow record whose user and queue are plain
// strings (so that the writer applies the per-column encodings) and whose
// size is a float32 column, as in the DuckDB file.
func v2Record(t testing.TB, j *Jobs) arrow.Record {
	rec := j.record()
	defer rec.Release()
	var fields []arrow.Field
	var cols []arrow.Array
	for k, f := range rec.Schema().Fields() {
		a := rec.Column(k)
		switch f.Name {
		case ColUser, ColQueue:
			d := &j.User
			if f.Name == ColQueue {
				d = &j.Queue
			}
			b := array.NewStringBuilder(memory.DefaultAllocator)
			for i := range d.Codes {
				if v, ok := d.At(i); ok {
					b.Append(v)
				} else {
					b.AppendNull()
				}
			}
			a = b.NewArray()
			b.Release()
			f.Type = a.DataType()
		case ColSize:
			b := array.NewFloat32Builder(memory.DefaultAllocator)
			for i := range j.Size.Values {
				if v, ok := j.Size.At(i); ok {
					b.Append(float32(v))
				} else {
					b.AppendNull()
				}
			}
			a = b.NewArray()
			b.Release()
			f.Type = a.DataType()
		default:
			a.Retain()
		}
		fields = append(fields, f)
		cols = append(cols, a)
	}
	out := array.NewRecord(arrow.NewSchema(fields, nil), cols, int64(j.Len()))
	for _, a := range cols {
		a.Release()
	}
	return out
}

func writeV2(t testing.TB, rec arrow.Record, props *parquet.WriterProperties) []byte {
	var b bytes.Buffer
	fw, err := pqarrow.NewFileWriter(rec.Schema(), &b, props, pqarrow.DefaultWriterProps())
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestArrowGoParquetV2 writes v2Source with arrow-go's writer in the
// encodings of Parquet format 2 (DELTA_BINARY_PACKED, DELTA_LENGTH_BYTE_ARRAY,
// DELTA_BYTE_ARRAY, RLE_DICTIONARY), in data pages v1 and v2, uncompressed,
// Snappy and Zstd, small pages and several row groups, and checks that every
// value reads back; and reads the committed testdata/arrowgo-v2.parquet.
func TestArrowGoParquetV2(t *testing.T) {
	src := v2Source(3000)
	rec := v2Record(t, src)
	defer rec.Release()
	for _, version := range []parquet.DataPageVersion{parquet.DataPageV1, parquet.DataPageV2} {
		for _, codec := range []compress.Compression{compress.Codecs.Uncompressed, compress.Codecs.Snappy, compress.Codecs.Zstd} {
			b := writeV2(t, rec, v2Props(version, codec, 4096))
			j, err := ReadBytes(b, "v2.parquet", ReadOptions{Format: FormatParquet, Strict: true})
			if err != nil {
				t.Fatalf("page v%d %s: %v", version+1, codec, err)
			}
			if d := diffJobs(src, j, nil); d != "" {
				t.Errorf("page v%d %s: %s", version+1, codec, d)
			}
		}
	}
	const committed, committedRows = "testdata/arrowgo-v2.parquet", 500
	small := v2Source(committedRows)
	if *update {
		rec := v2Record(t, small)
		defer rec.Release()
		b := writeV2(t, rec, v2Props(parquet.DataPageV2, compress.Codecs.Zstd, 1<<20))
		if err := os.WriteFile(committed, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	j, err := ReadFile(committed, ReadOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if d := diffJobs(small, j, nil); d != "" {
		t.Errorf("%s: %s", committed, d)
	}
}

// TestSplitDecoderAgrees checks the fixed-width column decoder that reads
// BYTE_STREAM_SPLIT pages against arrow-go's own decoder, on every file
// arrow-go reads: PLAIN and dictionary pages, data pages v1 and v2, nulls,
// several pages and row groups, 4- and 8-byte types.
func TestSplitDecoderAgrees(t *testing.T) {
	src := v2Source(3000)
	rec := v2Record(t, src)
	defer rec.Release()
	for _, version := range []parquet.DataPageVersion{parquet.DataPageV1, parquet.DataPageV2} {
		for _, dict := range []bool{false, true} {
			props := parquet.NewWriterProperties(parquet.WithDataPageVersion(version), parquet.WithDictionaryDefault(dict),
				parquet.WithDataPageSize(2048), parquet.WithMaxRowGroupLength(1100), parquet.WithCompression(compress.Codecs.Snappy))
			b := writeV2(t, rec, props)
			pr, err := file.NewParquetReader(bytes.NewReader(b))
			if err != nil {
				t.Fatal(err)
			}
			want, err := colfile.ReadParquet(bytes.NewReader(b), int64(len(b)), nil)
			if err != nil {
				t.Fatal(err)
			}
			for k, f := range want.Schema().Fields() {
				switch f.Type.ID() {
				case arrow.FLOAT32, arrow.FLOAT64, arrow.INT32, arrow.INT64:
				default:
					continue
				}
				got, err := colfile.DecodeFixedWidth(pr, k, f.Type, colfile.NewBoundedAllocator(len(b)))
				if err != nil {
					t.Fatalf("v%d dict %v %s: %v", version+1, dict, f.Name, err)
				}
				w, err := array.Concatenate(want.Column(k).Data().Chunks(), memory.DefaultAllocator) // a chunk per row group
				if err != nil {
					t.Fatal(err)
				}
				if !array.Equal(got, w) {
					t.Errorf("v%d dict %v %s: the decoders differ", version+1, dict, f.Name)
				}
				got.Release()
				w.Release()
			}
			want.Release()
			pr.Close()
		}
	}
}

// splitJob is a job row that github.com/xitongsys/parquet-go writes with
// BYTE_STREAM_SPLIT doubles and floats (nulls among them).
type splitJob struct {
	ID     string   `parquet:"name=job_id, type=BYTE_ARRAY, convertedtype=UTF8"`
	Submit float64  `parquet:"name=submit_time, type=DOUBLE, encoding=BYTE_STREAM_SPLIT"`
	Map    *float64 `parquet:"name=map_task_seconds, type=DOUBLE, encoding=BYTE_STREAM_SPLIT, repetitiontype=OPTIONAL"`
	Size   *float32 `parquet:"name=size, type=FLOAT, encoding=BYTE_STREAM_SPLIT, repetitiontype=OPTIONAL"`
}

// TestParquetGoByteStreamSplit reads BYTE_STREAM_SPLIT columns written by a
// second independent writer, github.com/xitongsys/parquet-go, in several row
// groups, and checks every value.
func TestParquetGoByteStreamSplit(t *testing.T) {
	var buf bytes.Buffer
	pw, err := writer.NewParquetWriterFromWriter(&buf, new(splitJob), 1)
	if err != nil {
		t.Fatal(err)
	}
	const n = 2500
	want := func(i int) (sub, m float64, s float32, null bool) {
		return 1.6e9 + float64(i)/3, float64(i) * 1.25, float32(i) / 7, i%5 == 2
	}
	for i := 0; i < n; i++ {
		sub, m, s, null := want(i)
		r := splitJob{ID: fmt.Sprintf("s%d", i), Submit: sub}
		if !null {
			r.Map, r.Size = &m, &s
		}
		if err := pw.Write(r); err != nil {
			t.Fatal(err)
		}
		if i%1000 == 999 {
			if err := pw.Flush(true); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := pw.WriteStop(); err != nil {
		t.Fatal(err)
	}
	j, err := ReadBytes(buf.Bytes(), "split.parquet", ReadOptions{Format: FormatParquet, Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i++ {
		sub, m, s, null := want(i)
		gm, okm := j.MapTaskSeconds.At(i)
		gs, oks := j.Size.At(i)
		if j.Submit[i] != sub || okm == null || oks == null || (!null && (gm != m || gs != float64(s))) {
			t.Fatalf("row %d: %v %v,%v %v,%v; want %v %v %v null %v", i+1, j.Submit[i], gm, okm, gs, oks, sub, m, s, null)
		}
	}
}

// TestDuckDBDecimals reads a Parquet file in which DuckDB stored numbers
// written as decimal literals as DECIMAL columns (testdata/README.md): times
// and sizes convert to the nearest float64, counts must be whole numbers.
func TestDuckDBDecimals(t *testing.T) {
	j, err := ReadFile("testdata/duckdb-decimal.parquet", ReadOptions{Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	if j.Len() != 40 {
		t.Fatalf("%d rows", j.Len())
	}
	for i := 0; i < 40; i++ {
		size, sok := j.Size.At(i)
		in, _ := j.InputBytes.At(i)
		mt, _ := j.MapTasks.At(i)
		ms, _ := j.MapTaskSeconds.At(i)
		wantSize := float64(i%97)*12.5 + 0.125
		if j.Submit[i] != 1546300800+float64(i)*7.25 || sok != (i%4 != 3) || (sok && size != wantSize) ||
			in != int64(i)*1048576 || mt != int32(2*i) || ms != float64(i)/10 {
			t.Fatalf("row %d: %v %v,%v %v %v %v", i+1, j.Submit[i], size, sok, in, mt, ms)
		}
	}
}

// TestDecimalToFloat checks the conversion of decimals to the nearest
// float64 against strconv, which rounds correctly.
func TestDecimalToFloat(t *testing.T) {
	for _, tc := range []struct {
		unscaled string
		scale    int32
	}{
		{"1546300807250", 3}, {"1", 1}, {"-3", 1}, {"123456789012345678901234567890", 10},
		{"9007199254740993", 0}, {"12345678901234567", 2}, {"7", 30}, {"-170141183460469231731687303715884105727", 5},
		{"5", -3}, {"12", 500}, {"-12", 2000000000}, {"0", -2000000000},
	} {
		bi, _ := new(big.Int).SetString(tc.unscaled, 10)
		want, _ := strconv.ParseFloat(tc.unscaled+"e"+strconv.Itoa(-int(tc.scale)), 64)
		if got := decimalFloat(bi, tc.scale); got != want || math.Signbit(got) != math.Signbit(want) {
			t.Errorf("%se-%d: %v, want %v", tc.unscaled, tc.scale, got, want)
		}
	}
	if _, ok := decimalInt(big.NewInt(5), -2000000000); ok {
		t.Error("5e2000000000 fits in int64")
	}
	if v, ok := decimalInt(big.NewInt(1500), 2); !ok || v != 15 {
		t.Errorf("1500e-2 = %d, %v", v, ok)
	}
	if _, ok := decimalInt(big.NewInt(1501), 2); ok {
		t.Error("15.01 is whole")
	}
}

// FuzzDecimalFloat checks decimalFloat, which must round like strconv, and
// decimalInt, which must agree with it on whole numbers, on 128-bit
// unscaled values and any scale.
func FuzzDecimalFloat(f *testing.F) {
	f.Add(int64(1546300807250), uint64(0), int16(3))
	f.Add(int64(-1), uint64(1<<63), int16(38))
	f.Add(int64(7), uint64(0), int16(-5))
	f.Fuzz(func(t *testing.T, hi int64, lo uint64, scale int16) {
		bi := new(big.Int).Lsh(big.NewInt(hi), 64)
		bi.Add(bi, new(big.Int).SetUint64(lo))
		want, err := strconv.ParseFloat(bi.String()+"e"+strconv.Itoa(-int(scale)), 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			t.Fatal(err)
		}
		if got := decimalFloat(bi, int32(scale)); got != want || math.Signbit(got) != math.Signbit(want) {
			t.Fatalf("%ve%d: %v, want %v", bi, -scale, got, want)
		}
		if v, ok := decimalInt(bi, int32(scale)); ok {
			r := new(big.Rat).SetFrac(bi, big.NewInt(1))
			p := new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs32(int32(scale)))), nil))
			if scale >= 0 {
				r.Quo(r, p)
			} else {
				r.Mul(r, p)
			}
			if !r.IsInt() || r.Num().Int64() != v || !r.Num().IsInt64() {
				t.Fatalf("decimalInt(%v, %d) = %d, want %v", bi, scale, v, r)
			}
		}
	})
}
