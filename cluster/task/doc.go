// Package task is the task-level resolution of schedplan's one simulation
// core (the fluid resolution is package sim, whose metrics types it
// reuses). It imports nothing of schedplan's but cluster/sim.
//
// # Model
//
// A [Job] is a sequence of stages (map, then reduce, …) of tasks; a task
// has a base duration and holds some containers while it runs (seed 000
// gives reduce tasks 2). The tasks of a stage become runnable when a
// slow-start fraction of the previous stage's tasks has completed
// ([Options].SlowStart, Hadoop's mapreduce.job.reduce.slowstart.completedmaps;
// the default 1 is seed 000's stage barrier); a task started early cannot
// finish before the previous stage has. Jobs are plain structs, so they can
// be built from a job log, from a tasks table, or by [Synthesize] from task
// counts and task-seconds (or a size) with a seeded skew, so that one trace
// drives both resolutions.
//
// A [Cluster] is machine types (count, containers per machine, exec_rate,
// node label); a task of base duration d runs d/exec_rate seconds. The
// scheduler assigns free containers at every event (arrival, task end) or,
// with a heartbeat interval, at each node's heartbeat, at most MaxAssign
// per heartbeat, as YARN's NodeManagers ask. Tasks are not preempted.
//
// # Engine
//
// [Simulator.Run] is event-driven: the arrivals are a sorted slice, task
// ends and heartbeats are binary heaps, and at events the machines with
// free containers of each type are a heap by number (so a round touches
// only machines that can take work). A round offers machine types fastest
// first, a type's machines lowest-numbered first, and asks the [Policy]
// which job gets the next container of that machine. A pick whose next
// task does not fit reserves the machine for the job (YARN's reservation).
// The engine's own cost is O(log n) per task start and end (n: running
// tasks or free machines) plus O(types) per round.
//
// # Policies
//
// Policies see the [State] (ready, running, completed tasks and service of
// every job, machines' free containers) and keep only their own order, so
// no event loops over all jobs or all machines:
//
//   - FIFO: a heap of the jobs with ready tasks by arrival; O(log n) per
//     decision and per start that empties a job's ready tasks.
//
// # Metrics
//
// A [Result] holds completion times, busy container-seconds and a
// utilisation series per machine type, and the scheduling overhead (wall
// time of the scheduling rounds per decision). Per-job responses and
// slowdowns, with per-user and per-queue aggregates and PS-deadline
// columns, use package sim's [sim.Metrics] on [FluidJobs] at the cluster's
// total rate, so slowdown is response / (work / Cluster.Rate()) as in the
// fluid core, and the fluid PS completion times ([PSDeadlines]) are
// lower-bound-like references for the task level (no task granularity, no
// stage barriers there).
//
// # Invariants
//
// [Checker] is an [Observer] that verifies every run of the tests: no
// container double-booked, no machine above its containers, no task of a
// later stage before its job's slow-start point, every task run once and
// ended on time, and work conservation for work-conserving policies.
package task
