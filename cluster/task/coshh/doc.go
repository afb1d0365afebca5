// Package coshh is seed 003's COSHH scheduler (Rasooli and Down) at the
// task level: the router ([COSHHRouter]: the queuing process, Alg. 1, and
// the routing process, Alg. 2), the policy that drives it from the task
// engine's notifications ([COSHH]), the input blocks' replica placement
// ([COSHHBlocks]: a [task.LocalityOracle] for FIFO's and Fair's locality)
// and seed 003's metrics of a run under any policy (§5.1: mean completion
// time, Dissatisfaction, Fairness, Locality, overhead;
// [SimulateCOSHHMetrics], [COSHHObserver]).
//
// Its plan (classes, the LP's suggested classes per machine type) and the
// jobs' feature vectors come from package pipeline
// (pipeline.NewCOSHHPolicy), as do the jobs' class × machine-type speeds
// (task.Job.TypeScale, pipeline.COSHHTypeScales). Its init registers
// "coshh" in package task's registry (task.Register; only tolerance=,
// the rest is the pipeline's): a program resolves the name once it
// imports this package or cluster/task/all. Costs are the router's (see
// COSHHRouter).
//
// It may import cluster/task and cluster/sim; not lp, classify or
// pipeline, which build its plan.
package coshh
