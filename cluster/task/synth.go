package task

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Shape is what a job log tells about a job's tasks; Synthesize turns it
// into a Job.
type Shape struct {
	ID          int
	Arrival     float64
	User, Queue string
	Weight      float64
	// MapTasks and ReduceTasks are the task counts per stage (0: not
	// known); MapSeconds and ReduceSeconds the stages' total task-seconds
	// (the sum of their tasks' durations; 0: not known).
	MapTasks, ReduceTasks     int
	MapSeconds, ReduceSeconds float64
	// Size is the job's work in container-seconds, used when the log has
	// no task-seconds.
	Size float64
}

// SynthOptions tune Synthesize.
type SynthOptions struct {
	// Skew is σ of the log-normal factor of task durations within a
	// stage (0: equal tasks); see Synthesize.
	Skew float64
	// Seed makes the durations reproducible: job i draws from its own
	// stream (Seed, i), so a job's tasks do not depend on the others.
	Seed uint64
	// MapContainers and ReduceContainers are the containers per task
	// (0: 1 and 2, seed 000).
	MapContainers, ReduceContainers int
	// TaskSeconds is the mean task duration used to choose task counts
	// the log does not give (0: 60 s).
	TaskSeconds float64
	// MaxTasks bounds a job's tasks (0: 100,000).
	MaxTasks int
}

// Synthesize builds jobs from their shapes, so that a job log without a
// tasks table drives the task level:
//
//   - with task-seconds, each stage (map, then reduce) gets its count of
//     tasks (or ⌈seconds / TaskSeconds⌉ when the count is unknown) whose
//     durations sum to the stage's task-seconds;
//   - with only a Size, the work is spread over the given task counts with
//     one mean duration for all tasks (Size / Σ count × containers), or,
//     without counts, over one map stage of round(Size / (TaskSeconds ×
//     MapContainers)) tasks (at least 1);
//   - with neither, the tasks (if counted) take no time.
//
// Durations within a stage are d_i = total · x_i / Σ x, x_i = exp(Skew·Z_i)
// with Z_i standard normal: log-normal factors renormalised so the stage's
// total is exact; their coefficient of variation is about √(exp(Skew²) −
// 1) (0.53 at Skew = 0.5). A job's Estimate is its exact Work (apply an
// error model afterwards). Errors name the job (1-based).
func Synthesize(shapes []Shape, opt SynthOptions) ([]Job, error) {
	mc, rc := opt.MapContainers, opt.ReduceContainers
	if mc == 0 {
		mc = 1
	}
	if rc == 0 {
		rc = 2
	}
	ts, maxT := opt.TaskSeconds, opt.MaxTasks
	if ts == 0 {
		ts = 60
	}
	if maxT == 0 {
		maxT = 100000
	}
	switch {
	case mc < 1 || rc < 1 || mc > MaxContainers || rc > MaxContainers:
		return nil, fmt.Errorf("synthesize: containers per task %d and %d: need 1 to %d", mc, rc, MaxContainers)
	case !(ts > 0) || math.IsInf(ts, 0):
		return nil, fmt.Errorf("synthesize: task seconds %v is not a finite positive number", opt.TaskSeconds)
	case maxT < 1 || maxT > MaxTasks:
		return nil, fmt.Errorf("synthesize: max tasks %d: need 1 to %d", maxT, MaxTasks)
	case !(opt.Skew >= 0) || opt.Skew > 10:
		return nil, fmt.Errorf("synthesize: skew %v: need 0 to 10", opt.Skew)
	}
	jobs := make([]Job, len(shapes))
	total := 0
	for i := range shapes {
		sh := &shapes[i]
		bad := func(v float64) bool { return !(v >= 0) || math.IsInf(v, 0) }
		switch {
		case bad(sh.MapSeconds) || bad(sh.ReduceSeconds) || bad(sh.Size):
			return nil, fmt.Errorf("job %d: task-seconds (%v, %v) and size %v must be finite and non-negative", i+1, sh.MapSeconds, sh.ReduceSeconds, sh.Size)
		case sh.MapTasks < 0 || sh.ReduceTasks < 0 || sh.MapTasks > maxT || sh.ReduceTasks > maxT:
			return nil, fmt.Errorf("job %d: task counts %d and %d: need 0 to %d", i+1, sh.MapTasks, sh.ReduceTasks, maxT)
		}
		count := func(n int, secs float64) (int, error) {
			if n > 0 || secs == 0 {
				return n, nil
			}
			c := math.Ceil(secs / ts)
			if c > float64(maxT) {
				return 0, fmt.Errorf("job %d: %v task-seconds make more than %d tasks of %v s", i+1, secs, maxT, ts)
			}
			return int(c), nil
		}
		var nm, nr int
		var dm, dr float64 // stage totals in task-seconds
		var err error
		switch {
		case sh.MapSeconds+sh.ReduceSeconds > 0:
			if nm, err = count(sh.MapTasks, sh.MapSeconds); err != nil {
				return nil, err
			}
			if nr, err = count(sh.ReduceTasks, sh.ReduceSeconds); err != nil {
				return nil, err
			}
			dm, dr = sh.MapSeconds, sh.ReduceSeconds
		case sh.Size > 0 && sh.MapTasks+sh.ReduceTasks > 0:
			nm, nr = sh.MapTasks, sh.ReduceTasks
			d := sh.Size / float64(nm*mc+nr*rc)
			dm, dr = d*float64(nm), d*float64(nr)
		case sh.Size > 0:
			c := math.Max(1, math.Round(sh.Size/(ts*float64(mc))))
			if c > float64(maxT) {
				return nil, fmt.Errorf("job %d: size %v makes more than %d tasks of %v s", i+1, sh.Size, maxT, ts)
			}
			nm, dm = int(c), sh.Size/float64(mc)
		default:
			nm, nr = sh.MapTasks, sh.ReduceTasks
		}
		if total += nm + nr; total > MaxTasks {
			return nil, fmt.Errorf("job %d: more than %d tasks in all", i+1, MaxTasks)
		}
		rng := rand.New(rand.NewPCG(opt.Seed, uint64(i)))
		j := Job{ID: sh.ID, Arrival: sh.Arrival, User: sh.User, Queue: sh.Queue, Weight: sh.Weight}
		if nm > 0 {
			j.Stages = append(j.Stages, stageOf(nm, dm, mc, opt.Skew, rng))
		}
		if nr > 0 {
			j.Stages = append(j.Stages, stageOf(nr, dr, rc, opt.Skew, rng))
		}
		j.Estimate = j.Work()
		jobs[i] = j
	}
	return jobs, nil
}

// stageOf draws n task durations summing to total.
func stageOf(n int, total float64, containers int, skew float64, rng *rand.Rand) Stage {
	t := make([]TaskSpec, n)
	sum := 0.0
	for i := range t {
		x := 1.0
		if skew > 0 {
			x = math.Exp(skew * rng.NormFloat64())
		}
		t[i] = TaskSpec{Duration: x, Containers: containers}
		sum += x
	}
	for i := range t {
		t[i].Duration *= total / sum
	}
	return Stage{Tasks: t}
}
