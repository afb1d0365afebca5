// Package lp holds a solver-neutral sparse linear-programming model, its
// solvers (COIN-OR CLP through a thin cgo binding; gonum's simplex when built
// without cgo) and the COSHH capacity LP (seed 003): the largest λ such that
// the cluster sustains λ × today's arrival rates, the allocation δ of machine
// types to job classes, and what-ifs on the machine counts.
package lp
