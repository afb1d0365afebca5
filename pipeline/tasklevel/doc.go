// Package tasklevel simulates at task level: the jobs as map and reduce
// tasks on the cluster spec's machines (package cluster/task), with the
// policies of the task registry plus capacity:file= and fair:file=, which
// load the YARN files (TaskLevel, a Resolution of package
// pipeline/experiment); the models the task-level views share: the
// execution-time model and offered load (capmodel.go, execload.go), COSHH's
// plan and routing simulation (coshhplan.go, coshhsim.go, coshhproblem.go),
// H-PFSP's evaluation (hpfsp.go), PRISM's phase simulator (prismsim.go),
// the task statistics and tables (taskstats.go, tasktable.go), and
// `schedplan simulate`'s report (simulate.go).
//
// It may import the module's leaves, pipeline/report, pipeline/experiment,
// pipeline/tuner and pipeline/bundle (the YARN files it replays), never
// package pipeline or a stage above it.
package tasklevel
