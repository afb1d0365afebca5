package data

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"

	"github.com/schedplan/schedplan/data/internal/colfile"
)

// Bad input, one case per kind; every error must name the exact file, row
// and column.
func TestBadInput(t *testing.T) {
	pq := func(tb *Table) []byte { return tableBytes(t, tb, FormatParquet) }
	arw := func(tb *Table) []byte { return tableBytes(t, tb, FormatArrow) }
	tbl := func(cols ...any) *Table {
		tb := &Table{}
		for k := 0; k < len(cols); k += 2 {
			tb.Add(cols[k].(string), cols[k+1])
		}
		return tb
	}
	good := tbl("job_id", []string{"a", "b", "c"}, "submit_time", []float64{0, 1, 2})
	goodPQ := pq(good)
	goodArrow := arw(good)
	var stream bytes.Buffer
	WriteTable(&stream, good, FormatArrowStream)
	nan := math.NaN()

	for _, tc := range []struct {
		name   string
		format Format
		in     []byte
		mapS   string
		strict bool
		row    int
		col    string
		msg    string
	}{
		// missing required columns
		{"csv no job_id", FormatCSV, []byte("submit_time,user\n1,a\n"), "", false, 0, "job_id", "missing required column"},
		{"csv no submit_time", FormatCSV, []byte("job_id\na\n"), "", false, 0, "submit_time", "missing required column"},
		{"parquet no submit_time", FormatParquet, pq(tbl("job_id", []string{"a"})), "", false, 0, "submit_time", "missing required column"},
		{"arrow no job_id", FormatArrow, arw(tbl("submit_time", []float64{1})), "", false, 0, "job_id", "missing required column"},
		{"mapped column absent", FormatCSV, []byte("job_id,submit_time\na,1\n"), "user=owner", false, 0, "owner", "no such column"},
		{"csv header twice", FormatCSV, []byte("job_id,submit_time,job_id\na,1,b\n"), "", false, 0, "job_id", "appears twice"},
		// wrong types
		{"csv string for number", FormatCSV, []byte("job_id,submit_time\na,1\nb,2\nc,soon\n"), "", false, 3, "submit_time", `"soon" is neither a number`},
		{"csv float for integer", FormatCSV, []byte("job_id,submit_time,map_tasks\na,1,2.5\n"), "", false, 1, "map_tasks", "not an integer"},
		{"csv int32 overflow", FormatCSV, []byte("job_id,submit_time,reduce_tasks\na,1,3000000000\n"), "", false, 1, "reduce_tasks", "does not fit in int32"},
		{"csv mapped bad byte count", FormatCSV, []byte("job_id,submit_time,in\na,1,\nb,2,12x\n"), "input_bytes=in", false, 2, "in (input_bytes)", `"12x" is not an integer`},
		{"parquet string submit", FormatParquet, pq(tbl("job_id", []string{"a"}, "submit_time", []string{"x"})), "", false, 0, "submit_time", "has type utf8"},
		{"parquet bool bytes", FormatParquet, pq(tbl("job_id", []string{"a"}, "submit_time", []float64{1}, "input_bytes", []bool{true})), "", false, 0, "input_bytes", "has type bool"},
		{"parquet fractional task count", FormatParquet, pq(tbl("job_id", []string{"a", "b"}, "submit_time", []float64{1, 2}, "map_tasks", []float64{1, 1.5})), "", false, 2, "map_tasks", "not a whole number"},
		{"arrow float job_id", FormatArrow, arw(tbl("job_id", []float64{1}, "submit_time", []float64{1})), "", false, 0, "job_id", "has type float64"},
		// NaN / Inf
		{"csv NaN size", FormatCSV, []byte("job_id,submit_time,size\na,1,1\nb,2,NaN\n"), "", false, 2, "size", "NaN is not a finite"},
		{"parquet NaN task-seconds", FormatParquet, nanParquet(t, "map_task_seconds", []float64{3, nan}), "", false, 2, "map_task_seconds", "NaN"},
		{"arrow Inf submit", FormatArrow, arw(tbl("job_id", []string{"a"}, "submit_time", []float64{math.Inf(1)})), "", false, 1, "submit_time", "+Inf"},
		{"csv Inf finish", FormatCSV, []byte("job_id,submit_time,finish_time\na,1,-Inf\n"), "", false, 1, "finish_time", "-Inf is not a finite number"},
		// negative amounts
		{"csv negative size", FormatCSV, []byte("job_id,submit_time,size\na,1,-2\n"), "", false, 1, "size", "-2 is not a finite non-negative"},
		{"parquet negative bytes", FormatParquet, pq(tbl("job_id", []string{"a", "b"}, "submit_time", []float64{1, 2}, "shuffle_bytes", []int64{1, -5})), "", false, 2, "shuffle_bytes", "negative byte count -5"},
		{"arrow negative task-seconds", FormatArrow, arw(tbl("job_id", []string{"a"}, "submit_time", []float64{1}, "reduce_task_seconds", []float64{-0.5})), "", false, 1, "reduce_task_seconds", "-0.5"},
		{"csv negative task count", FormatCSV, []byte("job_id,submit_time,map_tasks\na,1,3\nb,1,-1\n"), "", false, 2, "map_tasks", "negative task count -1"},
		{"tsv negative bytes", FormatTSV, []byte("a\t1\t1\t0\t-1\t0\n"), "", false, 1, "shuffle_bytes", "negative byte count"},
		{"csv negative submit", FormatCSV, []byte("job_id,submit_time\na,-1\n"), "", false, 1, "submit_time", "not a finite non-negative"},
		// values outside the representable ranges (see the package doc)
		{"csv size 1e307", FormatCSV, []byte("job_id,submit_time,size\na,1,1\nb,2,1e307\n"), "", false, 2, "size", "1e+307 s is larger than 1e+12 s"},
		{"csv size 1e308", FormatCSV, []byte("job_id,submit_time,size\na,1,1e308\n"), "", false, 1, "size", "1e+308 s is larger than 1e+12 s"},
		{"parquet task-seconds 1e300", FormatParquet, pq(tbl("job_id", []string{"a", "b"}, "submit_time", []float64{1, 2}, "reduce_task_seconds", []float64{3, 1e300})), "", false, 2, "reduce_task_seconds", "larger than 1e+12"},
		{"csv submit 1e308", FormatCSV, []byte("job_id,submit_time\na,1\nb,1e308\n"), "", false, 2, "submit_time", "1e+308 s is later than 1e+11 s"},
		{"csv submit 1e15", FormatCSV, []byte("job_id,submit_time\na,1e15\nb,1.0000000001e15\n"), "", false, 1, "submit_time", "milliseconds"},
		{"csv mapped ms submit 1e15 s", FormatCSV, []byte("t,id\n1e18,a\n"), "submit_time=t:ms,job_id=id", false, 1, "t (submit_time)", "1e+15 s is later than"},
		{"arrow start 1e12", FormatArrow, arw(tbl("job_id", []string{"a"}, "submit_time", []float64{1}, "start_time", []float64{1e12})), "", false, 1, "start_time", "later than 1e+11 s"},
		{"csv int64-max bytes", FormatCSV, []byte("job_id,submit_time,input_bytes\na,1,9223372036854775807\n"), "", false, 1, "input_bytes", "larger than 9007199254740992 B"},
		{"tsv int64-max bytes", FormatTSV, []byte("a\t1\t1\t0\t9223372036854775807\t0\n"), "", false, 1, "shuffle_bytes", "larger than 9007199254740992 B"},
		{"csv huge task count", FormatCSV, []byte("job_id,submit_time,map_tasks\na,1,2147483647\n"), "", false, 1, "map_tasks", "more than 10000000 tasks"},
		{"csv priority 0", FormatCSV, []byte("job_id,submit_time,priority\na,1,1\nb,2,0\n"), "", false, 2, "priority", "priority 0 is outside 1..10000"},
		{"csv priority -5", FormatCSV, []byte("job_id,submit_time,priority\na,1,-5\n"), "", false, 1, "priority", "priority -5 is outside 1..10000"},
		{"csv priority int32 max", FormatCSV, []byte("job_id,submit_time,priority\na,1,2147483647\n"), "", false, 1, "priority", "priority 2147483647 is outside 1..10000"},
		{"parquet priority 0", FormatParquet, pq(tbl("job_id", []string{"a"}, "submit_time", []float64{1}, "priority", []int32{0})), "", false, 1, "priority", "outside 1..10000"},
		// observed times out of order
		{"csv start before submit", FormatCSV, []byte("job_id,submit_time,start_time,finish_time\na,1,2,3\nb,10,9,12\n"), "", false, 2, "start_time", "start time 9 s is before the submit time 10 s"},
		{"csv finish before start", FormatCSV, []byte("job_id,submit_time,start_time,finish_time\na,1,5,4\n"), "", false, 1, "finish_time", "finish time 4 s is before the start time 5 s"},
		{"csv finish before submit", FormatCSV, []byte("job_id,submit_time,start_time,finish_time\na,1,,3\nb,5,,4\n"), "", false, 2, "finish_time", "finish time 4 s is before the submit time 5 s"},
		{"parquet finish before start", FormatParquet, pq(tbl("job_id", []string{"a", "b"}, "submit_time", []float64{1, 2}, "start_time", []float64{1, 3}, "finish_time", []float64{2, 2.5})), "", false, 2, "finish_time", "before the start time"},
		// ids
		{"csv duplicate ids", FormatCSV, []byte("job_id,submit_time\na,1\nb,2\na,3\nc,4\nb,5\n"), "", false, 3, "job_id", `"a" (rows 1 and 3), "b" (rows 2 and 5)`},
		{"parquet duplicate ids", FormatParquet, pq(tbl("job_id", []string{"x", "y", "x"}, "submit_time", []float64{1, 2, 3})), "", false, 3, "job_id", `"x" (rows 1 and 3)`},
		{"csv empty id", FormatCSV, []byte("job_id,submit_time\na,1\n,2\n"), "", false, 2, "job_id", "empty job id"},
		{"csv empty submit", FormatCSV, []byte("job_id,submit_time\na,\n"), "", false, 1, "submit_time", "empty submit time"},
		// empty files
		{"csv empty", FormatCSV, nil, "", false, 0, "", "empty file"},
		{"csv header only", FormatCSV, []byte("job_id,submit_time\n"), "", false, 0, "", "no jobs"},
		{"tsv empty", FormatTSV, []byte(""), "", false, 0, "", "no jobs"},
		{"parquet empty", FormatParquet, nil, "", false, 0, "", "empty file"},
		{"arrow empty", FormatArrow, []byte{}, "", false, 0, "", "empty file"},
		{"parquet zero rows", FormatParquet, pq(tbl("job_id", []string{}, "submit_time", []float64{})), "", false, 0, "", "no jobs"},
		// truncated files
		{"parquet truncated", FormatParquet, goodPQ[:len(goodPQ)/2], "", false, 0, "", "truncated Parquet file"},
		{"parquet footer cut", FormatParquet, append(append([]byte{}, goodPQ[:len(goodPQ)-20]...), colfile.ParquetMagic...), "", false, 0, "", "corrupt Parquet file: the footer declares"},
		{"not parquet", FormatParquet, []byte("job_id,submit_time\n"), "", false, 0, "", "not a Parquet file"},
		{"arrow file truncated", FormatArrow, goodArrow[:len(goodArrow)-30], "", false, 0, "", "truncated Arrow IPC file"},
		{"arrow stream truncated", FormatArrow, stream.Bytes()[:stream.Len()/2], "", false, 0, "", "stream"},
		{"csv short row", FormatCSV, []byte("job_id,submit_time,user,queue\na,1,u,q\nb,2,u\n"), "", false, 2, "queue", "the row has 3 fields, the header 4 (truncated file?)"},
		{"csv long row", FormatCSV, []byte("job_id,submit_time\na,1,x\n"), "", false, 1, "", "the row has 3 fields"},
		{"csv unterminated quote", FormatCSV, []byte("job_id,submit_time\na,1\n\"b,2\n"), "", false, 2, "", "malformed CSV"},
		{"tsv short row", FormatTSV, []byte("a\t1\t1\t0\t0\t0\nb\t2\t1\t5\n"), "", false, 2, "shuffle_bytes", "truncated file?"},
		// unsorted with --strict
		{"csv unsorted strict", FormatCSV, []byte("job_id,submit_time\na,1\nb,3\nc,2\n"), "", true, 3, "submit_time", "not sorted"},
		// null submit time in a columnar file
		{"parquet null submit", FormatParquet, nullSubmitParquet(t), "", false, 2, "submit_time", "null submit time"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var m Mapping
			if tc.mapS != "" {
				var err error
				if m, err = ParseMapping(tc.mapS); err != nil {
					t.Fatal(err)
				}
			}
			file := "bad." + string(tc.format)
			j, err := ReadBytes(tc.in, file, ReadOptions{Format: tc.format, Map: m, Strict: tc.strict})
			if err == nil {
				t.Fatalf("accepted: %d jobs", j.Len())
			}
			t.Log(err)
			checkInputError(t, err, file, tc.row, tc.col, tc.msg)
		})
	}
}

// nullSubmitParquet is a Parquet file whose submit_time column is nullable
// and null in row 2.
func nullSubmitParquet(t *testing.T) []byte {
	j := &Jobs{Submit: []float64{1, 2, 3}}
	for _, id := range []string{"a", "b", "c"} {
		j.ID.Append(id)
	}
	ids := stringsArray(&j.ID, 3)
	defer ids.Release()
	valid := NewBitmap(3)
	valid.SetNull(1)
	sub := colfile.PrimitiveArray(arrow.PrimitiveTypes.Float64, 3, arrow.Float64Traits.CastToBytes(j.Submit), bitmapBytes(valid, 3))
	defer sub.Release()
	rec := array.NewRecord(arrow.NewSchema([]arrow.Field{
		{Name: ColJobID, Type: ids.DataType()},
		{Name: ColSubmit, Type: sub.DataType(), Nullable: true},
	}, nil), []arrow.Array{ids, sub}, 3)
	defer rec.Release()
	var b bytes.Buffer
	if err := colfile.WriteParquet(&b, rec, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestUnsortedSorted checks that unsorted submit times are sorted, with a
// warning naming the file, when not strict.
func TestUnsortedSorted(t *testing.T) {
	var warnings []string
	j, err := ReadBytes([]byte("job_id,submit_time,user\na,5,x\nb,1,y\nc,3,z\n"), "u.csv",
		ReadOptions{Format: FormatCSV, Warn: func(s string) { warnings = append(warnings, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if !equalFloats(j.Submit, []float64{1, 3, 5}) || j.ID.At(0) != "b" || j.UserAt(2) != "x" {
		t.Errorf("not sorted with their rows: %v", j.Submit)
	}
	if len(warnings) != 1 || !bytes.Contains([]byte(warnings[0]), []byte("u.csv")) {
		t.Errorf("warnings %q", warnings)
	}
}

// TestReadFileNamesPath checks that errors from ReadFile name the path.
func TestReadFileNamesPath(t *testing.T) {
	p := filepath.Join(t.TempDir(), "jobs.csv")
	os.WriteFile(p, []byte("job_id,submit_time\na,1\nb,x\n"), 0o644)
	_, err := ReadFile(p, ReadOptions{})
	checkInputError(t, err, p, 2, ColSubmit, `"x"`)
	before, _ := os.ReadFile(p)
	if string(before) != "job_id,submit_time\na,1\nb,x\n" {
		t.Error("input modified")
	}
}

// TestDuplicateIDs checks the partitioned duplicate finder against a map on
// tables large enough to use many partitions.
func TestDuplicateIDs(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{2, 100, 40_000, 200_000} {
		for _, ndup := range []int{0, 1, 3, 5, 50} {
			var s Strings
			ids := make([]string, n)
			for i := range ids {
				ids[i] = "id" + strconv.Itoa(i)
			}
			for k := 0; k < ndup; k++ { // copy an earlier id onto a later row
				a, b := rng.IntN(n), rng.IntN(n)
				if a > b {
					a, b = b, a
				}
				if a != b {
					ids[b] = ids[a]
				}
			}
			for _, id := range ids {
				s.Append(id)
			}
			// Reference: first occurrence of each id; report each repeated
			// id once, at its second occurrence, in row order.
			first := map[string]int{}
			var want [][2]int
			reported := map[string]bool{}
			for i, id := range ids {
				if f, ok := first[id]; ok {
					if !reported[id] {
						reported[id] = true
						want = append(want, [2]int{f, i})
					}
					continue
				}
				first[id] = i
			}
			if len(want) > maxDuplicatesListed {
				want = want[:maxDuplicatesListed]
			}
			got := duplicateIDs(&s, maxDuplicatesListed)
			if len(got) != len(want) {
				t.Fatalf("n %d dups %d: got %v, want %v", n, ndup, got, want)
			}
			for k := range got {
				if got[k] != want[k] {
					t.Fatalf("n %d dups %d: got %v, want %v", n, ndup, got, want)
				}
			}
		}
	}
}

// nanParquet writes a Parquet log of len(v) jobs whose float column col
// holds v with every NaN a value, as other writers do (WriteTable writes a
// NaN as NULL).
func nanParquet(t *testing.T, col string, v []float64) []byte {
	t.Helper()
	tb := &Table{}
	ids := make([]string, len(v))
	submit := make([]float64, len(v))
	for i := range v {
		ids[i], submit[i] = fmt.Sprint("j", i), float64(i)
	}
	tb.Add("job_id", ids)
	tb.Add("submit_time", submit)
	rec := tb.Record()
	defer rec.Release()
	nanCol := colfile.PrimitiveArray(arrow.PrimitiveTypes.Float64, len(v), arrow.Float64Traits.CastToBytes(v), nil)
	defer nanCol.Release()
	schema := arrow.NewSchema(append(rec.Schema().Fields(), arrow.Field{Name: col, Type: arrow.PrimitiveTypes.Float64}), nil)
	withNaN := array.NewRecord(schema, append(rec.Columns(), nanCol), int64(len(v)))
	defer withNaN.Release()
	var b bytes.Buffer
	if err := colfile.WriteParquet(&b, withNaN, nil); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
