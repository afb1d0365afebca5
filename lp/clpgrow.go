//go:build cgo

package lp

// CLP calls that grow a model in place and set its basis, for the folded
// COSHH master (coshhfold.go): rows and columns are appended, a
// coefficient changed and the statuses of the new rows and columns set so
// that the previous optimal point stays a basic feasible solution.

/*
#cgo pkg-config: clp
#include <stdbool.h>
#include "coin/Clp_C_Interface.h"
*/
import "C"

import "unsafe"

// CLP's basis status values (ClpSimplex::Status).
const (
	clpBasic   = 1
	clpAtLower = 3
)

// addRows appends rows: row k has bounds [lo[k], hi[k]] and entries
// index/value[start[k]:start[k+1]] (column, coefficient).
func (c *clpModel) addRows(lo, hi []float64, start, index []int32, value []float64) {
	n := len(lo)
	if n == 0 {
		return
	}
	if len(index) == 0 {
		index, value = []int32{0}, []float64{0}
	}
	C.Clp_addRows(c.p, C.int(n), dptr(clpBound(lo)), dptr(clpBound(hi)), bptr(start), iptr(index), dptr(value))
	c.nrows += n
}

// setCoefficient sets the matrix entry (row, col) to v (removing it when v
// is 0).
func (c *clpModel) setCoefficient(row, col int, v float64) {
	C.Clp_modifyCoefficient(c.p, C.int(row), C.int(col), C.double(v), C.bool(false))
}

// setColumnCoefficients sets the matrix entries (rows[n], col) to vals[n].
// An entry that exists and stays non-zero is written in place (one pass
// over the column finds them all); the others go through
// Clp_modifyCoefficient, which searches the column for each: at 20,000 ×
// 5,000 the folded master changes thousands of entries of λ's column (one
// per type row) at a time, and a search each took 3 % of the solve.
func (c *clpModel) setColumnCoefficients(col int, rows []int, vals []float64) {
	index, value := c.column(col)
	at := make(map[int]int, len(index))
	for p, r := range index {
		at[int(r)] = p
	}
	var rest []int
	for n, r := range rows {
		if p, ok := at[r]; ok && vals[n] != 0 {
			value[p] = vals[n]
			continue
		}
		rest = append(rest, n)
	}
	for _, n := range rest {
		c.setCoefficient(rows[n], col, vals[n])
	}
}

// column returns column col's rows and values in CLP's matrix (CLP's
// memory: valid until the model changes).
func (c *clpModel) column(col int) ([]int32, []float64) {
	start := unsafe.Slice((*int32)(unsafe.Pointer(C.Clp_getVectorStarts(c.p))), c.ncols+1)[col]
	n := unsafe.Slice((*int32)(unsafe.Pointer(C.Clp_getVectorLengths(c.p))), c.ncols)[col]
	if n == 0 {
		return nil, nil
	}
	index := unsafe.Slice((*int32)(unsafe.Pointer(C.Clp_getIndices(c.p))), int(start+n))[start:]
	value := unsafe.Slice((*float64)(unsafe.Pointer(C.Clp_getElements(c.p))), int(start+n))[start:]
	return index, value
}

// setColumnStatus and setRowStatus set one basis status (clpBasic,
// clpAtLower).
func (c *clpModel) setColumnStatus(col, status int) {
	C.Clp_setColumnStatus(c.p, C.int(col), C.int(status))
}

func (c *clpModel) setRowStatus(row, status int) {
	C.Clp_setRowStatus(c.p, C.int(row), C.int(status))
}

// setTolerances sets the primal and dual feasibility tolerances.
// setObjectiveCoefficient sets column j's objective coefficient.
func (c *clpModel) setObjectiveCoefficient(j int, v float64) {
	obj := append([]float64(nil), unsafe.Slice((*float64)(unsafe.Pointer(C.Clp_getObjCoefficients(c.p))), c.ncols)...)
	obj[j] = v
	C.Clp_chgObjCoefficients(c.p, dptr(obj))
}

func (c *clpModel) setTolerances(tol float64) {
	C.Clp_setPrimalTolerance(c.p, C.double(tol))
	C.Clp_setDualTolerance(c.p, C.double(tol))
}

// deleteColumns removes the columns in which (CLP keeps the other
// columns' basis statuses).
func (c *clpModel) deleteColumns(which []int32) {
	if len(which) == 0 {
		return
	}
	C.Clp_deleteColumns(c.p, C.int(len(which)), iptr(which))
	c.ncols -= len(which)
}

// columnStatus returns column j's basis status.
func (c *clpModel) columnStatus(j int) int { return int(C.Clp_getColumnStatus(c.p, C.int(j))) }

// deleteRows removes the rows in which (CLP keeps the other rows' basis
// statuses).
func (c *clpModel) deleteRows(which []int32) {
	if len(which) == 0 {
		return
	}
	C.Clp_deleteRows(c.p, C.int(len(which)), iptr(which))
	c.nrows -= len(which)
}

// rowStatus returns row i's basis status.
func (c *clpModel) rowStatus(i int) int { return int(C.Clp_getRowStatus(c.p, C.int(i))) }
