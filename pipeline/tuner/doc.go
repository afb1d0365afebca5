// Package tuner tunes LAS_MQ on the tuning window: the search space
// (searchspace.go), the cross-validated scoring of every candidate on the
// folds (tunecv.go, cv.go: busy-period chunks, sampled and whole folds), the
// constraints and the Pareto front over the five fold-mean metrics and the
// pick from it (pareto.go, tunecv.go), the explanation of the choice
// (tuneexplain.go), the bootstrap intervals (bootstrap.go) and the tune
// stage's report (tunewindows.go: TuneLASMQWindows, TuneReport, its text).
// To change how the tuner picks from the Pareto front, start at pareto.go
// and tuneCV.pick in tunecv.go.
//
// LASMQConfig is the tuned configuration as schedplan.yaml holds it; the
// bundle and its YARN rendering (package pipeline) read it.
//
// It may import the module's leaves, pipeline/report and
// pipeline/experiment (every simulation goes through RunExperiments),
// never package pipeline or a stage above it.
package tuner
