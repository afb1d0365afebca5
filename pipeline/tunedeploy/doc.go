// Package tunedeploy is the tune-deploy stage and the run's verdict: every
// deployable candidate (keep the current scheduler, fair-scheduler.xml
// pools, capacity-scheduler.xml LAS_MQ levels; deploycand.go) rendered to
// its YARN file and replayed at task level on chunks of the tuning window ×
// task seeds, paired against the current scheduler (deploytune.go); then
// the verdict on the validation window, deploy only when the bootstrap
// interval of the paired difference lies below 0 (deployverdict.go), and
// its report section and text (deploytext.go).
//
// It may import the module's leaves and pipeline's lower packages (report,
// experiment, tuner, bundle, tasklevel, inputs, validation), never package
// pipeline.
package tunedeploy
