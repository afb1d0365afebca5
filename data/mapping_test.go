package data

import (
	"bytes"
	"math"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/memory"

	"github.com/schedplan/schedplan/data/internal/colfile"
)

func tableBytes(t testing.TB, tb *Table, f Format) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := WriteTable(&b, tb, f); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestMappingAllReaders reads the same renamed log (times in ms) from
// Parquet, Arrow IPC file and stream and CSV through one mapping.
func TestMappingAllReaders(t *testing.T) {
	src := &Table{}
	src.Add("id", []string{"j1", "j2", "j3"})
	src.Add("ts", []int64{1000, 2500, 2501})
	src.Add("owner", []string{"ann", "bob", "ann"})
	src.Add("pool", []string{"prod", "prod", "adhoc"})
	src.Add("in", []int64{10, 0, 1 << 40})
	src.Add("secs", []float64{1.5, 0, 2})
	src.Add("extra", []bool{true, false, true})
	m, err := ParseMapping("job_id=id, submit_time=ts:ms, user=owner, queue=pool, input_bytes=in, map_task_seconds=secs")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []Format{FormatParquet, FormatArrow, FormatArrowStream, FormatCSV} {
		j, err := ReadBytes(tableBytes(t, src, f), "m", ReadOptions{Format: f, Map: m})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if j.Len() != 3 || j.ID.At(2) != "j3" {
			t.Fatalf("%s: ids wrong", f)
		}
		if want := []float64{1, 2.5, 2.501}; !equalFloats(j.Submit, want) {
			t.Errorf("%s: submit %v, want %v", f, j.Submit, want)
		}
		if j.UserAt(1) != "bob" || j.UserAt(2) != "ann" {
			t.Errorf("%s: users wrong", f)
		}
		if q, _ := j.Queue.At(2); q != "adhoc" {
			t.Errorf("%s: queue %q", f, q)
		}
		if v, _ := j.InputBytes.At(2); v != 1<<40 {
			t.Errorf("%s: input_bytes %d", f, v)
		}
		if v, _ := j.MapTaskSeconds.At(0); v != 1.5 {
			t.Errorf("%s: map_task_seconds %v", f, v)
		}
		if j.Present(ColSize) || j.Present(ColPriority) {
			t.Errorf("%s: absent columns present", f)
		}
	}
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// TestTimeUnits checks every unit on integer and float columns, in CSV and
// Parquet.
func TestTimeUnits(t *testing.T) {
	for _, tc := range []struct {
		unit string
		i    int64
		f    float64
		want float64
	}{
		{"s", 7, 7.25, 7},
		{"ms", 7250, 7250, 7.25},
		{"us", 7250000, 7250000, 7.25},
		{"ns", 1_234_567_890_123_456_789, 1.5e18, 1_234_567_890.123456789},
	} {
		m, err := ParseMapping("submit_time=t:" + tc.unit + ",start_time=tf:" + tc.unit)
		if err != nil {
			t.Fatal(err)
		}
		src := &Table{}
		src.Add("job_id", []string{"a"})
		src.Add("t", []int64{tc.i})
		src.Add("tf", []float64{tc.f})
		for _, f := range []Format{FormatParquet, FormatCSV} {
			j, err := ReadBytes(tableBytes(t, src, f), "u", ReadOptions{Format: f, Map: m})
			if err != nil {
				t.Fatalf("%s %s: %v", tc.unit, f, err)
			}
			if j.Submit[0] != tc.want {
				t.Errorf("%s %s: integer time %v, want %v", tc.unit, f, j.Submit[0], tc.want)
			}
			wantF := tc.f / TimeUnit(tc.unit).PerSecond()
			if v, _ := j.Start.At(0); v != wantF {
				t.Errorf("%s %s: float time %v, want %v", tc.unit, f, v, wantF)
			}
		}
	}
}

// TestArrowTimestamps reads Arrow timestamp columns of every unit from
// Parquet and Arrow IPC, with nulls.
func TestArrowTimestamps(t *testing.T) {
	mem := memory.DefaultAllocator
	ids := array.NewStringBuilder(mem)
	ids.AppendValues([]string{"a", "b"}, nil)
	idArr := ids.NewArray()
	fields := []arrow.Field{{Name: "job_id", Type: arrow.BinaryTypes.String}}
	arrs := []arrow.Array{idArr}
	want := map[string][]float64{}
	for _, c := range []struct {
		name string
		unit arrow.TimeUnit
		v    []int64
		w    []float64
	}{
		{"submit_time", arrow.Microsecond, []int64{1_600_000_000_000_000, 1_600_000_000_500_000}, []float64{1.6e9, 1.6000000005e9}},
		{"start_time", arrow.Second, []int64{1_600_000_001, 0}, []float64{1_600_000_001, 0}},
		{"finish_time", arrow.Nanosecond, []int64{1_600_000_002_000_000_000, 0}, []float64{1_600_000_002, 0}},
		{"ms", arrow.Millisecond, []int64{1500, 2500}, []float64{1.5, 2.5}},
	} {
		typ := &arrow.TimestampType{Unit: c.unit, TimeZone: "UTC"}
		b := array.NewTimestampBuilder(mem, typ)
		for k, v := range c.v {
			if k == 1 && (c.name == "start_time" || c.name == "finish_time") {
				b.AppendNull()
			} else {
				b.Append(arrow.Timestamp(v))
			}
		}
		fields = append(fields, arrow.Field{Name: c.name, Type: typ, Nullable: true})
		arrs = append(arrs, b.NewArray())
		want[c.name] = c.w
	}
	rec := array.NewRecord(arrow.NewSchema(fields, nil), arrs, 2)
	m, _ := ParseMapping("size=ms") // not a time column: a timestamp there is a type error
	for _, f := range []Format{FormatParquet, FormatArrow} {
		var buf bytes.Buffer
		var err error
		if f == FormatParquet {
			err = colfile.WriteParquet(&buf, rec, nil)
		} else {
			err = colfile.WriteArrow(&buf, rec, false)
		}
		if err != nil {
			t.Fatal(err)
		}
		j, err := ReadBytes(buf.Bytes(), "ts", ReadOptions{Format: f})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !equalFloats(j.Submit, want["submit_time"]) {
			t.Errorf("%s: submit %v, want %v", f, j.Submit, want["submit_time"])
		}
		if v, ok := j.Start.At(0); !ok || v != want["start_time"][0] {
			t.Errorf("%s: start %v", f, v)
		}
		if v, ok := j.Finish.At(0); !ok || v != want["finish_time"][0] {
			t.Errorf("%s: finish %v", f, v)
		}
		if _, ok := j.Finish.At(1); ok {
			t.Errorf("%s: null finish read as valid", f)
		}
		m2, _ := ParseMapping("submit_time=ms")
		if j, err := ReadBytes(buf.Bytes(), "ts", ReadOptions{Format: f, Map: m2}); err != nil || !equalFloats(j.Submit, []float64{1.5, 2.5}) {
			t.Errorf("%s: ms timestamps: %v %v", f, err, j)
		}
		_, err = ReadBytes(buf.Bytes(), "ts", ReadOptions{Format: f, Map: m})
		checkInputError(t, err, "ts", 0, "ms (size)", "has type timestamp")
	}
}

func TestCSVRFC3339(t *testing.T) {
	in := "job_id,submit_time,finish_time\na,2009-01-01T00:00:01.5Z,2009-01-01T01:00:02+01:00\nb,1230768002,\n"
	j, err := ReadBytes([]byte(in), "r.csv", ReadOptions{Format: FormatCSV})
	if err != nil {
		t.Fatal(err)
	}
	if j.Submit[0] != 1230768001.5 || j.Submit[1] != 1230768002 {
		t.Errorf("submit %v", j.Submit)
	}
	if v, ok := j.Finish.At(0); !ok || v != 1230768002 {
		t.Errorf("finish %v", v)
	}
	if _, ok := j.Finish.At(1); ok {
		t.Error("empty finish read as valid")
	}
}

// TestParseMapping covers the accepted forms and each rejection.
func TestParseMapping(t *testing.T) {
	m, err := ParseMapping(" submit_time = ts:ms , user=owner,finish_time=:us")
	if err != nil {
		t.Fatal(err)
	}
	if m[ColSubmit] != (SourceColumn{"ts", Milliseconds}) || m[ColUser] != (SourceColumn{"owner", ""}) ||
		m[ColFinish] != (SourceColumn{ColFinish, Microseconds}) {
		t.Errorf("parsed %v", m)
	}
	if m.Source(ColQueue) != (SourceColumn{Name: ColQueue}) {
		t.Error("unmapped column not looked up under its own name")
	}
	for _, bad := range []string{"submit_time", "=ts", "nope=x", "user=a,user=b", "user=x,queue=x",
		"submit_time=ts:h", "size=x:ms", "user=", "user=:"} {
		if _, err := ParseMapping(bad); err == nil {
			t.Errorf("ParseMapping(%q) accepted", bad)
		}
	}
	if m, err := ParseMapping(""); err != nil || len(m) != 0 {
		t.Errorf("empty mapping: %v %v", m, err)
	}
	if !strings.Contains(func() string { _, e := ParseMapping("nope=x"); return e.Error() }(), "known columns") {
		t.Error("unknown column message does not list the known ones")
	}
}

// TestMappingSwap maps columns onto each other's names: a source column
// claimed by the mapping is not also read under its own name.
func TestMappingSwap(t *testing.T) {
	in := "job_id,submit_time,start_time,x,x\na,10,1,u,v\nb,20,2,u,v\n"
	m, _ := ParseMapping("submit_time=start_time")
	j, err := ReadBytes([]byte(in), "s.csv", ReadOptions{Format: FormatCSV, Map: m})
	if err != nil {
		t.Fatal(err)
	}
	if !equalFloats(j.Submit, []float64{1, 2}) || j.Present(ColStart) {
		t.Errorf("submit %v, start present %v", j.Submit, j.Present(ColStart))
	}
	m, _ = ParseMapping("submit_time=start_time,start_time=submit_time")
	j, err = ReadBytes([]byte(in), "s.csv", ReadOptions{Format: FormatCSV, Map: m})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := j.Start.At(1); !equalFloats(j.Submit, []float64{1, 2}) || v != 20 {
		t.Errorf("swap: submit %v, start %v", j.Submit, j.Start.Values)
	}
}
