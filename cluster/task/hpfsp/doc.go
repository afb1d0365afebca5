// Package hpfsp is seed 002's H-PFSP scheduler (Alg. 1–4) as a task-level
// policy ([HPFSP]) and its bookkeeping, the slack system of a virtual PS
// ([SlackSystem]: a treap with a kinetic minimum of slack, heaps of
// fair-phase and late jobs).
//
// Costs: O(log n) expected per decision, O(stages + log n) per
// notification (a job's service, estimate and stage progress are
// refreshed at its own events) and per running job at each progress
// report (every heartbeat, else 3 s: the running stages' progress feeds
// the estimator, [RemainingEstimator]); BenchmarkTaskEvents/hpfsp (10.1 M
// engine events) takes 9.3–9.7 CPU seconds on a quiet machine, against
// 5–7 for the other policies.
//
// Its init registers "hpfsp" in package task's registry (task.Register):
// "hpfsp:fair_limit=2,threshold=0.95" (threshold in (0, 1]; 0 means the
// default 0.95) resolves once a program imports this package or
// cluster/task/all. Package pipeline tunes it (tune-hpfsp) and gives it
// the online EWMA estimator (package estimate).
//
// It may import cluster/task, cluster/sim and internal/treap; not
// estimate or pipeline (the estimator comes in through NewEstimator).
package hpfsp
