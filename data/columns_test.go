package data

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/apache/arrow/go/v17/arrow"
	"github.com/apache/arrow/go/v17/arrow/array"
	"github.com/apache/arrow/go/v17/arrow/ipc"
	"github.com/apache/arrow/go/v17/arrow/memory"
	"github.com/apache/arrow/go/v17/parquet/pqarrow"
)

// stateCSV is a log with a state column (3 of 8 jobs failed or killed,
// one written in lower case), a queue, and columns schedplan ignores.
const stateCSV = `job_id,submit_time,status,memory_mb,queue,map_task_seconds,input_bytes,job_name,owner_team
j1,1,SUCCEEDED,1024,prod,10,100,a,x
j2,2,FAILED,2048,dev,20,200,b,x
j3,3,killed,1024,prod,5,50,c,y
j4,4,SUCCEEDED,1024,dev,8,80,d,y
j5,5,,1024,prod,8,80,e,y
j6,6,FINISHED,1024,prod,8,80,f,y
j7,7,FAILED,1024,prod,8,80,g,y
j8,8,SUCCEEDED,1024,etl,8,80,h,y
`

// stateRecord is stateCSV's columns as an Arrow record (status dictionary
// encoded, as pandas and DuckDB write categories).
func stateRecord(t *testing.T) arrow.Record {
	mem := memory.DefaultAllocator
	ids, sub := array.NewStringBuilder(mem), array.NewFloat64Builder(mem)
	st := array.NewDictionaryBuilder(mem, &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}).(*array.BinaryDictionaryBuilder)
	q, mts, mb := array.NewStringBuilder(mem), array.NewFloat64Builder(mem), array.NewInt64Builder(mem)
	lines := strings.Split(strings.TrimSpace(stateCSV), "\n")[1:]
	for k, line := range lines {
		f := strings.Split(line, ",")
		ids.Append(f[0])
		sub.Append(float64(k + 1))
		if f[2] == "" {
			st.AppendNull()
		} else if err := st.AppendString(f[2]); err != nil {
			t.Fatal(err)
		}
		mb.Append(1024)
		q.Append(f[4])
		mts.Append(8)
	}
	arrs := []arrow.Array{ids.NewArray(), sub.NewArray(), st.NewArray(), mb.NewArray(), q.NewArray(), mts.NewArray()}
	sch := arrow.NewSchema([]arrow.Field{
		{Name: ColJobID, Type: arrow.BinaryTypes.String}, {Name: ColSubmit, Type: arrow.PrimitiveTypes.Float64},
		{Name: "State", Type: arrs[2].DataType(), Nullable: true}, {Name: "memory_mb", Type: arrow.PrimitiveTypes.Int64},
		{Name: ColQueue, Type: arrow.BinaryTypes.String}, {Name: ColMapTaskSeconds, Type: arrow.PrimitiveTypes.Float64},
	}, nil)
	return array.NewRecord(sch, arrs, int64(len(lines)))
}

// TestColumnReportAndFailedJobs reads a log with a state column as CSV,
// Parquet and Arrow: the failed and killed jobs are dropped by default and
// counted by state, kept with KeepFailed; the queues are kept; the report
// names every column used (bytes read but not the size, as task-seconds
// are present) and every column ignored with its reason; --map state=NAME
// names another state column.
func TestColumnReportAndFailedJobs(t *testing.T) {
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "log.csv")
	if err := os.WriteFile(csvPath, []byte(stateCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	rec := stateRecord(t)
	defer rec.Release()
	pqPath := filepath.Join(dir, "log.parquet")
	var pb bytes.Buffer
	tbl := array.NewTableFromRecords(rec.Schema(), []arrow.Record{rec})
	if err := pqarrow.WriteTable(tbl, &pb, 1024, nil, pqarrow.DefaultWriterProps()); err != nil {
		t.Fatal(err)
	}
	tbl.Release()
	os.WriteFile(pqPath, pb.Bytes(), 0o644)
	arPath := filepath.Join(dir, "log.arrow")
	af, err := os.Create(arPath)
	if err != nil {
		t.Fatal(err)
	}
	w, err := ipc.NewFileWriter(af, ipc.WithSchema(rec.Schema()))
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	w.Close()
	af.Close()
	for _, p := range []string{csvPath, pqPath, arPath} {
		for _, keep := range []bool{false, true} {
			var r *ColumnReport
			j, err := ReadFile(p, ReadOptions{Log: LogOptions{KeepFailed: keep}, Columns: func(c *ColumnReport) { r = c }})
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			want := map[bool]int{false: 5, true: 8}[keep]
			if j.Len() != want || r == nil || r.FailedTotal() != 3 || r.Failed["FAILED"] != 2 || r.Failed["KILLED"] != 1 || r.KeptFailed != keep {
				t.Fatalf("%s keep %v: %d jobs, report %+v", p, keep, j.Len(), r)
			}
			if !keep && (j.ID.At(1) != "j4" || j.ID.At(2) != "j5") {
				t.Errorf("%s: kept %s, %s", p, j.ID.At(1), j.ID.At(2))
			}
			if q, _ := j.Queue.At(j.Len() - 1); q != "etl" {
				t.Errorf("%s: last queue %q", p, q)
			}
			if !strings.EqualFold(r.State, "status") && !strings.EqualFold(r.State, "state") {
				t.Errorf("%s: state column %q", p, r.State)
			}
			s := r.String()
			for _, frag := range []string{"memory_mb: per-job resources are not modelled", "columns used: job_id, submit_time"} {
				if !strings.Contains(s, frag) {
					t.Errorf("%s: report lacks %q:\n%s", p, frag, s)
				}
			}
			if p == csvPath {
				for _, frag := range []string{"input_bytes: read, but not the size: sizes come from task-seconds", "job_name: names are not used", "owner_team: not a column schedplan reads", "dropped (the default; --keep-failed keeps them)"} {
					if keep && strings.HasPrefix(frag, "dropped") {
						frag = "kept (--keep-failed)"
					}
					if !strings.Contains(s, frag) {
						t.Errorf("report lacks %q:\n%s", frag, s)
					}
				}
			}
		}
	}
	// Without a report callback, the drop is a warning.
	var warned []string
	if _, err := ReadFile(csvPath, ReadOptions{Warn: func(m string) { warned = append(warned, m) }}); err != nil || len(warned) != 1 || !strings.Contains(warned[0], "3 failed or killed jobs dropped") {
		t.Errorf("warnings %q, %v", warned, err)
	}
	// --map state=NAME: another column is the state.
	other := strings.Replace(stateCSV, "status", "outcome", 1)
	m, err := ParseMapping("state=outcome")
	if err != nil {
		t.Fatal(err)
	}
	j, err := ReadBytes([]byte(other), "o.csv", ReadOptions{Format: FormatCSV, Map: m})
	if err != nil || j.Len() != 5 {
		t.Errorf("--map state=outcome: %v", err)
	}
	if j, err := ReadBytes([]byte(other), "o.csv", ReadOptions{Format: FormatCSV}); err != nil || j.Len() != 8 {
		t.Errorf("no state column: %v", err)
	}
	// Every job failed: an error naming the column.
	all := "job_id,submit_time,state,size\na,1,FAILED,1\nb,2,KILLED,1\n"
	_, err = ReadBytes([]byte(all), "f.csv", ReadOptions{Format: FormatCSV})
	checkInputError(t, err, "f.csv", 0, "state", "every job failed")
}

// TestColumnReportTSV: SWIM's 9-column trace reports its paths as ignored
// and its bytes as the size.
func TestColumnReportTSV(t *testing.T) {
	var r *ColumnReport
	if _, err := ReadFile(swimWithPaths, ReadOptions{Columns: func(c *ColumnReport) { r = c }}); err != nil {
		t.Fatal(err)
	}
	if r == nil || len(r.Used) != 5 || len(r.Ignored) != 3 || r.Ignored[1].Name != "input_path" || r.Used[2].Use != ColumnSpecs[11].Use {
		t.Errorf("report %+v", r)
	}
}
