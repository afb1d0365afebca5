// Package inputs is what a run reads and is asked: the run's parameters
// (RunConfig, DefaultRunConfig, the limits, StageOptions), the inputs every
// stage reads once they are loaded and checked (Inputs: the log, its
// tasks, the cluster spec, the sizes, the capacity, the split), the log's
// reading (input.go: ReadInput, InputOptions, the formats), its
// description (describe.go, describestream.go: Workload), the cluster's
// observed times (observed.go), and the checks of the user names and of the
// user's own scheduler file (usercheck.go, currentconfig.go), the
// simulation jobs built window by window from the log's columns
// (simjobs.go) and their key (jobskey.go), and which rows of which columns
// the stages still own (release.go).
//
// Prepare (package pipeline) fills Inputs. This package may import the
// module's leaves, pipeline/report, pipeline/experiment, pipeline/tuner,
// pipeline/bundle and pipeline/tasklevel, never package pipeline or a stage
// above it.
package inputs
