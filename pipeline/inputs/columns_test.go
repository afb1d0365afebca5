package inputs

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
)

// TestDescribeColumns: describe of a jobs table with a state column, a
// memory column and bytes beside task-seconds prints every column as used
// or ignored with why, and the failed jobs dropped (the default stated);
// --keep-failed keeps them and says so.
func TestDescribeColumns(t *testing.T) {
	p := filepath.Join(t.TempDir(), "log.csv")
	log := "job_id,submit_time,status,memory_mb,queue,map_task_seconds,input_bytes\n" +
		"a,1,SUCCEEDED,1024,prod,10,100\nb,2,FAILED,2048,dev,20,200\nc,3,KILLED,1024,prod,5,50\nd,4,SUCCEEDED,1024,dev,8,80\n"
	if err := os.WriteFile(p, []byte(log), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, keep := range []bool{false, true} {
		w, err := DescribeLog(InputOptions{Trace: p, Read: data.ReadOptions{Log: data.LogOptions{KeepFailed: keep}}}, estimate.DefaultSizeOptions())
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		w.WriteText(&b, 5)
		out := b.String()
		want := []string{
			"columns used: job_id, submit_time, queue, map_task_seconds, input_bytes",
			"input_bytes: read, but not the size: sizes come from task-seconds",
			"column ignored: memory_mb: per-job resources are not modelled",
			"state column status: 2 failed or killed jobs dropped (the default; --keep-failed keeps them): 1 FAILED, 1 KILLED",
		}
		jobs := 2
		if keep {
			want[3] = "state column status: 2 failed or killed jobs kept (--keep-failed)"
			jobs = 4
		}
		for _, s := range want {
			if !strings.Contains(out, s) {
				t.Errorf("keep %v: no %q in\n%s", keep, s, out)
			}
		}
		if w.Jobs != jobs {
			t.Errorf("keep %v: %d jobs", keep, w.Jobs)
		}
	}
}
