package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
	"github.com/schedplan/schedplan/pipeline/validation"
)

// A log whose jobs say one map task each while its tasks table (--tasks)
// gives each of them 30: the task-level views run the table's tasks
// (TaskJobsWith), so the validation window's task budget must count
// those, not the log's counts.
func TestTaskWindowCountsTasksTable(t *testing.T) {
	dir := t.TempDir()
	var jobs, tasks strings.Builder
	jobs.WriteString("job_id,submit_time,user,size,map_tasks,reduce_tasks\n")
	tasks.WriteString("job_id,stage,task_id,start_time,finish_time\n")
	const n, per = 2000, 30
	for i := range n {
		fmt.Fprintf(&jobs, "j%d,%d,u%d,600,1,0\n", i, 10*i, i%7)
		for k := range per {
			fmt.Fprintf(&tasks, "j%d,map,%d,%d,%d\n", i, k, 10*i, 10*i+20)
		}
	}
	jp, tp := filepath.Join(dir, "jobs.csv"), filepath.Join(dir, "tasks.csv")
	os.WriteFile(jp, []byte(jobs.String()), 0o644)
	os.WriteFile(tp, []byte(tasks.String()), 0o644)
	set := func(p *int, v int) { old := *p; *p = v; t.Cleanup(func() { *p = old }) }
	set(&validation.TaskValidateMaxTasks, 3000)
	set(&validation.TaskValidateMinJobs, 50)
	cfg := inputs.DefaultRunConfig()
	cfg.Trace, cfg.Tasks = jp, tp
	in, err := Prepare(cfg)
	if err != nil {
		t.Fatal(err)
	}
	lo, k, cut, err := validation.TaskWindow(in)
	if err != nil {
		t.Fatal(err)
	}
	cl, err := tasklevel.TaskCluster(in.Spec)
	if err != nil {
		t.Fatal(err)
	}
	win, err := in.Window(lo, lo+k)
	if err != nil {
		t.Fatal(err)
	}
	built, err := tasklevel.ModelTaskJobs(in.Jobs, in.Tasks, win, lo, in.Capacity, in.Spec, cl.Rate(), in.Config.Seed)
	if err != nil {
		t.Fatal(err)
	}
	sum := 0
	for i := range built {
		sum += built[i].NumTasks()
	}
	t.Logf("window %d jobs from row %d, note %q, tasks simulated %d", k, lo+1, cut, sum)
	if k > 50 && sum > 3000 {
		t.Errorf("validation window of %d jobs simulates %d tasks, over the budget of 3000", k, sum)
	}
	// A floor above the budget: the note says the floor holds the tasks.
	set(&validation.TaskValidateMaxTasks, 100)
	if _, k, cut, err = validation.TaskWindow(in); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("first 50 of 600 jobs (TaskValidateMaxTasks 100; its floor TaskValidateMinJobs of 50 jobs holds %d tasks)", 50*per); k != 50 || !strings.Contains(cut, want) {
		t.Errorf("%d jobs, note %q; want %q", k, cut, want)
	}
}
