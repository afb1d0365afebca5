package alibaba

import (
	"bytes"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/data/internal/logread"
)

// Alibaba cluster-trace-v2018 batch workloads (github.com/alibaba/
// clusterdata, cluster-trace-v2018/schema.txt): CSV without a header, in
// the schema's column order,
//
//	batch_task:     task_name, instance_num, job_name, task_type, status, start_time, end_time, plan_cpu, plan_mem
//	batch_instance: instance_name, task_name, job_name, task_type, status, start_time, end_time, machine_id, seq_no, total_seq_no, cpu_avg, cpu_max, mem_avg, mem_max
//
// Times are seconds from the trace's start; plan_cpu is in hundredths of a
// core. A task name such as M5_3_4 names the task (M5: a map-like task,
// number 5) and the tasks it waits for (3 and 4): the DAG of the job; the
// task's own part (M5) is its stage. Names like task_XXXX are independent
// tasks.
//
// The path is batch_task.csv (or .tar.gz as Alibaba ships it), with
// batch_instance beside it when present, or a directory holding them. A job
// (job_name) is submitted when its first task starts (the trace has no
// submission time) and finishes when its last task ends; a job with a task
// whose status is not Terminated is dropped unless kept (Failed, Cancelled,
// Interrupted) or, while Running, Waiting or Ready, always (unfinished).
// Tasks come from batch_instance (one per instance: node = machine_id,
// cpu_seconds = cpu_avg/100 × duration, status) or, without it, from
// batch_task (one row per task, containers = instance_num, vcores =
// ⌈plan_cpu/100⌉).

var alibabaTaskColumns = []string{"task_name", "instance_num", "job_name", "task_type", "status", "start_time", "end_time", "plan_cpu", "plan_mem"}

var alibabaInstanceColumns = []string{"instance_name", "task_name", "job_name", "task_type", "status", "start_time", "end_time", "machine_id", "seq_no", "total_seq_no", "cpu_avg", "cpu_max", "mem_avg", "mem_max"}

// alibabaStatus reports whether s is a status of the trace's tasks.
func alibabaStatus(s string) bool {
	switch s {
	case "Terminated", "Failed", "Running", "Waiting", "Ready", "Cancelled", "Interrupted":
		return true
	}
	return false
}

// alibabaJob aggregates a job's tasks.
type alibabaJob struct {
	first, last float64
	bad         string // a status other than Terminated
	line        int64
	file        string
}

type alibabaReader struct {
	s     *logState
	jobs  map[string]*alibabaJob
	order []string
	tasks []data.TaskRow // batch_task rows, used when there is no batch_instance
}

// alibabaStage returns the stage part of a task name: M5 of M5_3_4.
func alibabaStage(task string) string {
	if k := strings.IndexByte(task, '_'); k > 0 && !strings.HasPrefix(task, "task_") {
		return task[:k]
	}
	return task
}

func (s *logState) readAlibabaTasks(r io.Reader, file string) error {
	a := &alibabaReader{s: s, jobs: map[string]*alibabaJob{}}
	if err := a.taskFile(r, file); err != nil {
		return err
	}
	a.finish(nil)
	return nil
}

func (s *logState) readAlibabaPath(path string, dir bool) error {
	taskFile, instFile := path, ""
	if dir {
		taskFile = ""
		files, err := data.LogFiles(path, false)
		if err != nil {
			return err
		}
		for _, f := range files {
			switch b := filepath.Base(f); {
			case strings.HasPrefix(b, "batch_task") && taskFile == "":
				taskFile = f
			case strings.HasPrefix(b, "batch_instance") && instFile == "":
				instFile = f
			}
		}
		if taskFile == "" {
			return data.InputErrorf(path, 0, "", "no batch_task file in the directory")
		}
	} else if b := filepath.Base(path); strings.HasPrefix(b, "batch_task") {
		for _, ext := range []string{strings.TrimPrefix(b, "batch_task"), ".csv", ".tar.gz", ".csv.gz"} {
			p := filepath.Join(filepath.Dir(path), "batch_instance"+ext)
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
				instFile = p
				break
			}
		}
	}
	a := &alibabaReader{s: s, jobs: map[string]*alibabaJob{}}
	if err := a.open(taskFile, a.taskFile); err != nil {
		return err
	}
	if instFile == "" {
		a.finish(nil)
		return nil
	}
	kept := a.finish(map[string]bool{})
	return a.open(instFile, func(r io.Reader, file string) error { return a.instanceFile(r, file, kept) })
}

func (a *alibabaReader) open(path string, read func(io.Reader, string) error) error {
	r, c, err := logread.Open(path)
	if err != nil {
		return err
	}
	defer c.Close()
	a.s.Sum.Files++
	d, err := logread.Decompress(r, path)
	if err != nil {
		return err
	}
	return read(d, path)
}

// alibabaTime parses a time in seconds (the trace writes integers; empty is
// missing).
func alibabaTime(b []byte) (float64, bool) {
	v, ok := logread.ParseFloatBytes(bytes.TrimSpace(b))
	return v, ok && v >= 0 && v < 1e12
}

func (a *alibabaReader) taskFile(r io.Reader, file string) error {
	s := a.s
	var f [16][]byte
	return s.EachLine(r, file, func(line []byte, ln int64) error {
		n := splitComma(line, f[:])
		if n != len(alibabaTaskColumns) {
			return s.Bad(file, ln, "", "a batch_task row has %d comma-separated fields, this one %d", len(alibabaTaskColumns), n)
		}
		task, job, status := string(f[0]), string(f[2]), string(f[4])
		if task == "" || job == "" {
			return s.Bad(file, ln, "job_name", "empty task or job name")
		}
		inst, ok1 := logread.ParseFloatBytes(f[1])
		st, ok2 := alibabaTime(f[5])
		en, ok3 := alibabaTime(f[6])
		if (len(f[5]) > 0 && !ok2) || (len(f[6]) > 0 && !ok3) {
			col := "start_time"
			if !ok3 {
				col = "end_time"
			}
			return s.Bad(file, ln, col, "not a time in seconds")
		}
		if !ok1 || inst < 0 || inst > math.MaxInt32 {
			return s.Bad(file, ln, "instance_num", "%q is not a count", f[1])
		}
		if ok2 && ok3 && en != 0 && en < st {
			return s.Bad(file, ln, "end_time", "the task ends (%v) before it starts (%v)", en, st)
		}
		j := a.jobs[job]
		if j == nil {
			j = &alibabaJob{first: data.NoFloat, last: data.NoFloat, line: ln, file: file}
			a.jobs[job] = j
			a.order = append(a.order, job)
		}
		if status != "Terminated" && j.bad == "" {
			j.bad = status
		}
		if !ok2 || !ok3 || st == 0 || en == 0 {
			if j.bad == "" {
				j.bad = "no start or end time"
			}
			return nil
		}
		j.first, j.last = logread.MinNaN(j.first, st), logread.MaxNaN(j.last, en)
		t := data.NewTaskRow()
		t.JobID, t.TaskID, t.Stage, t.Status = job, task, alibabaStage(task), status
		t.Start, t.Finish = st, en
		t.Containers = int32(inst)
		if c, ok := logread.ParseFloatBytes(f[7]); ok && c >= 0 && c < 1e9 {
			t.Vcores = int32(math.Ceil(c / 100))
		}
		a.tasks = append(a.tasks, t)
		return nil
	})
}

// finish adds the kept jobs; with instances set (a batch_instance file
// follows) the batch_task tasks are not added and the kept job names are
// returned in instances.
func (a *alibabaReader) finish(instances map[string]bool) map[string]bool {
	s := a.s
	kept := map[string]bool{}
	for _, name := range a.order {
		j := a.jobs[name]
		switch j.bad {
		case "":
		case "Running", "Waiting", "Ready", "no start or end time":
			s.Sum.Drop("unfinished job (a task Running, Waiting, Ready or without times)", j.file, j.line, name)
			continue
		default:
			if !s.KeepStatus(false, j.file, j.line, name, j.bad) {
				continue
			}
		}
		r := data.NewJobRow()
		r.ID, r.Submit, r.Start, r.Finish = name, j.first, j.first, j.last
		s.AddJob(&r)
		kept[name] = true
	}
	if instances == nil {
		for k := range a.tasks {
			if kept[a.tasks[k].JobID] {
				s.Tasks.Add(&a.tasks[k])
			}
		}
	}
	a.tasks, a.jobs = nil, nil
	return kept
}

func (a *alibabaReader) instanceFile(r io.Reader, file string, kept map[string]bool) error {
	s := a.s
	var f [16][]byte
	return s.EachLine(r, file, func(line []byte, ln int64) error {
		n := splitComma(line, f[:])
		if n != len(alibabaInstanceColumns) {
			return s.Bad(file, ln, "", "a batch_instance row has %d comma-separated fields, this one %d", len(alibabaInstanceColumns), n)
		}
		job := string(f[2])
		if !kept[job] {
			return nil
		}
		st, ok1 := alibabaTime(f[5])
		en, ok2 := alibabaTime(f[6])
		if !ok1 || !ok2 || st == 0 || en == 0 || en < st {
			s.Sum.Drop("instance without valid start and end times", file, ln, string(f[0]))
			return nil
		}
		t := data.NewTaskRow()
		t.JobID = job
		t.TaskID = string(f[1]) + "/" + string(f[0]) + "/" + string(f[8])
		t.Stage, t.Status = alibabaStage(string(f[1])), string(f[4])
		t.Start, t.Finish = st, en
		t.Containers = 1
		t.Node = string(f[7])
		if c, ok := logread.ParseFloatBytes(f[10]); ok && c >= 0 && c < 1e6 {
			t.CPUSeconds = c / 100 * (en - st)
		}
		s.Tasks.Add(&t)
		return nil
	})
}

// splitComma splits a CSV line without quotes (the trace has none) at
// commas into dst and returns the number of fields.
func splitComma(line []byte, dst [][]byte) int {
	n := 0
	for {
		k := bytes.IndexByte(line, ',')
		if k < 0 {
			if n < len(dst) {
				dst[n] = bytes.TrimRight(line, "\r")
			}
			return n + 1
		}
		if n < len(dst) {
			dst[n] = line[:k]
		}
		n++
		line = line[k+1:]
	}
}
