// Package tasktest holds what the tests of cluster/task and of its policy
// packages (coshh, hpfsp, prism) share: map-reduce jobs built by hand
// (MR), runs under the invariant checker (Run, RunSpec) and their
// responses, issue 12's large benchmark workload and its figures (Large,
// BenchPolicy) and the cancellation measure (CancelAfter). Package task's
// internal tests (package task, not task_test) keep their own copies of
// MR, Run and the rest: they cannot import a package that imports task.
//
// It may import cluster/task and internal/cputime; only tests import it.
package tasktest
