// Package bundle is everything schedplan writes for YARN, beside package
// cluster/yarn's rules: the configuration bundle (schedplan.yaml: Bundle,
// its classes, capacity plan, tuned LAS_MQ, COSHH and H-PFSP sections and
// the deploy record) and its checks, the one conversion of LAS_MQ
// thresholds to held container-seconds (HeldPerUnit), the routing of users
// and the log's queues to queues (routing.go), and the rendering of a bundle
// to capacity-scheduler.xml and fair-scheduler.xml (yarn.go, RenderYARN).
//
// It may import the module's leaves (cluster/yarn, cluster/task, classify,
// lp), pipeline/report, pipeline/experiment and pipeline/tuner (the tuned
// LAS_MQ it holds), never package pipeline or a stage above it.
package bundle
