package lp

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// The third pass of the canonical allocation: the vertex the second LP
// found is recomputed here, by the same code whichever solver found it, so
// that the allocation does not carry the solver's rounding (a vertex of
// this LP can be ill-conditioned: rates over many orders of magnitude put
// cond(B) near 1e7, and two solvers' values of one vertex then differ by
// ~1e-9) nor the slivers its tolerances let through (a class given 1e-9 of
// a type that serves another class 1e8 times slower).
//
// The vertex is described combinatorially: its support S (the columns above
// polishSliver of their type, and each class's largest column) and its
// tight types T (Σ_i f_it ≥ 1 − 1e-9). It satisfies every class row with
// equality (Σ_{t∈S} r_it f_it = λ_lo: the second LP's costs are positive)
// and every tight type row (Σ_{i∈S} f_it = 1). Those equations are solved
// by peeling rows with one unknown left (the support of a vertex of this
// generalised-network LP is a forest with at most one cycle per
// component), the rest, if any, by a dense least-squares solve when it is
// small. The result is accepted only if it is non-negative and satisfies
// every equation and type bound to a relative 1e-9; otherwise the second
// LP's values stand.

const (
	// polishSliver is the fraction of a type below which a column is left
	// out of the support (unless it is its class's largest).
	polishSliver = 1e-7
	// polishDense bounds the unknowns left after peeling that are solved
	// densely.
	polishDense = 400
)

// polishSystem is the equations of a vertex: class rows then tight type
// rows, over the support's columns (idx = k*nt+t).
type polishSystem struct {
	c      *coshhLP
	cols   []int       // support, sorted
	rowsOf [][2]int    // per column: its class row and its type row (-1 if the type is not tight)
	rows   [][]int     // per row: its columns (positions in cols)
	rhs    []float64   // per row
	coef   [][]float64 // per row: the coefficient of each of its columns
}

// polish returns the recomputed fractions, or nil when the vertex cannot be
// recomputed (then f stands).
func (c *coshhLP) polish(f [][]float64, lambdaLo float64) [][]float64 {
	sys := c.polishEquations(f, lambdaLo)
	if len(sys.cols) > len(sys.rows) {
		return nil // more columns than equations: not a vertex
	}
	x, ok := sys.solve()
	if !ok || !sys.accept(x) {
		return nil
	}
	out := make([][]float64, c.na)
	for k := range out {
		out[k] = make([]float64, c.nt)
	}
	for p, idx := range sys.cols {
		out[idx/c.nt][idx%c.nt] = math.Max(x[p], 0)
	}
	return out
}

// polishEquations builds the system of the vertex f.
func (c *coshhLP) polishEquations(f [][]float64, lambdaLo float64) *polishSystem {
	sys := &polishSystem{c: c}
	for k := 0; k < c.na; k++ {
		top := -1
		for t := 0; t < c.nt; t++ {
			if f[k][t] > 0 && (top < 0 || f[k][t] > f[k][top]) {
				top = t
			}
		}
		for t := 0; t < c.nt; t++ {
			if (f[k][t] > polishSliver || t == top) && c.rAt(k, t) > 0 {
				sys.cols = append(sys.cols, k*c.nt+t)
			}
		}
	}
	sort.Ints(sys.cols)
	typeRow := make([]int, c.nt)
	nrows := c.na
	for t := 0; t < c.nt; t++ {
		sum := 0.0
		for k := 0; k < c.na; k++ {
			sum += f[k][t]
		}
		typeRow[t] = -1
		if sum >= 1-1e-9 {
			typeRow[t] = nrows
			nrows++
		}
	}
	sys.rows = make([][]int, nrows)
	sys.coef = make([][]float64, nrows)
	sys.rhs = make([]float64, nrows)
	for k := 0; k < c.na; k++ {
		sys.rhs[k] = lambdaLo
	}
	for r := c.na; r < nrows; r++ {
		sys.rhs[r] = 1
	}
	sys.rowsOf = make([][2]int, len(sys.cols))
	for p, idx := range sys.cols {
		k, t := idx/c.nt, idx%c.nt
		sys.rowsOf[p] = [2]int{k, typeRow[t]}
		sys.rows[k] = append(sys.rows[k], p)
		sys.coef[k] = append(sys.coef[k], c.r(idx))
		if tr := typeRow[t]; tr >= 0 {
			sys.rows[tr] = append(sys.rows[tr], p)
			sys.coef[tr] = append(sys.coef[tr], 1)
		}
	}
	return sys
}

// solve peels rows with one unknown left, in row order, then solves what
// remains densely (least squares) if it is small.
func (s *polishSystem) solve() ([]float64, bool) {
	n := len(s.cols)
	x := make([]float64, n)
	known := make([]bool, n)
	left := make([]int, len(s.rows))
	for r, cols := range s.rows {
		left[r] = len(cols)
	}
	for progress := true; progress; {
		progress = false
		for r := range s.rows {
			if left[r] != 1 {
				continue
			}
			s.solveRow(r, x, known, left)
			progress = true
		}
	}
	var rest []int
	for p := range known {
		if !known[p] {
			rest = append(rest, p)
		}
	}
	if len(rest) == 0 {
		return x, true
	}
	if len(rest) > polishDense {
		return nil, false
	}
	return x, s.solveDense(rest, x)
}

// solveRow sets row r's one unknown from the row and marks it known.
func (s *polishSystem) solveRow(r int, x []float64, known []bool, left []int) {
	v, at, a := s.rhs[r], -1, 0.0
	for q, p := range s.rows[r] {
		if known[p] {
			v -= s.coef[r][q] * x[p]
		} else {
			at, a = p, s.coef[r][q]
		}
	}
	x[at] = v / a
	known[at] = true
	for _, row := range s.rowsOf[at] {
		if row >= 0 {
			left[row]--
		}
	}
}

// solveDense solves the rows that still have unknowns for the unknowns
// rest, by least squares.
func (s *polishSystem) solveDense(rest []int, x []float64) bool {
	pos := make(map[int]int, len(rest))
	for j, p := range rest {
		pos[p] = j
	}
	var rows []int
	for r, cols := range s.rows {
		for _, p := range cols {
			if _, ok := pos[p]; ok {
				rows = append(rows, r)
				break
			}
		}
	}
	if len(rows) < len(rest) {
		return false
	}
	A := mat.NewDense(len(rows), len(rest), nil)
	b := mat.NewVecDense(len(rows), nil)
	for i, r := range rows {
		v := s.rhs[r]
		for q, p := range s.rows[r] {
			if j, ok := pos[p]; ok {
				A.Set(i, j, s.coef[r][q])
			} else {
				v -= s.coef[r][q] * x[p]
			}
		}
		b.SetVec(i, v)
	}
	var sol mat.VecDense
	if err := sol.SolveVec(A, b); err != nil && !isCondition(err) {
		return false
	}
	for j, p := range rest {
		x[p] = sol.AtVec(j)
	}
	return true
}

// accept checks x: non-negative (to 1e-12 of a type), every equation to a
// relative 1e-9, and no type above its machines.
func (s *polishSystem) accept(x []float64) bool {
	for _, v := range x {
		if !(v >= -1e-12) {
			return false
		}
	}
	for r, cols := range s.rows {
		sum, size := 0.0, 0.0
		for q, p := range cols {
			sum += s.coef[r][q] * math.Max(x[p], 0)
			size += math.Abs(s.coef[r][q] * x[p])
		}
		if math.Abs(sum-s.rhs[r]) > 1e-9*math.Max(size, s.rhs[r]) {
			return false
		}
	}
	load := make([]float64, s.c.nt)
	for p, idx := range s.cols {
		load[idx%s.c.nt] += math.Max(x[p], 0)
	}
	for _, v := range load {
		if v > 1+1e-9 {
			return false
		}
	}
	return true
}
