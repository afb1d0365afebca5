package tasklevel

import (
	"testing"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/data"
)

// budgetLog is n jobs whose map and reduce counts cycle through 1..40 and
// 0..3 (every tenth row has no counts: its size makes its tasks), sizes
// 600 container-seconds, and their fluid jobs at capacity 1.
func budgetLog(n int) (*data.Jobs, []sim.Job) {
	j := &data.Jobs{Source: "budget"}
	j.Submit = make([]float64, n)
	j.MapTasks.Values, j.ReduceTasks.Values = make([]int32, n), make([]int32, n)
	j.MapTasks.Valid, j.ReduceTasks.Valid = data.NewBitmap(n), data.NewBitmap(n)
	fl := make([]sim.Job, n)
	for i := range n {
		j.ID.Append("j")
		j.Submit[i] = float64(i)
		j.MapTasks.Values[i], j.ReduceTasks.Values[i] = int32(1+i%40), int32(i%4)
		if i%10 == 9 {
			j.MapTasks.Valid.SetNull(i)
			j.ReduceTasks.Valid.SetNull(i)
		}
		fl[i] = sim.Job{Arrival: float64(i), Size: 600, Estimate: 600, Weight: 1}
	}
	return j, fl
}

// A window cut by BudgetJobs holds at most the budget's tasks (the tasks
// TaskJobs builds, counted row by row), is the longest such prefix (or
// suffix), and keeps the floor of jobs whatever their tasks.
func TestBudgetJobs(t *testing.T) {
	j, fl := budgetLog(10_000)
	const lo = 500
	win := fl[lo:9500]
	jobs, err := TaskJobs(j, win, lo, 1, 1, 3)
	if err != nil {
		t.Fatal(err)
	}
	all := 0
	for i := range jobs {
		all += jobs[i].NumTasks()
	}
	for _, tc := range []struct {
		name            string
		maxTasks, floor int
		fromEnd         bool
	}{
		{"no bound", 0, 0, false},
		{"first", 20_000, 0, false},
		{"last", 20_000, 0, true},
		{"whole window fits", all, 0, false},
		{"one short", all - 1, 0, true},
		{"floor", 100, 2000, false},
		{"floor from end", 100, 2000, true},
	} {
		n, tasks, err := BudgetJobs(j, win, lo, 1, 1, tc.maxTasks, tc.floor, tc.fromEnd)
		if err != nil {
			t.Fatal(err)
		}
		kept := jobs[:n]
		next := n // the job that did not fit
		if tc.fromEnd {
			kept, next = jobs[len(jobs)-n:], len(jobs)-n-1
		}
		sum := 0
		for i := range kept {
			sum += kept[i].NumTasks()
		}
		switch {
		case sum != tasks:
			t.Errorf("%s: %d jobs: says %d tasks, TaskJobs builds %d", tc.name, n, tasks, sum)
		case tc.maxTasks <= 0 && n != len(jobs):
			t.Errorf("%s: %d of %d jobs", tc.name, n, len(jobs))
		case tc.maxTasks > 0 && n > tc.floor && tasks > tc.maxTasks:
			t.Errorf("%s: %d tasks over the budget %d", tc.name, tasks, tc.maxTasks)
		case n < min(tc.floor, len(jobs)):
			t.Errorf("%s: %d jobs under the floor %d", tc.name, n, tc.floor)
		case tc.maxTasks > 0 && n > tc.floor && n < len(jobs) && tasks+jobs[max(0, next)].NumTasks() <= tc.maxTasks:
			t.Errorf("%s: stopped at %d jobs (%d tasks) while the next fits %d", tc.name, n, tasks, tc.maxTasks)
		}
	}
}
