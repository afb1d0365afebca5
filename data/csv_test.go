package data

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// TestCSVStringsRoundTrip checks that strings survive CSV byte for byte:
// "\r\n" and lone "\r" inside quoted fields, and the empty string, which is a
// value ("") and not a null (an empty unquoted field).
func TestCSVStringsRoundTrip(t *testing.T) {
	j := &Jobs{Source: "s", Submit: []float64{1, 2, 3, 4}}
	for _, id := range []string{"a\r\nb", "c\rd", "e\n", " f,\"g\" "} {
		j.ID.Append(id)
	}
	j.User = Dict{Codes: []int32{0, 1, -1, 2}, Values: []string{"", "x\r\ny", "z\r"}}
	j.Queue = Dict{Codes: []int32{-1, 0, 0, -1}, Values: []string{""}}
	var b bytes.Buffer
	if err := Write(&b, j, FormatCSV); err != nil {
		t.Fatal(err)
	}
	back, err := ReadBytes(b.Bytes(), "s.csv", ReadOptions{Format: FormatCSV, Strict: true})
	if err != nil {
		t.Fatalf("%v\n%q", err, b.Bytes())
	}
	if d := diffJobs(j, back, nil); d != "" {
		t.Errorf("round trip: %s\n%q", d, b.Bytes())
	}
}

// TestCSVQuotedEmpty checks the reading of empty fields: "" is the empty
// string, an empty unquoted field a null.
func TestCSVQuotedEmpty(t *testing.T) {
	in := "job_id,submit_time,user,queue,size\na,1,\"\",,\"\"\nb,2,,\"\",1\r\n"
	j, err := ReadBytes([]byte(in), "e.csv", ReadOptions{Format: FormatCSV})
	if err != nil {
		t.Fatal(err)
	}
	if u, ok := j.User.At(0); !ok || u != "" {
		t.Errorf("user \"\" read as %q, valid %v", u, ok)
	}
	if _, ok := j.User.At(1); ok {
		t.Error("empty unquoted user read as a value")
	}
	if _, ok := j.Queue.At(0); ok {
		t.Error("empty unquoted queue read as a value")
	}
	if q, ok := j.Queue.At(1); !ok || q != "" {
		t.Errorf("queue \"\" read as %q, valid %v", q, ok)
	}
	if _, ok := j.Size.At(0); ok {
		t.Error("a quoted empty number is not a null")
	}
}

// TestCSVSyntax checks the reader against RFC 4180 cases and the errors of
// malformed input, which name the line and byte.
func TestCSVSyntax(t *testing.T) {
	for _, tc := range []struct {
		name, in string
		ids      []string
		err      string
	}{
		{"plain", "job_id,submit_time\na,1\nb,2\n", []string{"a", "b"}, ""},
		{"crlf", "job_id,submit_time\r\na,1\r\nb,2\r\n", []string{"a", "b"}, ""},
		{"no final newline", "job_id,submit_time\na,1\nb,2", []string{"a", "b"}, ""},
		{"final cr", "job_id,submit_time\na,1\nb,2\r", []string{"a", "b"}, ""},
		{"blank lines", "job_id,submit_time\n\na,1\r\n\r\n\nb,2\n\n", []string{"a", "b"}, ""},
		{"quoted", "job_id,submit_time\n\"a,1\",1\n\"b\"\"\",\"2\"\n", []string{"a,1", "b\""}, ""},
		{"quoted newline", "job_id,submit_time\n\"a\nb\",1\n", []string{"a\nb"}, ""},
		{"quoted crlf", "job_id,submit_time\n\"a\r\nb\",1\r\n", []string{"a\r\nb"}, ""},
		{"lone cr unquoted", "job_id,submit_time\na\rb,1\n", []string{"a\rb"}, ""},
		{"spaces kept", "job_id,submit_time\n a ,1\n", []string{" a "}, ""},
		{"bare quote", "job_id,submit_time\na\"b,1\n", nil, `line 2, byte 2: bare " in a field that is not quoted`},
		{"text after quote", "job_id,submit_time\n\"a\"b,1\n", nil, `line 2, byte 4: extraneous or missing " in a quoted field`},
		{"unterminated", "job_id,submit_time\na,1\n\"b,2\n", nil, `line 3, byte 1: quoted field not closed before the end of the file`},
		{"unterminated multiline", "job_id,submit_time\n\"a\nb,1\nc,2\n", nil, `line 2, byte 1: quoted field not closed`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j, err := ReadBytes([]byte(tc.in), "x.csv", ReadOptions{Format: FormatCSV})
			if tc.err != "" {
				if err == nil {
					t.Fatalf("accepted %q", tc.in)
				}
				checkInputError(t, err, "x.csv", rowOf(err), "", tc.err)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if j.Len() != len(tc.ids) {
				t.Fatalf("%d rows, want %d", j.Len(), len(tc.ids))
			}
			for i, id := range tc.ids {
				if j.ID.At(i) != id {
					t.Errorf("row %d: id %q, want %q", i+1, j.ID.At(i), id)
				}
			}
		})
	}
}

func rowOf(err error) int {
	if ie, ok := err.(*InputError); ok {
		return ie.Row
	}
	return -1
}

// Go's literal forms are not CSV numbers: 1_000 (which strconv.ParseFloat
// reads as 1000) and 0x1p4 are refused in every numeric column, naming the
// row, the column and the value (issue 26).
func TestCSVRefusesGoNumberForms(t *testing.T) {
	for _, tc := range []struct{ col, in string }{
		{"size", "job_id,submit_time,size\nj1,0,1_000\n"},
		{"input_bytes", "job_id,submit_time,input_bytes\nj1,0,1_000\n"},
		{"submit_time", "job_id,submit_time,size\nj1,1_000,1\n"},
		{"map_task_seconds", "job_id,submit_time,map_task_seconds\nj1,0,0x1p4\n"},
		{"map_tasks", "job_id,submit_time,size,map_tasks\nj1,0,1,1_0\n"},
	} {
		_, err := ReadBytes([]byte(tc.in), "n.csv", ReadOptions{Format: FormatCSV})
		if err == nil {
			t.Errorf("%s: accepted\n%s", tc.col, tc.in)
			continue
		}
		for _, w := range []string{"n.csv", "row 1", tc.col} {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q lacks %q", tc.col, err, w)
			}
		}
	}
	if j, err := ReadBytes([]byte("job_id,submit_time,size\nj1,1e3,2.5\n"), "ok.csv", ReadOptions{Format: FormatCSV}); err != nil || j.Submit[0] != 1000 {
		t.Errorf("1e3: %v", err)
	}
}

// A float32 value widened to float64 (a REAL column of a Parquet log) is
// written as the float32 it was, not with float64 noise (issue 26:
// 2.0970001220703125); every other value keeps its shortest round-trip
// form.
func TestAppendFloat(t *testing.T) {
	for _, tc := range []struct {
		v    float64
		want string
	}{
		{float64(float32(2.097)), "2.097"},
		{float64(float32(0.1)), "0.1"},
		{0.1, "0.1"},
		{49.81400000000001, "49.81400000000001"},
		{1e300, "1e+300"},
		// A plain decimal where one fits (0 and 1e-6 ≤ |v| < 1e21, as
		// ECMAScript's Number::toString), not 1.6777216e+07.
		{16777216, "16777216"},
		{16777217, "16777217"},
		{1700000000.25, "1700000000.25"},
		{-2.5e6, "-2500000"},
		{1e-6, "0.000001"},
		{1e-7, "1e-07"},
		{1e21, "1e+21"},
		{float64(float32(1e20)), "100000000000000000000"},
		{0, "0"},
		{0.5, "0.5"},
		{math.Inf(1), "+Inf"},
		{math.NaN(), "NaN"},
	} {
		if got := string(AppendFloat([]byte("x"), tc.v)); got != "x"+tc.want {
			t.Errorf("%v: %q, want %q", tc.v, got, "x"+tc.want)
		}
	}
}

// Every value written parses back to itself (or to the float32 it was),
// over magnitudes from 1e-300 to 1e300.
func TestAppendFloatRoundTrips(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		v := math.Pow(10, r.Float64()*600-300) * (r.Float64() - 0.5)
		if r.IntN(4) == 0 {
			v = float64(float32(v))
		}
		s := string(AppendFloat(nil, v))
		got, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatalf("%v written %q: %v", v, s, err)
		}
		if got != v && float64(float32(got)) != v {
			t.Fatalf("%v written %q reads back %v", v, s, got)
		}
		if a := math.Abs(v); a >= 1e-6 && a < 1e21 && strings.ContainsAny(s, "eE") {
			t.Fatalf("%v written %q: an exponent where a plain decimal fits", v, s)
		}
	}
}
