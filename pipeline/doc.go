// Package pipeline wires schedplan's stages together: ingest, validation,
// sizes, classification, the COSHH LP, tuning, bounds, emission of scheduler
// configurations, validation by simulation and the report.
//
// Run walks one table of stages ({name, parameters, dependencies, inputs,
// state, run}; run.go); a stage's key covers every input it reads, so a
// re-run redoes exactly what changed (stage.go, stale.go, stagecols.go). A
// stage can be sharded and merged (shard.go). Prepare checks every
// parameter (ParamError) and the work a run will take (TooBigError) before
// the first stage. This package holds the wiring only; the work of each
// stage is in a package of its own under pipeline/, lowest first:
//
//   - report: the report's model, plots and formatting;
//   - experiment: the one experiment runner every simulation goes through
//     (an Experiment is the jobs, capacity, PS deadlines, policies, error
//     model, runs and seed; RunExperiments runs any number of them as one
//     parallel, deterministic pool), the windows, the bounds;
//   - tuner: LAS_MQ's tuner (folds, Pareto front, pick); sweep: sweeps;
//   - bundle: schedplan.yaml and its YARN files;
//   - tasklevel: the task-level simulation (TaskLevel) and its models;
//   - inputs: RunConfig, Inputs, the log as read;
//   - validation: the validate stage and COSHH's stage;
//   - tunedeploy: the tune-deploy stage and the verdict;
//   - capacity: the capacity plan, headroom and what-ifs;
//   - runreport: RunResult, report.html and the run's text.
//
// Package pipeline may import all of them; none imports pipeline
// (internal/archtest checks the order).
package pipeline
