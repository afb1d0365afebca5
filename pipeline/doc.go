// Package pipeline wires schedplan's stages together: ingest, validation,
// sizes, classification, the COSHH LP, tuning, bounds, emission of scheduler
// configurations, validation by simulation and the report.
//
// Run walks one table of stages ({name, parameters, dependencies, inputs,
// state, run}); a stage's key covers every input it reads, so a re-run redoes
// exactly what changed. Prepare checks every parameter (ParamError) and the
// work a run will take (TooBigError) before the first stage.
//
// Every simulation goes through one experiment runner: an Experiment is the
// jobs, capacity, PS deadlines, policies, error model, runs and seed;
// RunExperiments runs any number of them as one parallel, deterministic pool
// and returns per-run summaries (and rows) that Aggregate summarises. The
// simulation core is a Resolution: Fluid (package cluster/sim) today; the
// task-level core plugs in as another Resolution, asked through its Policy
// method what each policy uses.
package pipeline
