package task_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/cluster/task/internal/tasktest"
)

// TestOptionsOverrideEstimatesAndQueues checks that a run with
// Options.Estimates and Options.Queues is the run over a copy of the jobs
// carrying those estimates and queues, for the policies that read them
// (size-based ones read estimates, Fair and Capacity place by queue).
func TestOptionsOverrideEstimatesAndQueues(t *testing.T) {
	jobs, cl := tasktest.MRWorkload(300, 6, 7)
	rng := rand.New(rand.NewPCG(1, 2))
	est := make([]float64, len(jobs))
	queues := make([]string, len(jobs))
	for i := range jobs {
		est[i] = jobs[i].Estimate * rng.ExpFloat64()
		queues[i] = "root." + string(rune('p'+i%3))
	}
	copied := slices.Clone(jobs)
	for i := range copied {
		copied[i].Estimate, copied[i].Queue = est[i], queues[i]
	}
	for _, spec := range []string{"srpt", "fsp", "hpfsp", "fair", "fair:pool=user", "las_mq"} {
		want := tasktest.RunSpec(t, copied, cl, spec, task.Options{})
		wantC := slices.Clone(want.Completion)
		got := tasktest.RunSpec(t, jobs, cl, spec, task.Options{Estimates: est, Queues: queues})
		if !slices.Equal(got.Completion, wantC) {
			t.Errorf("%s: completions with the overrides differ from those of a copy carrying them", spec)
		}
		plain := tasktest.RunSpec(t, jobs, cl, spec, task.Options{})
		if reads := spec == "srpt" || spec == "fsp" || spec == "hpfsp"; reads && slices.Equal(plain.Completion, wantC) {
			t.Errorf("%s: the overrides changed nothing (a test that cannot fail)", spec)
		}
	}
	capa := &task.Capacity{Root: task.CapacityQueue{Name: "root", Capacity: 100, MaxCapacity: 100, Children: []task.CapacityQueue{
		{Name: "p", Capacity: 20, MaxCapacity: 100}, {Name: "q", Capacity: 30, MaxCapacity: 100}, {Name: "r", Capacity: 50, MaxCapacity: 50}}}}
	want := slices.Clone(tasktest.Run(t, copied, cl, capa, task.Options{}).Completion)
	got := tasktest.Run(t, jobs, cl, capa, task.Options{Queues: queues}).Completion
	if !slices.Equal(got, want) {
		t.Errorf("capacity: completions with Options.Queues differ from those of a copy carrying them")
	}
	// The jobs' own queues (a to d) are no leaves of this tree: without
	// the override the run is refused.
	if _, err := task.Simulate(jobs, cl, capa, task.Options{}); err == nil {
		t.Errorf("capacity: the jobs' own queues were accepted; the test cannot tell the override from them")
	}
}

// TestOptionsOverrideErrors checks that overrides of the wrong length or
// with a bad estimate are refused, naming the job.
func TestOptionsOverrideErrors(t *testing.T) {
	jobs, cl := tasktest.MRWorkload(5, 2, 1)
	bad := []float64{1, 2, -1, 4, 5}
	for _, c := range []struct {
		opt  task.Options
		want string
	}{
		{task.Options{Estimates: []float64{1}}, "1 estimates for 5 jobs"},
		{task.Options{Queues: []string{"a", "b"}}, "2 queues for 5 jobs"},
		{task.Options{Estimates: bad}, "job 3: estimate -1"},
	} {
		p, _ := task.ParsePolicy("fifo")
		_, err := task.Simulate(jobs, cl, p, c.opt)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: error %v, want one saying %q", c.opt, err, c.want)
		}
	}
}
