package task

import "github.com/schedplan/schedplan/cluster/sim"

// Report summarises a run with package sim's metrics, so that both
// resolutions report alike.
type Report struct {
	// All covers every job: responses, slowdowns (bounded slowdowns over
	// the job's time alone on the empty cluster, FluidAlone: task
	// granularity, stage barriers and slow containers count), makespan,
	// utilisation and, with deadlines, the deadline columns (e.g.
	// ReferenceDeadlines).
	All sim.Summary
	// Users and Queues aggregate the jobs of each Job.User and Job.Queue,
	// in order of first appearance. A group's Utilisation is its work over
	// the cluster's capacity during the group's own span.
	Users, Queues []Group
	// Types is the utilisation per machine type.
	Types []TypeUtil
	// Decisions and OverheadNs: the policy's decisions and the mean
	// wall-clock time per decision, in ns.
	Decisions  int
	OverheadNs float64
	// PerJob holds per-job responses, slowdowns and deadline misses.
	PerJob sim.Metrics
}

// Group is the summary of one user's or queue's jobs.
type Group struct {
	Name    string
	Summary sim.Summary
}

// TypeUtil is a machine type's utilisation: Mean is its busy
// container-seconds over its containers × the run's span; Series is the
// busy share per bucket of Result.UtilWidth seconds from Result.UtilStart.
type TypeUtil struct {
	Name   string
	Mean   float64
	Series []float64
}

// Summarize computes the report of run r of jobs on cl. deadlines, when not
// nil, are every job's deadline: ReferenceDeadlines (a reference
// scheduler's completions), PSDeadlines (capped fair sharing of the
// cluster) or any the caller chooses. Each job's time alone is simulated
// (AloneTimes).
func Summarize(jobs []Job, cl *Cluster, r *Result, deadlines []float64) Report {
	fl, alone := FluidJobs(jobs), FluidAlone(jobs, cl)
	rate := cl.Rate()
	var rep Report
	rep.PerJob.Alone = alone
	rep.All = rep.PerJob.Compute(fl, r.Completion, rate, deadlines)
	rep.Users = groups(jobs, fl, alone, r.Completion, rate, deadlines, func(j *Job) string { return j.User })
	rep.Queues = groups(jobs, fl, alone, r.Completion, rate, deadlines, func(j *Job) string { return j.Queue })
	span := 0.0
	if len(jobs) > 0 {
		span = rep.All.Makespan
	}
	for ti, t := range cl.Types {
		u := TypeUtil{Name: t.Name}
		if c := float64(t.Count * t.Containers); c > 0 && span > 0 && ti < len(r.TypeBusy) {
			u.Mean = r.TypeBusy[ti] / (c * span)
		}
		if ti < len(r.Util) {
			u.Series = append([]float64(nil), r.Util[ti]...)
		}
		rep.Types = append(rep.Types, u)
	}
	rep.Decisions, rep.OverheadNs = r.Decisions, r.OverheadPerDecision()
	return rep
}

// groups summarises the jobs of each name, their slowdowns over alone's
// times (one per job of jobs) and floor.
func groups(jobs []Job, fl []sim.Job, alone sim.Alone, done []float64, rate float64, deadlines []float64, name func(*Job) string) []Group {
	idx := map[string]int{}
	var members [][]int
	var out []Group
	for i := range jobs {
		n := name(&jobs[i])
		g, ok := idx[n]
		if !ok {
			g = len(out)
			idx[n] = g
			out = append(out, Group{Name: n})
			members = append(members, nil)
		}
		members[g] = append(members[g], i)
	}
	var m sim.Metrics
	for g, mem := range members {
		sj := make([]sim.Job, len(mem))
		sc := make([]float64, len(mem))
		m.Alone = sim.Alone{Times: make([]float64, len(mem)), Floor: alone.Floor}
		var sd []float64
		if deadlines != nil {
			sd = make([]float64, len(mem))
		}
		for k, i := range mem {
			sj[k], sc[k], m.Alone.Times[k] = fl[i], done[i], alone.Times[i]
			if sd != nil {
				sd[k] = deadlines[i]
			}
		}
		out[g].Summary = m.Compute(sj, sc, rate, sd)
	}
	return out
}
