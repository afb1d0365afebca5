// Package task is the task-level resolution of schedplan's one simulation
// core (the fluid resolution is package sim, whose metrics types it
// reuses). It imports nothing of schedplan's but cluster/sim (and
// internal/treap). The larger policies and PRISM's phase-level simulator
// are packages of their own beneath it — cluster/task/coshh,
// cluster/task/hpfsp, cluster/task/prism — which import it; it imports
// none of them.
//
// # Model
//
// A [Job] is a sequence of stages (map, then reduce, …) of tasks; a task
// has a base duration and holds some containers while it runs (seed 000
// gives reduce tasks 2). The tasks of a stage become runnable when a
// slow-start fraction of the previous stage's tasks has completed
// ([Options].SlowStart, Hadoop's mapreduce.job.reduce.slowstart.completedmaps;
// the default 1 is seed 000's stage barrier); a task started early cannot
// finish before the previous stage has; with [Options].ReduceRampup such
// tasks may go ahead of the current stage's waiting ones, as Hadoop's
// MapReduce ApplicationMaster ramps reduces up. [Options].AdmitLimit keeps
// at most that many jobs in the system (seed 000's job admission module);
// [Result].Admitted says when each entered. Jobs are plain structs, so they can
// be built from a job log, from a tasks table, or by [Synthesize] from task
// counts and task-seconds (or a size) with a seeded skew, so that one trace
// drives both resolutions.
//
// A [Cluster] is machine types (count, containers per machine, exec_rate,
// node label); a task of base duration d runs d/exec_rate seconds. The
// scheduler assigns free containers at every event (arrival, task end) or,
// with a heartbeat interval, at each node's heartbeat, at most MaxAssign
// per heartbeat, as YARN's NodeManagers ask. Tasks are not preempted
// unless the policy is a [Preempter] (Fair with Preemption): a killed
// task frees its containers at once, loses its work and runs again.
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
// Policies see the [State] (ready, running, completed tasks, service and
// progress of every job, machines' free containers) and keep only their own
// order, so no event loops over all jobs or all machines. Costs per
// decision (a Pick) and per notification (a task start or end of a job),
// for n jobs in the system:
//
//   - FIFO: a heap of the jobs with ready tasks by arrival; O(log n).
//     With the locality preference (COSHH comparison), bit sets of the
//     queued jobs by kind and, per machine, the jobs with a pending block
//     there (fifoIndex, COSHHBlocks); O(log n) besides placing each job's
//     blocks once.
//   - SRPT, LAS: the same heap keyed by estimated remaining work or by
//     attained service, refreshed at the job's own task starts and ends;
//     O(log n).
//   - FSP: the heap keyed by virtual finish tag (static), plus the virtual
//     PS's departures in a second heap; O(log n) amortised.
//   - Fair: per parent queue a heap of its children with ready tasks, per
//     leaf a heap of its runnable jobs; O(d log Q + log n) for depth d and
//     Q queues (a notification re-keys the job's path). maxRunningApps
//     admissions cost O(leaves under the limited queue) per completion.
//     With preemption on (off by default), the queues' fair shares and
//     starvation are brought up to date after each round of events,
//     O(Q log(1/ε)), and a preemption costs O(Q) per task killed.
//   - Capacity: the children with ready tasks of each queue on the walked
//     path are sorted in Hadoop's queue order (childKey: used capacity,
//     zero-capacity queues last; insertion sort: there are few), O(Σ c²)
//     for c children per level at worst;
//     a leaf keeps its active users in a heap by their first job and each
//     user its jobs in a heap in the leaf's order (FIFO, or fewest
//     containers held for the fair ordering-policy), so user limits skip
//     users, not jobs; a notification is O(d + log n), and so is a
//     demotion between level leaves (crossing times in a heap).
//   - H-PFSP (seed 002, package cluster/task/hpfsp): the slack system of
//     a virtual PS; O(log n) expected per decision, O(stages + log n) per
//     notification (that package's doc has its costs).
//   - LAS_MQ: K per-queue heaps (order by remaining containers or by entry),
//     a heap of demotion times (exact: between a job's events its service
//     estimate is linear, or a ratio of linear functions when stage-aware,
//     and its crossing time has a closed form), a ring for the even
//     leftover; O(K + log n) per decision, O(log n) per notification.
//   - COSHH (seed 003, Alg. 1-2, package cluster/task/coshh): a router
//     driven by the notifications; its plan (classes, the LP's suggested
//     classes per machine type) and the jobs' feature vectors come from
//     package pipeline (pipeline.NewCOSHHPolicy); the registry's "coshh"
//     takes only tolerance=. Costs are the router's.
//
// A job's speed may depend on the machine type beyond exec_rate
// ([Job.TypeScale]: seed 003's class × machine-type execution times, set
// by pipeline.COSHHTypeScales from classify's execution-time model). Seed
// 003's metrics (§5.1: mean completion time, Dissatisfaction, Fairness,
// Locality, overhead) of a run under any policy come from
// coshh.SimulateCOSHHMetrics, whose block placement is the
// [LocalityOracle] of FIFO's and Fair's locality.
//
// Measured on issue 12's benchmark (BenchmarkLarge: 100,000 jobs, 10 M
// tasks, 1,000 machines of 10 containers), a run costs about 4–5 CPU
// seconds per policy (FIFO, Fair, Capacity, LAS_MQ).
//
// Policies are registered by name (registry.go; a policy package of its
// own adds its name from its init with [Register], and cluster/task/all
// links every such package into a program) and built from
// specifications with the grammar of package sim's: [ParsePolicy]("fifo"),
// "fair:pool=user", "capacity:queues=a:60:100/b:40", "las_mq:k=10,alpha0=100,p=10",
// "srpt", "fsp", "las", "hpfsp:fair_limit=2,threshold=0.95" (threshold in
// (0, 1]; 0 means the default 0.95),
// "coshh:tolerance=0.5". Fair and Capacity take their queue trees as plain
// structs ([FairQueue], [CapacityQueue]); a YAML or XML loader converts
// into them.
//
// # Metrics
//
// A [Result] holds completion times, busy container-seconds and a
// utilisation series per machine type, and, with [Options].TimeRounds, the
// scheduling overhead (wall time of the scheduling rounds per decision; a
// run reads no clock without it). Per-job responses and
// slowdowns, with per-user and per-queue aggregates and deadline columns,
// use package sim's [sim.Metrics] on [FluidJobs] at the cluster's total
// rate, their slowdowns over [FluidAlone]. A job's slowdown is its response r over max(its time alone,
// min(r, [SlowdownFloor])) — a bounded slowdown — where the time alone
// ([AloneTimes]) is its response as the only job on the empty cluster
// under the engine's own rules (heartbeats, types fastest first, exec
// rates, stage barriers): attained by every work-conserving policy, not
// work / Cluster.Rate(), which a job of fewer tasks than the cluster has
// containers can never reach. [Job.Alone] is a lower bound on it. The
// deadlines ([ReferenceDeadlines]) are a reference scheduler's
// completions, plus a tenth of its response and a second: the reference
// (Fair, one pool per user, in the pipeline) misses none. [PSDeadlines]
// are the completion times of capped fair sharing, which no
// non-preemptive scheduler meets. The fluid SRPT, PS and FSP at
// the cluster's rate (uncapped) remain lower bounds on the task level's
// responses (no task granularity, no stage barriers there).
//
// # Invariants
//
// [Checker] is an [Observer] that verifies every run of the tests: no
// container double-booked, no machine above its containers, no task of a
// later stage before its job's slow-start point, every task run once and
// ended on time, and work conservation for work-conserving policies (at
// events and at each node's heartbeat).
//
// # Phases (PRISM)
//
// Seed 004's phase-level scheduling runs in its own event loop, in package
// cluster/task/prism, not in the engine: there a phase's speed changes
// whenever another phase starts or ends on its machine, which moves a
// task's end after its start.
package task
