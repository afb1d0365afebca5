package alibaba

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/data/internal/logtest"
)

// The tests read through data.ReadLog and data.ReadBytes, which need the
// format in the table (package data/logs, which registers every format,
// imports this one).
func init() { data.RegisterLogFormat(Format) }

func TestAlibaba2018Golden(t *testing.T) {
	// Hand-checked: j_1's instances: M1 runs 50 s and 59 s (map), R2 30 s
	// and J3 10 s (not the first stage: reduce): 109 and 40 task-seconds;
	// j_3's independent task runs two instances, 20 s and 29 s (its second
	// instance's retry has no times). j_2 has a Failed task, j_4 a Running
	// one, j_5's instance_num is "x"; the last instance row is short.
	logtest.Golden(t, "alibaba-2018", "../testdata/logs/alibaba", data.ReadOptions{})
	// batch_task alone: tasks are whole tasks (containers = instance_num).
	dir := t.TempDir()
	b, _ := os.ReadFile("../testdata/logs/alibaba/batch_task.csv")
	os.WriteFile(filepath.Join(dir, "batch_task.csv"), b, 0o644)
	lg, err := data.ReadLog(filepath.Join(dir, "batch_task.csv"), data.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// j_1: M1 2 instances × 60 s = 120 (map), R2 30 s and J3 10 s (reduce).
	ms, _ := lg.Jobs.MapTaskSeconds.At(0)
	rs, _ := lg.Jobs.ReduceTaskSeconds.At(0)
	if lg.Jobs.ID.At(0) != "j_1" || ms != 120 || rs != 40 {
		t.Errorf("batch_task only: %s map %v s, reduce %v s; want j_1 120, 40", lg.Jobs.ID.At(0), ms, rs)
	}
}

func TestAlibaba2018BadRecord(t *testing.T) {
	logtest.CheckBadRecord(t, Name, "M1,1,j_1,1,Terminated,1,5,100,0.5\nM1,1,j_2,1,Terminated,9,x,100,0.5\n", "batch_task.csv", 2, "end_time")
}

func FuzzReadAlibaba2018(f *testing.F) {
	b, _ := os.ReadFile("../testdata/logs/alibaba/batch_task.csv")
	f.Add(b)
	f.Add([]byte("M1,2147483647,j_1,1,Terminated,1,999999999999,1e300,0.5\n"))
	f.Fuzz(func(t *testing.T, b []byte) { logtest.CheckRead(t, b, Name) })
}
