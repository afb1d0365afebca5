package tasklevel

import (
	"fmt"
	"math"
	"sort"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/data"
)

// TaskJobsWith is TaskJobs with a tasks table: a job that has tasks in t
// runs those tasks as they ran — one stage per stage of the table, in
// order of the stage's first start (Spark stages stay stages; map before
// reduce), each task holding its containers for its own finish − start —
// instead of tasks synthesised from its counts and task-seconds. Only
// tasks that succeeded and have both times count (failed attempts are not
// replayed); a job without such tasks is synthesised as TaskJobs does. A
// job's Estimate is its exact work. Times are the table's seconds on a
// container of exec_rate 1. t nil is TaskJobs.
func TaskJobsWith(j *data.Jobs, t *data.Tasks, fl []sim.Job, lo int, capacity, rate float64, seed uint64) ([]task.Job, error) {
	jobs, err := TaskJobs(j, fl, lo, capacity, rate, seed)
	if err != nil || t == nil {
		return jobs, err
	}
	byJob := tasksByJob(t)
	total := 0
	for k := range jobs {
		i := lo + k
		rows := byJob[j.ID.At(i)]
		if st := stagesOf(t, rows); len(st) > 0 {
			jobs[k].Stages = st
			jobs[k].Estimate = jobs[k].Work()
		}
		total += jobs[k].NumTasks()
		if total > task.MaxTasks {
			return nil, fmt.Errorf("%s: row %d: more than %d tasks in all", j.Source, i+1, task.MaxTasks)
		}
	}
	return jobs, nil
}

// tasksByJob lists the rows of t by job id.
func tasksByJob(t *data.Tasks) map[string][]int {
	m := map[string][]int{}
	for r := 0; r < t.Len(); r++ {
		id := t.JobID.At(r)
		m[id] = append(m[id], r)
	}
	return m
}

// replayed reports whether task row r of t is one TaskJobsWith replays:
// it succeeded and has both times, the finish not before the start.
func replayed(t *data.Tasks, r int) bool {
	s, ok1 := t.Start.At(r)
	f, ok2 := t.Finish.At(r)
	return t.Succeeded(r) && ok1 && ok2 && f >= s && !math.IsInf(f-s, 0)
}

// tableTasks is how many tasks of rows stagesOf keeps: the tasks of a job
// TaskJobsWith replays from the table (0: it synthesises the job).
func tableTasks(t *data.Tasks, rows []int) int {
	n := 0
	for _, r := range rows {
		if replayed(t, r) {
			n++
		}
	}
	return n
}

// stagesOf turns one job's task rows into stages: its succeeded tasks with
// both times, grouped by stage (a null stage is one stage), stages in
// order of their first start, ties by name.
func stagesOf(t *data.Tasks, rows []int) []task.Stage {
	type stage struct {
		name  string
		first float64
		tasks []task.TaskSpec
	}
	var stages []*stage
	index := map[string]*stage{}
	for _, r := range rows {
		if !replayed(t, r) {
			continue
		}
		s, _ := t.Start.At(r)
		f, _ := t.Finish.At(r)
		name, _ := t.Stage.At(r)
		st := index[name]
		if st == nil {
			st = &stage{name: name, first: s}
			index[name] = st
			stages = append(stages, st)
		}
		st.first = math.Min(st.first, s)
		st.tasks = append(st.tasks, task.TaskSpec{Duration: f - s, Containers: int(max(1, t.ContainersAt(r)))})
	}
	sort.SliceStable(stages, func(a, b int) bool {
		if stages[a].first != stages[b].first {
			return stages[a].first < stages[b].first
		}
		return stages[a].name < stages[b].name
	})
	out := make([]task.Stage, len(stages))
	for k, st := range stages {
		out[k] = task.Stage{Tasks: st.tasks}
	}
	return out
}
