// Package sweep is `schedplan sweep`: a grid of fluid experiments (loads,
// policies, estimation errors) run through pipeline/experiment's one
// runner into one results file, shardable (MergeSweepFiles completes a
// sweep from its parts).
//
// It may import the module's leaves, pipeline/report and
// pipeline/experiment, never package pipeline or a stage.
package sweep
