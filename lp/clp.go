//go:build cgo

package lp

// The project's own thin binding to COIN-OR CLP's C interface. Every C model
// is created and deleted in the same Go call path (defer), data is copied
// into CLP by Clp_loadProblem / Clp_addColumns (CLP keeps no pointer into Go
// memory), and results are copied out before the model is deleted.

/*
#cgo pkg-config: clp
#include <stdlib.h>
#include <float.h>
#include <signal.h>
#include "coin/Clp_C_Interface.h"

// clp_solve runs one solve (0 initial, 1 primal, 2 dual) and puts the
// SIGINT handler back exactly as it was: CLP installs its own handler for
// the solve and restores the previous one with signal(), which drops the
// SA_ONSTACK flag of the Go runtime's handler, so that a later Ctrl-C
// aborts the program ("non-Go code set up signal handler without
// SA_ONSTACK flag") instead of reaching os/signal.
static void clp_solve(Clp_Simplex *m, int how) {
	struct sigaction saved;
	sigaction(SIGINT, NULL, &saved);
	switch (how) {
	case 1: Clp_primal(m, 0); break;
	case 2: Clp_dual(m, 0); break;
	default: Clp_initialSolve(m);
	}
	sigaction(SIGINT, &saved, NULL);
}
*/
import "C"

import (
	"fmt"
	"math"
	"unsafe"
)

const clpAvailable = true

// Compile-time check that CoinBigIndex and C int are 32-bit, so []int32
// slices can be handed to CLP as they are.
var (
	_ [unsafe.Sizeof(C.CoinBigIndex(0)) - 4]struct{}
	_ [4 - unsafe.Sizeof(C.CoinBigIndex(0))]struct{}
	_ [unsafe.Sizeof(C.int(0)) - 4]struct{}
	_ [4 - unsafe.Sizeof(C.int(0))]struct{}
)

// clpModel owns one Clp_Simplex.
type clpModel struct {
	p     unsafe.Pointer // Clp_Simplex*
	nrows int
	ncols int
}

func newCLP() *clpModel {
	p := C.Clp_newModel()
	C.Clp_setLogLevel(p, 0)
	return &clpModel{p: p}
}

// free deletes the C model; it is safe to call twice.
func (c *clpModel) free() {
	if c.p != nil {
		C.Clp_deleteModel(c.p)
		c.p = nil
	}
}

// clpBound maps ±Inf to ±DBL_MAX, CLP's infinity.
func clpBound(v []float64) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		switch {
		case math.IsInf(x, 1):
			out[i] = math.MaxFloat64
		case math.IsInf(x, -1):
			out[i] = -math.MaxFloat64
		default:
			out[i] = x
		}
	}
	return out
}

func dptr(v []float64) *C.double {
	if len(v) == 0 {
		return nil
	}
	return (*C.double)(unsafe.Pointer(&v[0]))
}

func iptr(v []int32) *C.int {
	if len(v) == 0 {
		return nil
	}
	return (*C.int)(unsafe.Pointer(&v[0]))
}

func bptr(v []int32) *C.CoinBigIndex {
	if len(v) == 0 {
		return nil
	}
	return (*C.CoinBigIndex)(unsafe.Pointer(&v[0]))
}

// load copies the model into CLP with one Clp_loadProblem call.
func (c *clpModel) load(m *Model) { c.loadWith(m, m.matrix(), m.colLo, m.colHi) }

// loadWith is load with a prebuilt matrix and column bounds.
func (c *clpModel) loadWith(m *Model, a csc, colLo, colHi []float64) {
	// CLP reads start[0..ncols] even for an empty matrix.
	start := a.start
	index, value := a.index, a.value
	if len(index) == 0 {
		index, value = []int32{0}, []float64{0}
	}
	colLo, colHi = clpBound(colLo), clpBound(colHi)
	rowLo, rowHi := clpBound(m.rowLo), clpBound(m.rowHi)
	obj := m.obj
	C.Clp_loadProblem(c.p, C.int(m.NumCols()), C.int(m.NumRows()),
		bptr(start), iptr(index), dptr(value),
		dptr(colLo), dptr(colHi), dptr(obj), dptr(rowLo), dptr(rowHi))
	c.nrows, c.ncols = m.NumRows(), m.NumCols()
	if m.Sense == Maximize {
		C.Clp_setOptimizationDirection(c.p, -1)
	} else {
		C.Clp_setOptimizationDirection(c.p, 1)
	}
}

// addColumns appends columns: column k has bounds [lo[k], hi[k]], objective
// obj[k] and entries index/value[start[k]:start[k+1]].
func (c *clpModel) addColumns(lo, hi, obj []float64, start, index []int32, value []float64) {
	n := len(lo)
	if n == 0 {
		return
	}
	if len(index) == 0 {
		index, value = []int32{0}, []float64{0}
	}
	clo, chi := clpBound(lo), clpBound(hi)
	C.Clp_addColumns(c.p, C.int(n), dptr(clo), dptr(chi), dptr(obj), bptr(start), iptr(index), dptr(value))
	c.ncols += n
}

func (c *clpModel) setLimits(opt Options) {
	if opt.MaxIterations > 0 {
		C.Clp_setMaximumIterations(c.p, C.int(opt.MaxIterations))
	}
	if opt.TimeLimit > 0 {
		C.Clp_setMaximumSeconds(c.p, C.double(opt.TimeLimit.Seconds()))
	}
}

// how a CLP solve starts.
const (
	clpInitial = iota // Clp_initialSolve: presolve, CLP's choice of method
	clpPrimal         // Clp_primal from the current basis (warm start after adding columns)
	clpDual           // Clp_dual from the current basis (warm start after changing bounds)
)

// solve runs CLP and copies the results out.
func (c *clpModel) solve(how int) (*Solution, error) {
	C.clp_solve(c.p, C.int(how))
	sol := &Solution{Solver: CLP, Iterations: int(C.Clp_getIterationCount(c.p))}
	switch st := int(C.Clp_status(c.p)); st {
	case 0:
		sol.Status = Optimal
	case 1:
		sol.Status = Infeasible
		return sol, nil
	case 2:
		sol.Status = Unbounded
		return sol, nil
	case 3:
		sol.Status = IterationLimit
		return sol, nil
	default:
		sol.Status = Error
		return sol, fmt.Errorf("lp: CLP stopped with status %d (secondary %d)", st, int(C.Clp_secondaryStatus(c.p)))
	}
	sol.Objective = float64(C.Clp_getObjValue(c.p))
	copyOut := func(p *C.double, n int) []float64 {
		out := make([]float64, n)
		if n > 0 && p != nil {
			copy(out, unsafe.Slice((*float64)(unsafe.Pointer(p)), n))
		}
		return out
	}
	sol.X = copyOut(C.Clp_getColSolution(c.p), c.ncols)
	sol.RowActivity = copyOut(C.Clp_getRowActivity(c.p), c.nrows)
	sol.Duals = copyOut(C.Clp_getRowPrice(c.p), c.nrows)
	sol.ReducedCosts = copyOut(C.Clp_getReducedCost(c.p), c.ncols)
	sol.DualsAvailable = true
	return sol, nil
}

func solveCLP(m *Model, opt Options) (*Solution, error) {
	c := newCLP()
	defer c.free()
	a := m.matrix()
	// CLP reports some unbounded models whose improving ray is a column in
	// no row as infeasible: fix such columns and decide here.
	colLo, colHi, ray := fixEmptyRays(m, a)
	if opt.MPSFile != "" {
		if err := WriteMPS(m, opt.MPSFile); err != nil {
			return &Solution{Status: Error}, err
		}
	}
	c.loadWith(m, a, colLo, colHi)
	c.setLimits(opt)
	sol, err := c.solve(clpInitial)
	if err == nil && (sol.Status == Infeasible || sol.Status == Unbounded) {
		sol, err = c.confirm(m.obj, sol)
	}
	if err == nil && ray && sol.Status == Optimal {
		return &Solution{Status: Unbounded, Iterations: sol.Iterations}, nil
	}
	return sol, err
}

// confirm re-checks an infeasible or unbounded verdict, which CLP's dual
// simplex sometimes confuses (an unbounded model reported infeasible):
// phase 1 is the model with a zero objective; if that is feasible, the
// objective is restored and primal simplex continues from the feasible basis,
// which tells optimal from unbounded.
func (c *clpModel) confirm(obj []float64, first *Solution) (*Solution, error) {
	zero := make([]float64, c.ncols)
	C.Clp_chgObjCoefficients(c.p, dptr(zero))
	feas, err := c.solve(clpInitial)
	if err != nil || feas.Status != Optimal {
		C.Clp_chgObjCoefficients(c.p, dptr(obj))
		if err == nil && feas.Status == Infeasible {
			return feas, nil
		}
		return first, nil
	}
	C.Clp_chgObjCoefficients(c.p, dptr(obj))
	sol, err := c.solve(clpPrimal)
	sol.Iterations += first.Iterations + feas.Iterations
	return sol, err
}

// clpMaster is a column-generation master on one CLP model.
type clpMaster struct {
	c      *clpModel
	solved bool
}

// masterTol is the CLP master's primal and dual feasibility tolerance
// (CLP's default is 1e-7): the COSHH LP's rows span many orders of
// magnitude, and at 1e-7 CLP's canonical allocation could serve a class
// 1e-6 (relative) less than λ_lo α_i; at 1e-9 it could still take 1e-6 of
// a bottleneck type from a class that runs there 1e8 times slower than the
// one it gave it to (the embedded trace with k = 5).
const masterTol = 1e-11

func newCLPMaster(m *Model) master {
	c := newCLP()
	c.load(m)
	return &clpMaster{c: c}
}

func (cm *clpMaster) add(cols *newColumns) {
	cm.c.addColumns(cols.lo, cols.hi, cols.obj, cols.start, cols.index, cols.value)
}

func (cm *clpMaster) setObjective(sense Sense, obj, lo []float64) {
	dir := 1.0
	if sense == Maximize {
		dir = -1
	}
	C.Clp_setOptimizationDirection(cm.c.p, C.double(dir))
	C.Clp_chgObjCoefficients(cm.c.p, dptr(obj))
	C.Clp_chgColumnLower(cm.c.p, dptr(clpBound(lo)))
}

func (cm *clpMaster) solve() (*Solution, error) {
	how := clpPrimal
	var first *Solution
	if !cm.solved {
		// The first solve runs at CLP's default tolerances (1e-7), then
		// primal simplex continues from its basis at masterTol: the
		// textbook model of 2,000 × 500 (10⁶ columns) takes 4× the CPU when
		// solved at 1e-11 from the start, and the clean-up pivots are few.
		cm.solved = true
		var err error
		if first, err = cm.c.solve(clpInitial); err != nil {
			return first, err
		}
		C.Clp_setPrimalTolerance(cm.c.p, masterTol)
		C.Clp_setDualTolerance(cm.c.p, masterTol)
	}
	sol, err := cm.c.solve(how)
	if first != nil && sol != nil {
		sol.Iterations += first.Iterations
	}
	if err == nil && how == clpPrimal && sol.Status == Infeasible {
		// CLP's primal simplex from the previous basis can report a
		// feasible master infeasible after setObjective raised a lower bound
		// (seen on badly scaled COSHH instances): solve it from scratch.
		it := sol.Iterations
		sol, err = cm.c.solve(clpInitial)
		sol.Iterations += it
	}
	if sol != nil {
		sol.Solver = CLP
	}
	return sol, err
}

func (cm *clpMaster) close() { cm.c.free() }

// solveMPSFile reads an MPS file with CLP's reader and solves it (the
// tests check that what WriteMPS writes is what CLP reads).
func solveMPSFile(path string) (*Solution, error) {
	c := newCLP()
	defer c.free()
	cs := C.CString(path)
	rc := C.Clp_readMps(c.p, cs, 1, 0)
	C.free(unsafe.Pointer(cs))
	if rc != 0 {
		return nil, fmt.Errorf("lp: CLP could not read MPS file %s (code %d)", path, int(rc))
	}
	c.nrows, c.ncols = int(C.Clp_numberRows(c.p)), int(C.Clp_numberColumns(c.p))
	sol, err := c.solve(clpInitial)
	if err == nil && (sol.Status == Infeasible || sol.Status == Unbounded) && c.ncols > 0 {
		obj := append([]float64(nil), unsafe.Slice((*float64)(unsafe.Pointer(C.Clp_getObjCoefficients(c.p))), c.ncols)...)
		sol, err = c.confirm(obj, sol)
	}
	return sol, err
}

// fixEmptyRays finds columns with no matrix entries (outside free rows) whose objective improves
// towards an infinite bound (an unbounded ray if the rest is feasible) and
// returns column bounds with those columns fixed at the point of their
// bounds nearest 0, and whether there was any.
func fixEmptyRays(m *Model, a csc) (lo, hi []float64, ray bool) {
	lo, hi = m.colLo, m.colHi
next:
	for j := 0; j < m.NumCols(); j++ {
		for p := a.start[j]; p < a.start[j+1]; p++ {
			if i := a.index[p]; !math.IsInf(m.rowLo[i], -1) || !math.IsInf(m.rowHi[i], 1) {
				continue next
			}
		}
		c := m.obj[j]
		if m.Sense == Maximize {
			c = -c
		}
		if (c > 0 && math.IsInf(lo[j], -1)) || (c < 0 && math.IsInf(hi[j], 1)) {
			if !ray {
				lo, hi = append([]float64(nil), lo...), append([]float64(nil), hi...)
				ray = true
			}
			v := clampZero(lo[j], hi[j])
			lo[j], hi[j] = v, v
		}
	}
	return lo, hi, ray
}
