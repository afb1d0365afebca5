package data

import (
	"bytes"
	"errors"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/apache/arrow/go/v17/parquet"
	"github.com/apache/arrow/go/v17/parquet/compress"

	"github.com/schedplan/schedplan/data/internal/colfile"
)

// The fuzz targets below run their seed corpora (f.Add and testdata/fuzz)
// as ordinary tests; fuzz them with, for example,
//
//	go test ./data -run '^$' -fuzz FuzzReadCSV -fuzztime 1m

// checkReadResult asserts what every reader guarantees: an error is an
// *InputError (or a plain error for unsupported input); an accepted table is
// valid, sorted, and survives its own format and Parquet unchanged.
func checkReadResult(t *testing.T, j *Jobs, err error, f Format, cols []string) {
	if err != nil {
		var ie *InputError
		if !errors.As(err, &ie) {
			t.Fatalf("error is not an *InputError: %v", err)
		}
		if ie.File != "fuzz" {
			t.Fatalf("error names file %q", ie.File)
		}
		return
	}
	if err := Validate(j); err != nil {
		t.Fatalf("accepted table fails validation: %v", err)
	}
	if !j.SortedBySubmit() {
		t.Fatal("accepted table is not sorted")
	}
	for _, g := range []Format{f, FormatParquet} {
		var b bytes.Buffer
		if err := Write(&b, j, g); err != nil {
			t.Fatalf("write %s: %v", g, err)
		}
		back, err := ReadBytes(b.Bytes(), "fuzz", ReadOptions{Format: g, Strict: true})
		if err != nil {
			t.Fatalf("%s written from an accepted table does not read back: %v\n%q", g, err, b.Bytes())
		}
		if d := diffJobs(j, back, cols); d != "" {
			t.Fatalf("%s round trip: %s", g, d)
		}
	}
}

func FuzzReadTSV(f *testing.F) {
	emb, _ := traceFS.ReadFile(embeddedTraces["fb2009-50"])
	f.Add(emb)
	f.Add([]byte("job0\t0\t0\t740773\t2339561\t627471\njob1\t79\t79\t0\t0\t0\n"))
	f.Add([]byte("a\t1.5\t1.5\t1\t2\t3\r\n\nb\t0.5\t-1\t0\t0\t0\n"))
	f.Add([]byte("a\t1\t1\t1\t2\n"))
	f.Add([]byte("a\tNaN\t1\t1\t2\t3\n"))
	f.Add([]byte("a\t1\t1\t1\t2\t3\t4\n"))
	f.Add([]byte("a\t1\t1\t1\t2\t3\na\t2\t1\t1\t2\t3\n"))
	f.Add([]byte("job0\t1\t1\t2267942\t0\t1937944\tinputPath1\t\t\njob1\t2\t1\t20791551476\t12295202125\t1491950225\tinputPath2\toutputPath1\t\n")) // SWIM's 9 columns
	f.Fuzz(func(t *testing.T, in []byte) {
		j, err := ReadBytes(in, "fuzz", ReadOptions{Format: FormatTSV})
		checkReadResult(t, j, err, FormatTSV, tsvCanonical)
	})
}

func FuzzReadCSV(f *testing.F) {
	f.Add([]byte("job_id,submit_time\na,1\n"), "")
	f.Add([]byte("job_id,submit_time,user,queue,priority,start_time,finish_time,map_tasks,reduce_tasks,map_task_seconds,reduce_task_seconds,input_bytes,shuffle_bytes,output_bytes,size\n"+
		"j1,0.5,ann,prod,2,1,10.25,4,1,30.5,2.5,1000,10,1,3.5\nj2,1,,,,,,,,,,,,,\n"), "")
	f.Add([]byte("id,ts,owner\n\"a,b\",1000,\"x\"\"y\"\nc,2000-01-01T00:00:00Z,\n"), "job_id=id,submit_time=ts:ms,user=owner")
	f.Add([]byte("\ufeffjob_id , submit_time\r\nx, 3\r\ny,2\r\n"), "")
	f.Add([]byte("job_id,submit_time\na,1\na,2\n"), "")
	f.Add([]byte("job_id,submit_time,size\na,1,-1\n"), "")
	f.Add([]byte("job_id,submit_time,map_tasks\na,1,1e3\n"), "")
	f.Add([]byte("t,id\n5,q\n"), "submit_time=t:ns,job_id=id")
	f.Add([]byte("job_id,submit_time,user,queue\n\"a\r\nb\",1,\"\",\n\"c\"\"\",2,,\"\"\r\n"), "")
	f.Add([]byte("job_id,submit_time,start_time,finish_time,priority\na,1,2,3,1\nb,2,1,3,0\n"), "")
	f.Add([]byte(stateCSV), "")
	f.Add([]byte("job_id,submit_time,outcome,size\na,1,FAILED,1\nb,2,,1\n"), "state=outcome")
	f.Fuzz(func(t *testing.T, in []byte, mapping string) {
		m, err := ParseMapping(mapping)
		if err != nil {
			return
		}
		j, err := ReadBytes(in, "fuzz", ReadOptions{Format: FormatCSV, Map: m})
		checkReadResult(t, j, err, FormatCSV, nil)
	})
}

func FuzzParseMapping(f *testing.F) {
	for _, s := range []string{"", "submit_time=ts:ms,user=owner", "submit_time=:us", " job_id = id ", "size=x:ms",
		"user=a,user=b", "user=x,queue=x", "a=b=c", "finish_time=f:ns,start_time=s:s", ",", "user=,"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMapping(s)
		if err != nil {
			return
		}
		again, err := ParseMapping(m.String())
		if err != nil {
			t.Fatalf("ParseMapping(%q) = %v, whose String %q does not parse: %v", s, m, m.String(), err)
		}
		if !reflect.DeepEqual(m, again) {
			t.Fatalf("ParseMapping(%q) = %v, re-parsed as %v", s, m, again)
		}
		for c, sc := range m {
			if sc.Name == "" || (sc.Unit != "" && !timeColumns[c]) {
				t.Fatalf("ParseMapping(%q): bad entry %s=%v", s, c, sc)
			}
		}
	})
}

// FuzzReadColumnar feeds corrupted Parquet and Arrow IPC files to the
// readers: they must return an error or a valid table, never panic.
func FuzzReadColumnar(f *testing.F) {
	j := mustOpen(f, "embedded:fb2009-50")
	j = j.Subset([]int{0, 1, 2, 3, 4})
	j.User = Dict{Codes: []int32{0, -1, 1, 0, 1}, Values: []string{"a", "b"}}
	j.Size = Column[float64]{Values: []float64{1, 0, 2, 3, 4}, Valid: NewBitmap(5)}
	j.Size.Valid.SetNull(1)
	for k, g := range []Format{FormatParquet, FormatArrow, FormatArrowStream} {
		var b bytes.Buffer
		if err := Write(&b, j, g); err != nil {
			f.Fatal(err)
		}
		f.Add(b.Bytes(), uint8(k))
	}
	for _, name := range []string{"testdata/duckdb-v2-small.parquet", "testdata/duckdb-v2-list.parquet"} { // BYTE_STREAM_SPLIT
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b, uint8(0))
	}
	small := v2Record(f, v2Source(20)) // Parquet format 2 encodings, data pages v2
	f.Add(writeV2(f, small, v2Props(parquet.DataPageV2, compress.Codecs.Uncompressed, 1<<20)), uint8(0))
	f.Add(withPageCRCs(f, writeV2(f, small, v2Props(parquet.DataPageV1, compress.Codecs.Uncompressed, 512))), uint8(0)) // page CRCs
	f.Add(writeV2(f, small, v2Props(parquet.DataPageV2, colfile.ParquetLZ4Raw, 512)), uint8(0))
	small.Release()
	if b, err := os.ReadFile("testdata/duckdb-v2-lz4raw.parquet"); err == nil { // DuckDB's LZ4_RAW
		f.Add(b, uint8(0))
	}
	formats := []Format{FormatParquet, FormatArrow, FormatArrowStream}
	// testdata/fuzz holds an input on which arrow-go's page reader spins
	// forever; colfile.DecodeGuarded must give up on it (here after 0.3 s, so that
	// such inputs do not stall the fuzzer: valid ones decode in milliseconds).
	// Allocations of up to 1 GiB, which a corrupt length in a small file
	// may ask for and decoders may make, would cost the fuzzer seconds each.
	old, oldBase := colfile.DecodeBudget, colfile.AllocBase
	colfile.DecodeBudget, colfile.AllocBase = 300*time.Millisecond, 16<<20
	f.Cleanup(func() { colfile.DecodeBudget, colfile.AllocBase = old, oldBase })
	f.Fuzz(func(t *testing.T, in []byte, k uint8) {
		g := formats[int(k)%len(formats)]
		j, err := ReadBytes(in, "fuzz", ReadOptions{Format: g})
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) || ie.File != "fuzz" {
				t.Fatalf("error %v is not an *InputError naming the file", err)
			}
			return
		}
		if err := Validate(j); err != nil {
			t.Fatalf("accepted table fails validation: %v", err)
		}
	})
}
