package data

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
)

// sampleTasks is a small tasks table with nulls in every optional column.
func sampleTasks() *Tasks {
	var b TaskBuilder
	for i := 0; i < 7; i++ {
		r := NewTaskRow()
		r.JobID = fmt.Sprintf("job_%d", i%2)
		r.TaskID = fmt.Sprintf("t%d", i)
		r.Stage = []string{"map", "reduce", "3", ""}[i%4]
		r.Start = float64(10 * i)
		r.Finish = float64(10*i + 5 + i)
		if i != 3 {
			r.Status = []string{"SUCCEEDED", "FAILED"}[i%5/4]
			r.Containers = int32(1 + i%2)
			r.MemoryMB = int64(1024 * (i + 1))
			r.Vcores = 1
			r.Node = fmt.Sprintf("node%d", i%3)
			r.NodeType = "m5.xlarge"
			r.Map, r.Shuffle, r.Merge, r.Sort, r.Reduce = 1, 2, 0.5, 0.25, 3
			r.CPUSeconds = 4.5
			r.MemBytes, r.DiskBytes, r.NetBytes = 1<<30, 12345, 678
		}
		b.Add(&r)
	}
	return b.Tasks("sample")
}

func TestTasksRoundTrip(t *testing.T) {
	want := sampleTasks()
	if err := ValidateTasks(want); err != nil {
		t.Fatal(err)
	}
	for _, f := range []Format{FormatParquet, FormatArrow, FormatArrowStream, FormatCSV} {
		var buf bytes.Buffer
		if err := WriteTasks(&buf, want, f); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		got, err := ReadTasksBytes(buf.Bytes(), "sample", ReadOptions{Format: f})
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if d := diffTasks(want, got); d != "" {
			t.Errorf("%s round trip: %s", f, d)
		}
	}
}

// diffTasks describes the first difference between two task tables, by
// value (nulls included), "" when equal.
func diffTasks(a, b *Tasks) string {
	if a.Len() != b.Len() {
		return fmt.Sprintf("%d rows vs %d", a.Len(), b.Len())
	}
	ca, cb := a.cols(), b.cols()
	for k := range ca {
		if ca[k].present() != cb[k].present() {
			return fmt.Sprintf("column %s present %v vs %v", ca[k].name, ca[k].present(), cb[k].present())
		}
		for i := 0; i < a.Len(); i++ {
			if u, v := cellString(ca[k].ptr, i), cellString(cb[k].ptr, i); u != v {
				return fmt.Sprintf("row %d column %s: %s vs %s", i+1, ca[k].name, u, v)
			}
		}
	}
	return ""
}

func cellString(ptr any, i int) string {
	switch p := ptr.(type) {
	case *Strings:
		return p.At(i)
	case *Dict:
		v, ok := p.At(i)
		return fmt.Sprint(v, ok)
	case *Column[float64]:
		v, ok := p.At(i)
		return fmt.Sprint(math.Float64bits(v), ok)
	case *Column[int64]:
		v, ok := p.At(i)
		return fmt.Sprint(v, ok)
	case *Column[int32]:
		v, ok := p.At(i)
		return fmt.Sprint(v, ok)
	}
	return ""
}

func TestReadTasksCSVMappingAndErrors(t *testing.T) {
	in := "job,attempt,begin_ms,end_ms,status\nj1,a1,1000,3500,SUCCEEDED\nj1,a2,2000,,KILLED\n"
	m, err := ParseTaskMapping("job_id=job,task_id=attempt,start_time=begin_ms:ms,finish_time=end_ms:ms")
	if err != nil {
		t.Fatal(err)
	}
	tk, err := ReadTasksBytes([]byte(in), "log.csv", ReadOptions{Format: FormatCSV, Map: m})
	if err != nil {
		t.Fatal(err)
	}
	if tk.Len() != 2 || tk.Start.Values[0] != 1 || tk.Finish.Values[0] != 3.5 || tk.Finish.Valid.Valid(1) {
		t.Fatalf("read %+v", tk)
	}
	for _, c := range []struct {
		in, col, msg string
		row          int
	}{
		{"job_id,task_id\nj1,a\nj1,a\n", ColTaskID, "duplicate (job_id, task_id)", 2},
		{"job_id,task_id,start_time,finish_time\nj1,a,5,4\n", ColFinish, "before the start time", 1},
		{"job_id,task_id,cpu_seconds\nj1,a,-1\n", ColCPUSeconds, "non-negative", 1},
		{"job_id,task_id,containers\nj1,a,x\n", ColContainers, "not an integer", 1},
		{"job_id,task_id\nj1,\n", ColTaskID, "empty task id", 1},
		{"job_id,stage\nj1,a\n", ColTaskID, "missing required column", 0},
		// NaN and ±Inf times are errors, not nulls (a null is an empty field).
		{"job_id,task_id,start_time\nj1,a,1\nj1,b,NaN\n", ColStart, "is not a finite number", 2},
		{"job_id,task_id,start_time,finish_time\nj1,a,1,+Inf\n", ColFinish, "is not a finite number", 1},
		{"job_id,task_id,start_time\nj1,a,-inf\n", ColStart, "is not a finite number", 1},
	} {
		_, err := ReadTasksBytes([]byte(c.in), "bad.csv", ReadOptions{Format: FormatCSV})
		checkInputError(t, err, "bad.csv", c.row, c.col, c.msg)
	}
}

// TestFillFromTasks checks the task counts and task-seconds derived from a
// hand-made tasks table (seconds = containers × (finish − start)).
func TestFillFromTasks(t *testing.T) {
	j := &Jobs{Source: "jobs"}
	for _, id := range []string{"a", "b", "c"} {
		j.ID.Append(id)
	}
	j.Submit = []float64{0, 1, 2}
	// Job b's map count is given by the log and must be kept.
	j.MapTasks = Column[int32]{Values: []int32{0, 99, 0}, Valid: NewBitmap(3)}
	j.MapTasks.Valid.SetNull(0)
	j.MapTasks.Valid.SetNull(2)
	var b TaskBuilder
	add := func(job, id, stage, status string, start, finish float64, containers int32) {
		r := NewTaskRow()
		r.JobID, r.TaskID, r.Stage, r.Status, r.Start, r.Finish, r.Containers = job, id, stage, status, start, finish, containers
		b.Add(&r)
	}
	add("a", "1", "map", "", 0, 10, 1)
	add("a", "2", "map", "SUCCEEDED", 0, 4, 2)            // 8 s
	add("a", "3", "map", "FAILED", 0, 100, 1)             // not counted
	add("a", "4", "reduce", "SUCCEEDED", 10, 13, NoInt32) // 3 s, 1 container
	add("b", "1", "7", "", 5, 6, 1)                       // b's first stage: map
	add("b", "2", "9", "", 6, 9, 1)                       // later: reduce
	add("b", "3", "9", "", 6, 8, 1)
	add("zz", "1", "map", "", 0, 1, 1) // orphan
	tk := b.Tasks("tasks")
	with, orphans := j.FillFromTasks(tk)
	if with != 2 || orphans != 1 {
		t.Fatalf("jobs with tasks %d, orphans %d; want 2, 1", with, orphans)
	}
	check := func(name string, c any, want []string) {
		var got []string
		for i := 0; i < 3; i++ {
			got = append(got, cellString(c, i))
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	f := func(v float64, ok bool) string { return fmt.Sprint(math.Float64bits(v), ok) }
	check("map_tasks", &j.MapTasks, []string{"2 true", "99 true", "0 false"})
	check("reduce_tasks", &j.ReduceTasks, []string{"1 true", "2 true", "0 false"})
	check("map_task_seconds", &j.MapTaskSeconds, []string{f(18, true), f(1, true), f(0, false)})
	check("reduce_task_seconds", &j.ReduceTaskSeconds, []string{f(3, true), f(5, true), f(0, false)})
	if err := Validate(j); err != nil {
		t.Fatal(err)
	}
}

func TestStageKind(t *testing.T) {
	for _, c := range []struct {
		name         string
		isMap, known bool
	}{{"map", true, true}, {"MAP", true, true}, {"M5_3_4", true, true}, {"R2_1", false, true}, {"reduce", false, true}, {"3", false, false}, {"join", false, false}, {"Merge", false, false}} {
		m, k := StageKind(c.name)
		if m != c.isMap || k != c.known {
			t.Errorf("StageKind(%q) = %v, %v", c.name, m, k)
		}
	}
	if !strings.Contains(strings.Join(TaskColumns, ","), ColNodeType) {
		t.Fatal("node_type missing")
	}
}

// The tasks CSV writes floats as data.AppendFloat does: round-tripping,
// and plain decimals where they fit (it wrote 1.70000000025e+09 for an
// epoch start time, an exponent a spreadsheet may misread).
func TestTasksCSVFloats(t *testing.T) {
	var b TaskBuilder
	r := NewTaskRow()
	r.JobID, r.TaskID, r.Stage = "j", "t", "map"
	r.Start, r.Finish, r.CPUSeconds, r.Map = 1700000000.25, 1700001234.5, 1234567.5, 1e-7
	b.Add(&r)
	want := b.Tasks("floats")
	var buf bytes.Buffer
	if err := WriteTasks(&buf, want, FormatCSV); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, s := range []string{"1700000000.25", "1700001234.5", "1234567.5", "1e-07"} {
		if !strings.Contains(text, s) {
			t.Errorf("the CSV lacks %s:\n%s", s, text)
		}
	}
	if strings.Contains(text, "e+") {
		t.Errorf("an exponent where a plain decimal fits:\n%s", text)
	}
	got, err := ReadTasksBytes(buf.Bytes(), "floats", ReadOptions{Format: FormatCSV})
	if err != nil {
		t.Fatal(err)
	}
	if d := diffTasks(want, got); d != "" {
		t.Errorf("round trip: %s", d)
	}
}
