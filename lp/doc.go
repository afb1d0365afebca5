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
// generation (or, for checking, in full). WhatIf and MachinesForTarget answer
// capacity-planning questions on the machine counts.
package lp
