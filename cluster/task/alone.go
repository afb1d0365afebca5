package task

import (
	"fmt"
	"math"
)

// Alone returns a lower bound on the job's time alone on the empty
// cluster cl, in seconds: no schedule of the job on cl (any policy, any
// placement, with or without heartbeats) completes it sooner after its
// arrival, so a response divided by it — the task-level slowdown — is at
// least 1. slowStart is Options.SlowStart (0 means 1: stage barriers).
//
// A task of base duration d runs d·TypeScale[t]/ExecRate_t seconds on
// type t, so on type t the job processes base work at e_t =
// ExecRate_t/TypeScale[t] per container (TypeScale nil: e_t = ExecRate_t).
// For a stage of work W_s (Σ duration × containers) whose longest task
// has base duration D_s, on a cluster of N_t containers of type t (types
// without machines left out):
//
//   - the work bound W_s / Σ_t N_t·e_t: every container of every type busy
//     on the stage (without TypeScale, W_s / Cluster.Rate());
//   - the critical task D_s / max_t e_t: the longest task on the type that
//     runs it fastest.
//
// With stage barriers (slowStart 1, the engine's default) the stages run
// one after the other and the bound is Σ_s max(W_s/R, D_s/e), with R =
// Σ_t N_t·e_t and e = max_t e_t. With slowStart < 1 a later stage's tasks
// may run beside the previous stage's, so only the whole job's work and
// its single longest task bound it: max(Σ_s W_s/R, max_s D_s/e).
//
// The bound is the exact optimal alone time (without heartbeats) when
// each stage's tasks fit at once on the containers of the job's fastest
// type (e.g. single-container tasks no more than that type's containers):
// then D_s/e ≥ W_s/R and every task can start at the stage's start. It is
// 0 for a job without work and is O(tasks + types).
func (j *Job) Alone(cl *Cluster, slowStart float64) float64 {
	rate, best, _ := j.Rates(cl) // R and e
	if !(rate > 0) || !(best > 0) {
		return 0
	}
	barrier := slowStart == 0 || slowStart >= 1
	sum, work, longest := 0.0, 0.0, 0.0
	for s := range j.Stages {
		w, d := 0.0, 0.0
		for _, t := range j.Stages[s].Tasks {
			w += t.Duration * float64(t.Containers)
			d = math.Max(d, t.Duration)
		}
		sum += math.Max(w/rate, d/best)
		work += w
		longest = math.Max(longest, d)
	}
	if barrier {
		return sum
	}
	return math.Max(work/rate, longest/best)
}

// Rates returns what cl's containers do for job j: rate, the work per
// second of all of them at the job's speed on each type (Σ_t N_t·e_jt,
// e_jt = ExecRate_t / TypeScale_jt, 1 where the job has no TypeScale),
// best, the fastest e_jt, and containers, Σ_t N_t (types without
// containers are skipped). O(types).
func (j *Job) Rates(cl *Cluster) (rate, best, containers float64) {
	for t, mt := range cl.Types {
		if mt.Count <= 0 || mt.Containers <= 0 {
			continue
		}
		e := mt.ExecRate
		if j.TypeScale != nil {
			e /= j.TypeScale[t]
		}
		c := float64(mt.Count * mt.Containers)
		rate, containers, best = rate+c*e, containers+c, math.Max(best, e)
	}
	return rate, best, containers
}

// AloneTimes returns every job's time alone: its response when it is the
// only job on the empty cluster cl, run by the engine under its own rules
// (opt.SlowStart's stage barrier, cl's heartbeats and assignment limit,
// machine types fastest first, the exec rates and TypeScale of the types
// its tasks land on) with FIFO, which offers every free container to the
// job. It is attainable by construction — the job alone under any
// work-conserving policy completes exactly then — and it is the
// denominator of the task-level slowdown (FluidJobs). It is not a lower
// bound on the job's response among other jobs: a job that finds the fast
// containers free and the slow ones held by others may finish sooner than
// alone, where the engine also fills the slow ones (Job.Alone is the lower
// bound). A job without tasks has time alone 0.
//
// Each job is one small simulation on a reused Simulator: O(nodes + tasks
// log tasks) for the job (heartbeats: the nodes' heartbeats while it has
// ready tasks), so O(jobs·nodes + tasks log tasks) for all.
func AloneTimes(jobs []Job, cl *Cluster, opt Options) ([]float64, error) {
	out := make([]float64, len(jobs))
	if len(jobs) == 0 {
		return out, nil
	}
	var s Simulator
	var fifo FIFO // Start resets it for each job
	one := make([]Job, 1)
	opt.Observer, opt.UtilBuckets = nil, 1
	for i := range jobs {
		if jobs[i].NumTasks() == 0 {
			continue
		}
		one[0] = jobs[i]
		r, err := s.Run(one, cl, &fifo, opt)
		if err != nil {
			return nil, fmt.Errorf("job %d alone: %w", i+1, err)
		}
		out[i] = r.Completion[0] - jobs[i].Arrival
	}
	return out, nil
}
