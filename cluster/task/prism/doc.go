// Package prism is seed 004's phase-level scheduling (PRISM, Zhang et
// al.): tasks made of phases (a map's read, map and spill; a reduce's
// shuffle, sort and reduce) with resource demand vectors, on machines with
// capacity vectors.
//
// It runs in its own event loop, [PhaseSim] (prism_sim.go), not in package
// task's engine: there a phase's speed changes whenever another phase
// starts or ends on its machine ([PhaseRates], with thrashing past
// capacity, [ThrashedCapacity]) and a PRISM task pauses between phases,
// both of which move a task's end after its start. PRISM ([PrismSelector],
// Alg. 1) and two baselines on the same model — Fair with slots and YARN
// with fixed-size containers — share the machines' capacity vectors and
// the utilisation measure; [PrismRunner] runs task-level jobs under PRISM
// from a specification ("prism:alpha=1,k=20,a=0.1") and a profile file
// ([ParseProfiles]; the default, profiles/prism_default.yaml, is
// embedded). Its invariant (admitted demand within capacity) is checked by
// the simulation itself (PhaseSimResult.MaxOvercommit), not by
// task.Checker.
//
// It may import cluster/task (the task-level [task.Job] it reads, the
// cancellation period), cluster/sim and the module's internal packages
// (treap's slot pool, the strict YAML of profile files); package pipeline
// imports it (simulate --level task's phase-level policies). The phase
// policies are not in task's registry: their names are pipeline's
// (pipeline.PhasePolicyNames).
package prism
