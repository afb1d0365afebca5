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
	// (0: DefaultMapContainers and DefaultReduceContainers).
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
//     tasks (or round(seconds / TaskSeconds), at least 1, when the count
//     is unknown) whose durations sum to the stage's task-seconds;
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
	sy, err := newSynth(opt)
	if err != nil {
		return nil, err
	}
	// The counts first, so that every job's stages and tasks are carved
	// from two arrays (no allocation per job and stage: at 1 M jobs a
	// validation window's 286,000 jobs held 12 MB of small slices).
	stages, total := 0, 0
	if err := sy.counts(shapes, func(nm, nr int) { stages, total = stages+min(nm, 1)+min(nr, 1), total+nm+nr }); err != nil {
		return nil, err
	}
	jobs := make([]Job, len(shapes))
	stageBuf := make([]Stage, 0, stages)
	taskBuf := make([]TaskSpec, 0, total)
	src := rand.NewPCG(0, 0)
	rng := rand.New(src)
	for i := range shapes {
		sh := &shapes[i]
		nm, nr, dm, dr, _ := sy.split(sh)
		src.Seed(opt.Seed, uint64(i)) // job i's own stream
		j := Job{ID: sh.ID, Arrival: sh.Arrival, User: sh.User, Queue: sh.Queue, Weight: sh.Weight}
		s0 := len(stageBuf)
		if nm > 0 {
			stageBuf = append(stageBuf, stageOf(&taskBuf, nm, dm, sy.mc, opt.Skew, rng))
		}
		if nr > 0 {
			stageBuf = append(stageBuf, stageOf(&taskBuf, nr, dr, sy.rc, opt.Skew, rng))
		}
		if len(stageBuf) > s0 {
			// Capped: a caller's append to one job's stages copies them
			// rather than writing over the next job's.
			j.Stages = stageBuf[s0:len(stageBuf):len(stageBuf)]
		}
		j.Estimate = j.Work()
		jobs[i] = j
	}
	return jobs, nil
}

// TaskCounts appends to dst[:0] each shape's number of tasks as
// Synthesize with opt gives them, without drawing their durations, and
// refuses what Synthesize refuses: what a window's task budget counts
// (pipeline/tasklevel.BudgetJobs).
func TaskCounts(dst []int, shapes []Shape, opt SynthOptions) ([]int, error) {
	sy, err := newSynth(opt)
	if err != nil {
		return nil, err
	}
	dst = dst[:0]
	err = sy.counts(shapes, func(nm, nr int) { dst = append(dst, nm+nr) })
	return dst, err
}

// counts hands each shape's map and reduce task counts (split) to each,
// in order, refusing a job that takes the tasks past MaxTasks in all.
func (sy synth) counts(shapes []Shape, each func(nm, nr int)) error {
	total := 0
	for i := range shapes {
		nm, nr, _, _, err := sy.split(&shapes[i])
		if err != nil {
			return fmt.Errorf("job %d: %v", i+1, err)
		}
		if total += nm + nr; total > MaxTasks {
			return fmt.Errorf("job %d: more than %d tasks in all", i+1, MaxTasks)
		}
		each(nm, nr)
	}
	return nil
}

// DefaultMapContainers and DefaultReduceContainers are the containers a
// map and a reduce task hold when nothing says otherwise: seed 000's
// testbed gives a reduce twice a map's memory (§4, §5.1).
const (
	DefaultMapContainers    = 1
	DefaultReduceContainers = 2
)

// synth is SynthOptions with the defaults filled in.
type synth struct {
	mc, rc, maxT int
	ts           float64
}

func newSynth(opt SynthOptions) (synth, error) {
	sy := synth{mc: opt.MapContainers, rc: opt.ReduceContainers, maxT: opt.MaxTasks, ts: opt.TaskSeconds}
	if sy.mc == 0 {
		sy.mc = DefaultMapContainers
	}
	if sy.rc == 0 {
		sy.rc = DefaultReduceContainers
	}
	if sy.ts == 0 {
		sy.ts = 60
	}
	if sy.maxT == 0 {
		sy.maxT = 100000
	}
	switch {
	case sy.mc < 1 || sy.rc < 1 || sy.mc > MaxContainers || sy.rc > MaxContainers:
		return sy, fmt.Errorf("synthesize: containers per task %d and %d: need 1 to %d", sy.mc, sy.rc, MaxContainers)
	case !(sy.ts > 0) || math.IsInf(sy.ts, 0):
		return sy, fmt.Errorf("synthesize: task seconds %v is not a finite positive number", opt.TaskSeconds)
	case sy.maxT < 1 || sy.maxT > MaxTasks:
		return sy, fmt.Errorf("synthesize: max tasks %d: need 1 to %d", sy.maxT, MaxTasks)
	case !(opt.Skew >= 0) || opt.Skew > 10:
		return sy, fmt.Errorf("synthesize: skew %v: need 0 to 10", opt.Skew)
	}
	return sy, nil
}

// split returns a shape's map and reduce task counts and their total
// task-seconds.
func (sy synth) split(sh *Shape) (nm, nr int, dm, dr float64, err error) {
	bad := func(v float64) bool { return !(v >= 0) || math.IsInf(v, 0) }
	switch {
	case bad(sh.MapSeconds) || bad(sh.ReduceSeconds) || bad(sh.Size):
		return 0, 0, 0, 0, fmt.Errorf("task-seconds (%v, %v) and size %v must be finite and non-negative", sh.MapSeconds, sh.ReduceSeconds, sh.Size)
	case sh.MapTasks < 0 || sh.ReduceTasks < 0 || sh.MapTasks > sy.maxT || sh.ReduceTasks > sy.maxT:
		return 0, 0, 0, 0, fmt.Errorf("task counts %d and %d: need 0 to %d", sh.MapTasks, sh.ReduceTasks, sy.maxT)
	case sh.MapSeconds+sh.ReduceSeconds > 0:
		if nm, err = sy.count(sh.MapTasks, sh.MapSeconds, "task-seconds"); err == nil {
			nr, err = sy.count(sh.ReduceTasks, sh.ReduceSeconds, "task-seconds")
		}
		return nm, nr, sh.MapSeconds, sh.ReduceSeconds, err
	case sh.Size > 0 && sh.MapTasks+sh.ReduceTasks > 0:
		nm, nr = sh.MapTasks, sh.ReduceTasks
		d := sh.Size / float64(nm*sy.mc+nr*sy.rc)
		return nm, nr, d * float64(nm), d * float64(nr), nil
	case sh.Size > 0:
		nm, err = sy.count(0, sh.Size/float64(sy.mc), "task-seconds (from the size)")
		return nm, 0, sh.Size / float64(sy.mc), 0, err
	}
	return sh.MapTasks, sh.ReduceTasks, 0, 0, nil
}

// count is n, or when n is 0 the tasks of about TaskSeconds that secs
// makes (round(secs / TaskSeconds), at least 1), bounded by MaxTasks.
func (sy synth) count(n int, secs float64, what string) (int, error) {
	if n > 0 || secs == 0 {
		return n, nil
	}
	c := math.Max(1, math.Round(secs/sy.ts))
	if c > float64(sy.maxT) {
		return 0, fmt.Errorf("%v %s: more than %d tasks of %v s", secs, what, sy.maxT, sy.ts)
	}
	return int(c), nil
}

// stageOf draws n task durations summing to total, appending the tasks to
// *buf (whose room must hold them) and returning the stage of them.
func stageOf(buf *[]TaskSpec, n int, total float64, containers int, skew float64, rng *rand.Rand) Stage {
	lo := len(*buf)
	*buf = append(*buf, make([]TaskSpec, n)...)
	t := (*buf)[lo:len(*buf):len(*buf)]
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
