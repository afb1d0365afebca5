// Package capacity is the capacity stage and its what-ifs: COSHH's LP plan
// of the classes' shares (capacity.go: PlanCapacity, the dual prices), the
// check that the cluster has the headroom the plan needs (headroom.go), the
// task-level and COSHH what-ifs on other machine counts (taskwhatif.go,
// coshhwhatif.go) and `schedplan capacity` (capacitycmd.go).
//
// It may import the module's leaves and pipeline's lower packages (report,
// experiment, tuner, bundle, tasklevel, inputs, validation), never package
// pipeline.
package capacity
