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
// simulation core is a Resolution, asked through its Policy method what each
// policy uses: Fluid (package cluster/sim) or TaskLevel (package
// cluster/task: the jobs as map and reduce tasks on the cluster spec's
// machines, policies from the task registry plus capacity:file= and
// fair:file=, which load the YARN files through package cluster/yarn). The
// validate stage runs both: the fluid table is the bound-level view, the
// task-level table (TaskValidation) simulates the emitted
// capacity-scheduler.xml and fair-scheduler.xml.
package pipeline
