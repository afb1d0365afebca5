// Package experiment is the one way schedplan simulates: an Experiment is
// the jobs, capacity, PS deadlines, policies, error model, runs and seed;
// RunExperiments runs any number of them as one parallel, deterministic
// pool (ParallelFor; a UnitHook shards the simulations) and returns per-run
// summaries and, when asked, per-job rows (JobRows) that Aggregate
// summarises. The simulation core is a Resolution: Fluid (package
// cluster/sim) here, the task-level one in package pipeline.
//
// Beside the runner: the split of a log into its tuning and validation
// windows (Split), the fluid bounds (ComputeBounds), results.parquet's
// choice of jobs and its writer (ResultsChoice, SampleJobs, ResultsSink),
// the time formats (FormatSpan, FormatInstant), and the errors every stage
// returns for a bad parameter or too big a run (ParamError, TooBigError).
//
// It may import the module's leaves (data, cluster, cluster/sim, estimate)
// and pipeline/report, never a stage of pipeline.
package experiment
