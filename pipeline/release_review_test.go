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
	"github.com/schedplan/schedplan/pipeline/validation"
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

// TestNarrowedBytesRunVariants runs the whole pipeline on a log whose
// validation window (21,000 jobs) is longer than the task-level views'
// (TaskValidateMaxJobs lowered to 1,000) and COSHH's 20,000 together with
// its history, so that validate narrows the bytes to fewer rows than the
// window's (BytesReadTo): with every job's results (--results all), and
// as a DAG of parts (--stage/--shard/--merge, each part a process of its
// own), the runs read none of the rows dropped (a read fails the run with
// a DroppedRowError).
func TestNarrowedBytesRunVariants(t *testing.T) {
	defer func(n int) { validation.TaskValidateMaxJobs = n }(validation.TaskValidateMaxJobs)
	validation.TaskValidateMaxJobs = 1000
	cfg := releaseConfigOf(t, 30_000)
	cfg.Split = 0.3
	for _, tc := range []struct {
		name    string
		results string
		shards  int
	}{{"results all", "all", 0}, {"sharded", "", 2}} {
		t.Run(tc.name, func(t *testing.T) {
			c := cfg
			c.Results = tc.results
			dir := filepath.Join(t.TempDir(), "out")
			if tc.shards > 0 {
				shardedRun(t, dir, c, tc.shards)
				return
			}
			in, err := Prepare(c)
			if err != nil {
				t.Fatal(err)
			}
			to, err := validation.BytesReadTo(in)
			if err != nil {
				t.Fatal(err)
			}
			if to >= in.Jobs.Len() {
				t.Fatalf("bytes read to row %d of %d: the test misses its case", to, in.Jobs.Len())
			}
			if _, err := Run(context.Background(), in, &Runner{Dir: dir}); err != nil {
				t.Fatal(err)
			}
			if in.Jobs.Holds(to, to+1, data.ColInputBytes) {
				t.Errorf("row %d's bytes held after validate", to)
			}
		})
	}
}

// TestShardAfterNarrowedRun: a validate shard (fluid runs alone: it reads
// no bytes) run on Inputs whose bytes a whole Run's validate narrowed
// (BytesReadTo; its stamp then removed) must run, not fail because it asks ReleaseTuningRows for
// the window's rows, fewer of which are held (the old code: "column
// input_bytes kept for rows … already, not all of …").
func TestShardAfterNarrowedRun(t *testing.T) {
	defer func(n int) { validation.TaskValidateMaxJobs = n }(validation.TaskValidateMaxJobs)
	validation.TaskValidateMaxJobs = 1000
	cfg := releaseConfigOf(t, 30_000)
	cfg.Split = 0.3
	in, err := Prepare(cfg)
	if err != nil {
		t.Fatal(err)
	}
	to, err := validation.BytesReadTo(in)
	if err != nil {
		t.Fatal(err)
	}
	if to >= in.Jobs.Len() {
		t.Fatalf("bytes read to row %d of %d: the test misses its case", to, in.Jobs.Len())
	}
	dir := filepath.Join(t.TempDir(), "out")
	if _, err := Run(context.Background(), in, &Runner{Dir: dir}); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, StampDir, "validate.json")); err != nil {
		t.Fatal(err)
	}
	in.Config.Stages = inputs.StageOptions{Stage: "validate", Shard: "0/2", Index: 0, Count: 2}
	if _, err := Run(context.Background(), in, &Runner{Dir: dir}); err != nil {
		t.Fatalf("a validate shard after the whole run: %v", err)
	}
}
