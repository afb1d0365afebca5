package pipeline

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/pipeline/inputs"
)

// tasksTableLog writes a log of n jobs with a tasks table (--tasks: two
// map tasks a job, no byte columns) and prepares it.
func tasksTableLog(t *testing.T, n int) *inputs.Inputs {
	t.Helper()
	dir := t.TempDir()
	var jobs, tasks strings.Builder
	jobs.WriteString("job_id,submit_time,user,map_tasks,reduce_tasks\n")
	tasks.WriteString("job_id,stage,task_id,start_time,finish_time\n")
	for i := range n {
		fmt.Fprintf(&jobs, "j%d,%d,u%d,2,0\n", i, 10*i, i%5)
		for k := range 2 {
			fmt.Fprintf(&tasks, "j%d,map,%d,%d,%d\n", i, k, 10*i, 10*i+5+i%13)
		}
	}
	jp, tp := filepath.Join(dir, "jobs.csv"), filepath.Join(dir, "tasks.csv")
	for p, s := range map[string]string{jp: jobs.String(), tp: tasks.String()} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := testConfig()
	cfg.Trace, cfg.Tasks, cfg.Budget, cfg.Runs = jp, tp, 40, 1
	in, err := Prepare(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// TestTasksTableDeployRefusedAfterValidate: with a tasks table, tune-deploy
// finds its chunks' tasks by job id (tasklevel's table lookup, the chunks'
// task budget), and validate released the tuning window's ids
// (ReleaseTuningRows); tune-deploy computed again on the same Inputs (its
// stamp removed, a second Run) must be refused (ErrTuningRowsReleased),
// not read a dropped id. The old CheckTuningRows looked at the bytes alone
// for tune-deploy: on a log whose bytes it holds (here none) it let the
// stage run into a DroppedRowError.
func TestTasksTableDeployRefusedAfterValidate(t *testing.T) {
	in := tasksTableLog(t, 1500)
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := Run(context.Background(), in, &Runner{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	if !in.Jobs.Kept(data.ColJobID) {
		t.Fatal("validate kept every job id: the test misses its case")
	}
	if err := os.Remove(filepath.Join(dir, StampDir, "tune-deploy.json")); err != nil {
		t.Fatal(err)
	}
	_, err := Run(context.Background(), in, &Runner{Dir: dir})
	var d *data.DroppedRowError
	switch {
	case errors.As(err, &d):
		t.Fatalf("tune-deploy again: a dropped row was read: %v", err)
	case !errors.Is(err, inputs.ErrTuningRowsReleased) || !strings.Contains(err.Error(), "stage tune-deploy:"):
		t.Fatalf("tune-deploy again on released ids: %v, want ErrTuningRowsReleased naming it", err)
	}
}
