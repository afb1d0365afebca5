package tasklevel

import (
	"fmt"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/data"
)

// A task-level window is bounded in jobs and in tasks: the task engine's
// cost and memory go with the tasks (events, per-task state), so a window
// capped only in jobs costs as many times more as the log has tasks per
// job (about 1.3 a job when the log has no task counts, 15–40 on a log
// with Hadoop's map/reduce counts). BudgetJobs cuts a window to a task
// budget, never below a floor of jobs that keeps its statistics (means,
// p99, bootstrap intervals over jobs) meaningful.

// budgetBlock is how many jobs BudgetJobs counts the tasks of at once.
const budgetBlock = 4096

// BudgetJobs returns how many jobs of a window of rows lo, lo+1, … of j
// (fluid jobs fl, sizes in units of capacity, as TaskJobs takes them) to
// simulate so that their tasks number at most maxTasks, the window's first
// ones (fromEnd false) or its last ones, and the tasks of that many: at
// least min(minJobs, len(fl)) jobs, whatever their tasks; all of them
// when maxTasks ≤ 0. A job counts the tasks TaskJobs gives it (the log's
// counts, else the ones its task-seconds or size make: task.TaskCounts,
// which draws no durations).
func BudgetJobs(j *data.Jobs, fl []sim.Job, lo int, capacity, rate float64, maxTasks, minJobs int, fromEnd bool) (n, tasks int, err error) {
	return BudgetJobsWith(j, nil, fl, lo, capacity, rate, maxTasks, minJobs, fromEnd)
}

// BudgetJobsWith is BudgetJobs for jobs built with a tasks table t
// (TaskJobsWith): a job the table replays counts the table's tasks
// (tableTasks), not the log's counts. t nil is BudgetJobs.
func BudgetJobsWith(j *data.Jobs, t *data.Tasks, fl []sim.Job, lo int, capacity, rate float64, maxTasks, minJobs int, fromEnd bool) (n, tasks int, err error) {
	var byJob map[string][]int
	if t != nil {
		byJob = tasksByJob(t)
	}
	var buf []task.Shape
	var counts []int
	for n < len(fl) {
		b := min(budgetBlock, len(fl)-n)
		a := n // block fl[a:a+b], or its mirror from the end
		if fromEnd {
			a = len(fl) - n - b
		}
		shapes, err := shapesOf(buf, j, fl[a:a+b], lo+a, capacity, rate)
		if err != nil {
			return 0, 0, err
		}
		buf = shapes
		if counts, err = task.TaskCounts(counts, shapes, task.SynthOptions{}); err != nil {
			return 0, 0, fmt.Errorf("%s: rows %d..%d: %w", j.Source, lo+a+1, lo+a+b, err)
		}
		for k := range counts {
			if fromEnd {
				k = len(counts) - 1 - k
			}
			c := counts[k]
			if t != nil {
				if m := tableTasks(t, byJob[j.ID.At(lo+a+k)]); m > 0 {
					c = m
				}
			}
			if maxTasks > 0 && tasks+c > maxTasks && n >= minJobs {
				return n, tasks, nil
			}
			n, tasks = n+1, tasks+c
		}
	}
	return n, tasks, nil
}
