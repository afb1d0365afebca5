// Package all links every task-level policy that lives in a package of its
// own into a program, so that package task's registry (task.ParsePolicy,
// task.PolicyNames, task.LookupPolicy) knows their names: cluster/task/coshh
// ("coshh") and cluster/task/hpfsp ("hpfsp"), each of which registers
// itself from its init with task.Register, as image/png does with package
// image. A program or test that resolves policy names it did not build
// itself imports it for its side effect:
//
//	import _ "github.com/schedplan/schedplan/cluster/task/all"
//
// A new policy package is added to the imports here. It has no code of
// its own and may import only the policy packages under cluster/task.
package all
