package task_test

import (
	"fmt"

	"github.com/schedplan/schedplan/cluster/task"
)

// Jobs from task counts and task-seconds, one cluster, two policies. Under
// FIFO the small job waits behind the big one's maps; LAS_MQ demotes the
// big job at 10% of its map stage (estimate 400 container-seconds ≥ α_0 =
// 50) and the small one runs as soon as containers free up.
func Example() {
	jobs, err := task.Synthesize([]task.Shape{
		{Arrival: 0, MapTasks: 40, ReduceTasks: 4, MapSeconds: 400, ReduceSeconds: 80},
		{Arrival: 5, MapTasks: 4, MapSeconds: 20},
	}, task.SynthOptions{})
	if err != nil {
		panic(err)
	}
	cl := task.Uniform(2, 8) // 2 machines of 8 containers
	for _, spec := range []string{"fifo", "las_mq:k=3,alpha0=50,p=10"} {
		p, err := task.ParsePolicy(spec)
		if err != nil {
			panic(err)
		}
		r, err := task.Simulate(jobs, cl, p, task.Options{})
		if err != nil {
			panic(err)
		}
		rep := task.Summarize(jobs, cl, r, nil)
		fmt.Printf("%s: responses %.0f s and %.0f s, mean %.1f s\n", p.Name(),
			r.Completion[0]-jobs[0].Arrival, r.Completion[1]-jobs[1].Arrival, rep.All.Response.Mean)
	}
	// Output:
	// fifo: responses 50 s and 20 s, mean 35.0 s
	// las_mq: responses 50 s and 10 s, mean 30.0 s
}
