// Package lp holds a solver-neutral sparse linear-programming model (Model,
// Solve), its two backends and the COSHH capacity LP (seed 003).
//
// Backends: COIN-OR CLP through the package's own thin cgo binding to CLP's C
// interface (the default when built with cgo), and gonum's dense simplex
// (optimize/convex/lp; the default with CGO_ENABLED=0, or chosen with
// Options.Solver = Gonum). Both report status, objective, primal values, row
// duals and reduced costs in one convention; the gonum backend recovers duals
// from the optimal point's basis, or solves the dual LP.
//
// The COSHH LP (SolveCOSHH) finds the largest λ such that the cluster
// sustains λ × today's arrival rates, the allocation δ of machine types to
// job classes and the suggested classes of each type; it is solved by column
// generation (or, for checking, in full). Column generation keeps no dense
// copy of the classes × types LP: a pricing round reads μ row by row on a
// few goroutines and adds each class's best improving columns and each
// type's best (coshhprice.go); the first master holds more of the fastest
// types of the classes that need much of the cluster (gonum). On CLP, λ
// is found on a folded master instead (coshhfold.go): a class served by
// one type is folded into λ's column and gets a row only when pricing
// moves it, so the master keeps about as many class rows as types; the
// loose rounds price with smoothed duals (Wentges), and the answer is
// certified by its dual bound. Full with LambdaOnly solves the textbook
// model (the one MPSFile writes) in one CLP call. The allocation at the
// optimum is not unique, so a second LP (on the same master; on CLP on an
// explicit master seeded with the folded master's columns), at λ held to
// λ*, picks the canonical one: the least Σ δ_it × (class i's slowdown on type t relative
// to its fastest type) with a fixed hash tie-break (see CanonicalTol and
// the comment above it), the same for CLP and gonum to 1e-9. The dual
// price of each type's capacity row in the first LP (TypeLoad.Dual, λ per
// the type's machines; Marginal per machine) names the bottleneck types;
// the prices sum to λ. COSHHOptions.Warm re-solves from a previous
// solution's columns (re-classification). WhatIf and MachinesForTarget
// answer capacity-planning questions on the machine counts.
package lp
