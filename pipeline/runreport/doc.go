// Package runreport renders what a run produced: RunResult (summary.json),
// report.html's sections built from the stages' states (reportbuild.go,
// reporttune.go: the verdict, the tuning, the folds, the front) and the
// terminal's text of a run (text.go).
//
// It sits above the stages: it may import the module's leaves and every
// lower package of pipeline (report, experiment, tuner, bundle, tasklevel,
// inputs, validation, tunedeploy, capacity), never package pipeline.
package runreport
