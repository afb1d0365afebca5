// Package sim is the one simulation core of schedplan: the event engine,
// the scheduling policies, their registry and the metrics. Every simulation
// in schedplan — simulate, sweeps, tuning, bounds, validation — runs here.
// It imports nothing of schedplan's (like lp): the cluster description is
// package cluster, and the adapters from job logs live in pipeline.
//
// # Fluid simulation
//
// The fluid model is seed 001's: one server of capacity C (C = 1 reproduces
// schedsim), jobs with an arrival time, a true size (work) and an estimated
// size; a policy gives every active job a rate, the rates sum to C whenever
// a job is present (every policy here is work-conserving), and a job
// completes when its attained service reaches its true size. Policies that
// use sizes see only the estimates. [Simulator.Run] drives a [Policy]
// through arrivals and the policy's own events; [Metrics.Compute] turns
// completion times into responses, slowdowns, deadline misses and
// aggregates. A Simulator and a Metrics reuse their buffers, so tuning can
// run thousands of simulations without allocating per run.
//
// Each policy keeps its state so that no event loops over all active jobs:
//
//   - FIFO: the queue is an index range; O(1).
//   - PS, GPS: a virtual time V (service per unit weight) and a heap of
//     virtual finish tags V_arrival + size/weight; O(log n).
//   - SRPT, SRPT+PS: only the head's estimated remaining work changes, so
//     the others wait in a heap keyed by their frozen estimated remaining
//     work; late jobs share like PS (virtual time, heap); O(log n).
//   - FSP+FIFO, FSP+PS: the virtual PS over estimates is a virtual time and
//     a heap of tags; tags never change and the virtual PS finishes jobs in
//     tag order, so the running jobs sit in a second heap by tag, whose
//     minimum is served and is the one that becomes late; O(log n).
//   - LAS: jobs with equal attained service form a group; the served group
//     is the lowest, and the waiting groups form a stack (a new job arrives
//     at level 0, below all); members are in a pairing heap by size, so
//     merging groups is O(1) and completions O(log n) amortised.
//   - LAS_MQ: k queues in the in-level order (FIFO linked lists; heaps
//     by estimated remaining work or, for PS inside a level, by virtual
//     finish tag); a bit set skips empty queues, so an event costs
//     O(q + log n) for q non-empty queues.
//   - PFSP: the slacks of seed 002 (eq. 6) change by a constant on a
//     prefix, suffix or all of the running jobs, except on arrival, when
//     each job ahead of the new one gains its own remaining virtual work.
//     The running jobs sit in a treap in virtual order with lazy additions
//     that keeps the least slack per subtree, the own-work addition handled
//     as a kinetic segment tree's "heaten" (a subtree knows how many such
//     additions its minimum survives); the served job is found by a walk
//     that enters only subtrees holding a new least slack and a job that
//     could win. O(log n) expected per update; the heaten's recursions are
//     amortised and the walk has no proven bound, but both measure as
//     O(log n) per event at loads 0.9–1.2 up to 1M jobs (figures in PFSP's
//     doc; the previous scan grew linearly in n under overload).
//
// Rate caps (Job.Cap, a job's parallelism) are honoured by FIFO (water-fill
// in arrival order: O(s) per event for the s jobs served at once) and by
// PS/GPS (max-min fair water-filling: capped jobs run at their caps with
// fixed finish times in a heap, the others share by virtual time; jobs move
// between the two sets as the fair level changes, O((1 + moves) log n) per
// event) and by LAS_MQ (each queue's share water-filled in entry order, the
// leftover water-filled over all queues in priority order: O(k + s)). The
// other policies reject capped jobs with an error.
//
// Floating point: sizes span nine orders of magnitude. An event snaps the
// quantity that causes it (remaining work, virtual tag, level) to its exact
// target, so every event makes progress; any other job whose remaining work
// is within [Tol] (1e-9) of its size completes at the same event. Virtual
// times restart at 0 whenever their system empties, and so does the clock:
// the Simulator runs every busy period on a clock that starts at its first
// arrival and reports responses on it, so Unix-epoch submit times (1.7e9 s,
// a resolution of 2.4e-7 s) lose nothing. Deadline misses use the
// relative tolerance [DeadlineTol].
//
// Zero-size jobs are valid: they complete as soon as a policy serves them
// (at once under PS, SRPT, FSP, LAS; behind the head under FIFO). Their
// slowdown is undefined: NaN per job and left out of slowdown aggregates.
package sim
