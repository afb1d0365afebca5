// Package tasktest holds what the tests of cluster/task's policy packages
// (coshh, hpfsp, prism) share: map-reduce jobs built by hand (MR), runs
// under the invariant checker (Run, RunSpec), their responses, issue 12's
// large benchmark workload (Large, BenchLarge) and the cancellation
// measure (CancelAfter). Package task's own tests keep their copies of
// these helpers: its internal tests cannot import a package that imports
// task.
//
// It may import cluster/task and what task imports (cluster/sim,
// internal/cputime), and the standard library's testing; only tests
// import it (internal: cluster/task/... alone).
package tasktest
