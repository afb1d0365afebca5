package inputs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/pipeline/experiment"
)

// TestReadInputTasks reads the embedded trace with a tasks table: the jobs
// that have tasks take their task counts and task-seconds from it, tasks
// of no job are counted and left out, and a table none of whose tasks
// belongs to the log is refused with the flag's name.
func TestReadInputTasks(t *testing.T) {
	dir := t.TempDir()
	tasks := filepath.Join(dir, "tasks.csv")
	os.WriteFile(tasks, []byte("job_id,stage,task_id,start_time,finish_time,status\n"+
		"job1,map,1,100,130,SUCCEEDED\njob1,map,2,100,110,SUCCEEDED\njob1,reduce,3,130,190,SUCCEEDED\n"+
		"job1,map,4,100,105,FAILED\nnosuchjob,map,1,0,1,SUCCEEDED\n"), 0o644)
	// The embedded trace's sizes would come from the tasks' seconds, and
	// job0 has none: refused at --tasks (before, the size estimator failed
	// naming the log's task-seconds column, which nobody gave).
	var pe *experiment.ParamError
	if _, err := ReadInput(InputOptions{Trace: "embedded:fb2009-50", Tasks: tasks}); !errors.As(err, &pe) || pe.Param != "tasks" || !strings.Contains(err.Error(), "covers 1 of 50 jobs") {
		t.Errorf("a partial tasks table: %v", err)
	}
	// With sizes of their own the jobs need not all have tasks.
	jobs := filepath.Join(dir, "jobs.csv")
	os.WriteFile(jobs, []byte("job_id,submit_time,user,size\njob0,0,u,10\njob1,5,u,20\n"), 0o644)
	in, err := ReadInput(InputOptions{Trace: jobs, Tasks: tasks})
	if err != nil {
		t.Fatal(err)
	}
	if in.TaskJobs != 1 || in.OrphanTasks != 1 || in.Tasks.Len() != 5 || in.Log != nil {
		t.Errorf("task jobs %d, orphans %d, tasks %d", in.TaskJobs, in.OrphanTasks, in.Tasks.Len())
	}
	j := in.Jobs
	i := 1 // job1
	m, _ := j.MapTasks.At(i)
	ms, _ := j.MapTaskSeconds.At(i)
	r, _ := j.ReduceTasks.At(i)
	rs, _ := j.ReduceTaskSeconds.At(i)
	if j.ID.At(i) != "job1" || m != 2 || ms != 40 || r != 1 || rs != 60 {
		t.Errorf("%s: %d map tasks, %v s; %d reduce tasks, %v s", j.ID.At(i), m, ms, r, rs)
	}
	if _, ok := j.MapTasks.At(0); ok {
		t.Error("a job without tasks got a task count")
	}
	// None of the tasks is the log's.
	os.WriteFile(tasks, []byte("job_id,task_id\nx,1\n"), 0o644)
	if _, err := ReadInput(InputOptions{Trace: "embedded:fb2009-50", Tasks: tasks}); !errors.As(err, &pe) || pe.Param != "tasks" {
		t.Errorf("foreign tasks: %v", err)
	}
	// A log with tasks of its own refuses another table; --spark-job and
	// --keep-failed are for logs that have them.
	for _, c := range []struct {
		o    InputOptions
		flag string
	}{
		{InputOptions{Trace: "../../data/testdata/logs/spark/local-1426633911242", Tasks: tasks}, "tasks"},
		{InputOptions{Trace: "embedded:fb2009-50", Read: data.ReadOptions{Log: data.LogOptions{Spark: data.SparkJob}}}, "spark-job"},
		{InputOptions{Trace: "../../data/testdata/logs/sample.swf", Read: data.ReadOptions{Log: data.LogOptions{Spark: data.SparkJob}}}, "spark-job"},
		{InputOptions{Trace: "embedded:fb2009-50", Read: data.ReadOptions{Log: data.LogOptions{KeepFailed: true}}}, "keep-failed"},
		{InputOptions{Trace: "embedded", Read: data.ReadOptions{Log: data.LogOptions{Spark: "stage"}}}, "spark-job"},
	} {
		if _, err := ReadInput(c.o); !errors.As(err, &pe) || pe.Param != c.flag {
			t.Errorf("%+v: %v, want a --%s error", c.o, err, c.flag)
		}
	}
}
