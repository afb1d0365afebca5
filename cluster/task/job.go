package task

import (
	"fmt"
	"math"

	"github.com/schedplan/schedplan/cluster/sim"
)

// Job is one job of a task-level simulation: a sequence of stages (map,
// then reduce, …) of tasks.
type Job struct {
	// ID is the caller's identifier of the job (e.g. its row in the job
	// log); the simulation does not use it.
	ID int
	// Arrival is the submission time in seconds. Jobs are given in
	// non-decreasing order of arrival; simultaneous arrivals enter in slice
	// order.
	Arrival float64
	// User and Queue name the job's owner and its queue (pool) for the
	// policies that have users and queues and for the per-user and
	// per-queue metrics. Empty names are allowed.
	User, Queue string
	// Weight is the job's weight within a Fair Scheduler queue (≤ 0
	// means 1).
	Weight float64
	// Estimate is the job's size, in container-seconds at exec_rate 1, as a
	// size-based policy (SRPT, FSP) believes it; use Work() for exact
	// knowledge.
	Estimate float64
	// Stages run in order: the tasks of stage s+1 become runnable when a
	// slow-start fraction of stage s has completed (Options.SlowStart).
	Stages []Stage
	// TypeScale, when not nil, makes the job's speed depend on the machine
	// type beyond its exec_rate (seed 003's class × machine-type execution
	// times, μ_ij): a task of base duration d runs d·TypeScale[t] /
	// ExecRate_t seconds on type t. One entry per machine type, each finite
	// and > 0; nil means 1 on every type. See coshh.COSHHTypeScale.
	TypeScale []float64
}

// Stage is a set of tasks that may run in parallel.
type Stage struct {
	Tasks []TaskSpec
}

// TaskSpec is one task: its duration on a container of exec_rate 1 and the
// containers it holds while it runs (seed 000 gives reduce tasks 2).
type TaskSpec struct {
	Duration   float64
	Containers int
}

// Work is the job's size: Σ duration × containers over its tasks, in
// container-seconds at exec_rate 1.
func (j *Job) Work() float64 {
	w := 0.0
	for _, s := range j.Stages {
		w += s.Work()
	}
	return w
}

// Work is the stage's Σ duration × containers.
func (s *Stage) Work() float64 {
	w := 0.0
	for _, t := range s.Tasks {
		w += t.Duration * float64(t.Containers)
	}
	return w
}

// Containers is Σ containers over the job's tasks: what seed 000's Alg. 1
// line 10 counts, known once the job is submitted.
func (j *Job) Containers() int64 {
	var n int64
	for _, s := range j.Stages {
		for _, t := range s.Tasks {
			n += int64(t.Containers)
		}
	}
	return n
}

// NumTasks counts the job's tasks.
func (j *Job) NumTasks() int {
	n := 0
	for _, s := range j.Stages {
		n += len(s.Tasks)
	}
	return n
}

// MaxTasks bounds the tasks of one simulation (indices are int32).
const MaxTasks = 1 << 30

// MaxJobContainers bounds Σ containers over one job's tasks (the
// simulator keeps a job's container counts as int32).
const MaxJobContainers = math.MaxInt32

// CheckJobs validates jobs for a cluster: finite non-negative durations,
// tasks that need at least one container and no more than every machine
// type has per machine (a larger task could never be placed), and, as
// sim.CheckJobs, finite arrivals in non-decreasing order, finite
// non-negative estimates and finite weights. Errors name the job (1-based,
// as a row), stage and task.
func CheckJobs(jobs []Job, cl *Cluster) error {
	minC := math.MaxInt
	minName := ""
	for _, t := range cl.Types {
		if t.Count > 0 && t.Containers < minC {
			minC, minName = t.Containers, t.Name
		}
	}
	tasks := 0
	for i := range jobs {
		j := &jobs[i]
		jobC := int64(0)
		if j.TypeScale != nil && len(j.TypeScale) != len(cl.Types) {
			return fmt.Errorf("job %d: %d type scales for %d machine types", i+1, len(j.TypeScale), len(cl.Types))
		}
		for t, f := range j.TypeScale {
			if !(f > 0) || math.IsInf(f, 0) {
				return fmt.Errorf("job %d: type scale %v of machine type %q is not a finite positive number", i+1, f, cl.Types[t].Name)
			}
		}
		for s := range j.Stages {
			for k, t := range j.Stages[s].Tasks {
				switch {
				case !(t.Duration >= 0) || math.IsInf(t.Duration, 0):
					return fmt.Errorf("job %d stage %d task %d: duration %v is not a finite non-negative number", i+1, s+1, k+1, t.Duration)
				case t.Containers < 1:
					return fmt.Errorf("job %d stage %d task %d: needs %d containers (at least 1)", i+1, s+1, k+1, t.Containers)
				case t.Containers > minC:
					return fmt.Errorf("job %d stage %d task %d: needs %d containers, but machine type %q has %d per machine", i+1, s+1, k+1, t.Containers, minName, minC)
				}
				if jobC += int64(t.Containers); jobC > MaxJobContainers {
					return fmt.Errorf("job %d stage %d task %d: more than %d containers in all over the job's tasks", i+1, s+1, k+1, MaxJobContainers)
				}
			}
			tasks += len(j.Stages[s].Tasks)
			if tasks > MaxTasks {
				return fmt.Errorf("job %d: more than %d tasks in all", i+1, MaxTasks)
			}
		}
	}
	// Arrivals, estimates and weights as the fluid core checks them (the
	// work, a sum of checked durations, is then finite).
	return checkFluid(jobs)
}

// checkFluidChunk is how many jobs checkFluid converts at a time.
const checkFluidChunk = 1024

// checkFluid is sim.CheckJobs of the jobs' fluid view, converted a chunk
// at a time (each chunk with the job before it, whose arrival the first
// one's is checked against) rather than as a copy of every job per run: a
// worker's run of a 300,000-job window held 18 MB of it.
func checkFluid(jobs []Job) error {
	// No larger than the jobs need: AloneTimes checks one job at a time
	// (on the stack).
	var small [2]sim.Job
	buf := small[:0]
	if len(jobs) > 1 {
		buf = make([]sim.Job, 0, min(len(jobs), checkFluidChunk)+1)
	}
	for lo := 0; lo < len(jobs); lo += checkFluidChunk {
		hi := min(lo+checkFluidChunk, len(jobs))
		buf = buf[:0]
		for i := max(lo-1, 0); i < hi; i++ {
			buf = append(buf, fluidJob(&jobs[i]))
		}
		if sim.CheckJobs(buf) != nil {
			// The error again, numbering the job within all of them.
			return sim.CheckJobs(FluidJobs(jobs[:hi]))
		}
	}
	return nil
}

// fluidJob is j's fluid view (see FluidJobs).
func fluidJob(j *Job) sim.Job {
	return sim.Job{Arrival: j.Arrival, Size: j.Work(), Estimate: j.Estimate, Weight: j.Weight, Containers: float64(j.Containers())}
}

// FluidJobs gives the fluid view of jobs: each job's Size is its Work and
// its Estimate and Weight carry over. Simulated by package sim on a server
// of capacity Cluster.Rate(), they give the fluid references of a
// task-level run (SRPT, PS, FSP: lower bounds, as the fluid server has no
// task granularity, no stage barriers and no container fragmentation).
// Their slowdowns are over Size ÷ capacity; a task-level run's are over
// FluidAlone.
func FluidJobs(jobs []Job) []sim.Job {
	out := make([]sim.Job, len(jobs))
	for i := range jobs {
		out[i] = fluidJob(&jobs[i])
	}
	return out
}

// FluidAlone is what the slowdowns of a task-level run of jobs on cl are
// over, given to package sim's Metrics (Metrics.Alone) beside FluidJobs:
// each job's time alone on cl, AloneTimes with the engine's default
// options (stage barriers), the response the job attains alone on the
// empty cluster under the engine's rules; and the floor SlowdownFloor.
// The Metrics divide a response r by max(alone, min(r, SlowdownFloor)): a
// bounded slowdown over a time the job attains, not one over Work /
// Cluster.Rate(), which no job of fewer tasks than containers can reach.
// (When cl cannot run every job, each keeps its Job.Alone bound: the
// simulation refuses them anyway.)
func FluidAlone(jobs []Job, cl *Cluster) sim.Alone {
	alone, err := AloneTimes(jobs, cl, Options{})
	if err != nil {
		alone = make([]float64, len(jobs))
		for i := range jobs {
			alone[i] = jobs[i].Alone(cl, 0)
		}
	}
	return sim.Alone{Times: alone, Floor: SlowdownFloor}
}

// SlowdownFloor is the bounded slowdown's threshold at task level, in
// seconds: a job's slowdown is its response r / max(its time alone, min(r,
// SlowdownFloor)) (sim.Alone.Floor), Feitelson et al.'s bounded
// slowdown ("Theory and practice in parallel job scheduling", JSSPP 1997):
// a job that responds within a second counts 1. Half the embedded
// trace's jobs run alone in under 20 ms; one that waits a second for a
// container held by a non-preemptible task would otherwise count a
// slowdown of 10^5 and swamp the mean. One second is YARN's default
// NodeManager heartbeat (yarn.resourcemanager.nodemanagers.heartbeat-
// interval-ms = 1000 in yarn-default.xml): no YARN job responds sooner.
const SlowdownFloor = 1.0

// PSDeadlines returns every job's completion time under capped fair
// sharing of the cluster: fluid processor sharing at the cluster's total
// rate in which each job's rate is capped at its parallelism, Work ÷
// Job.Alone (max-min fair water-filling, package sim's PS with Job.Cap).
// A job alone finishes at its Alone bound; jobs together share the rate
// equally except that none gets more than its tasks could use. These are
// the protective deadlines of the task-level deadline columns: the
// completion time of ideal fair sharing among jobs that cannot use more
// than their tasks allow (not a lower bound: a task-level schedule may
// beat a job's deadline by favouring it).
func PSDeadlines(jobs []Job, cl *Cluster) ([]float64, error) {
	fl := FluidJobs(jobs)
	for i := range fl {
		if a := jobs[i].Alone(cl, 0); a > 0 {
			fl[i].Cap = fl[i].Size / a
		}
	}
	r, err := sim.Simulate(fl, cl.Rate(), &sim.PS{})
	if err != nil {
		return nil, err
	}
	return r.Completion, nil
}
