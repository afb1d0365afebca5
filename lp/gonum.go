package lp

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
	glp "gonum.org/v1/gonum/optimize/convex/lp"
)

// The gonum backend. gonum's Simplex takes the standard form
//
//	minimize ĉᵀ z  s.t.  Â z = b̂,  z ≥ 0
//
// with a dense Â of full row rank and no zero rows or columns, so the model is
// converted: every column becomes z ≥ 0 by a shift (x = lo + z), a flip
// (x = hi − z) or a split (x = z⁺ − z⁻); a finite upper bound above a finite
// lower one becomes a row z + s = hi − lo; an inequality row gets a slack; a
// range row gets a slack with its own bound row; free rows are dropped;
// columns that appear in no row are set to their best bound; dependent
// equality rows are removed (or the model is infeasible).
//
// gonum does not return the optimal basis, so row duals are recovered: the
// columns positive at the optimum, completed to a basis with independent
// columns (slacks first), then made dual feasible by a few degenerate
// simplex pivots (crossover); y = B⁻ᵀ c_B. If that fails, the dual of the
// standard form, max b̂ᵀ y s.t. Âᵀ y ≤ ĉ, is solved with gonum too
// (y = y⁺ − y⁻), unless it exceeds maxDualEntries dense entries (then
// Solution.Note says why there are no duals). Any optimal dual solution is
// a valid set of shadow prices; when the primal is degenerate it may differ
// from CLP's.
//
// gonum's Simplex starts from a basis when given one: the slack basis when it
// is feasible, or (column generation) the previous optimal basis, which
// spares its phase 1.

// maxDualEntries bounds the dense dual LP the gonum backend builds for duals.
const maxDualEntries = 8 << 20

// gonumTol is the reduced-cost tolerance handed to gonum's Simplex.
const gonumTol = 1e-10

const (
	kindFixed = iota // x = off (no z)
	kindShift        // x = off + z
	kindFlip         // x = off − z
	kindSplit        // x = z⁺ − z⁻ (z⁻ at index z+1)
)

// entry is a coefficient of a standard-form row (col is the column) or of
// a slack column (col is then the row).
type entry struct {
	col int
	v   float64
}

type stdForm struct {
	nz     int // structural z columns
	c      []float64
	rows   [][]float64 // sparse-ish: dense rows over all columns, built at the end
	b      []float64
	kind   []int
	off    []float64
	zcol   []int // first z index of each model column (-1 when fixed)
	rowStd []int // std row of each model row (-1 when dropped)
	ray    bool  // a column in no row improves the objective without limit
}

// feasTol is the tolerance for checks made while converting (rows with no
// free columns, dependent equality rows).
const feasTol = 1e-9

func solveGonum(m *Model, opt Options) (*Solution, error) {
	if opt.MPSFile != "" {
		if err := WriteMPS(m, opt.MPSFile); err != nil {
			return &Solution{Status: Error}, err
		}
	}
	s := 1.0
	if m.Sense == Maximize {
		s = -1
	}
	a := m.matrix()
	nr, nc := m.NumRows(), m.NumCols()

	freeRow := make([]bool, nr)
	for i := 0; i < nr; i++ {
		freeRow[i] = math.IsInf(m.rowLo[i], -1) && math.IsInf(m.rowHi[i], 1)
	}
	// Columns: kinds, offsets, z indices.
	f := &stdForm{kind: make([]int, nc), off: make([]float64, nc), zcol: make([]int, nc)}
	var cz []float64
	for j := 0; j < nc; j++ {
		lo, hi, cj := m.colLo[j], m.colHi[j], s*m.obj[j]
		empty := true
		for p := a.start[j]; p < a.start[j+1]; p++ {
			if !freeRow[a.index[p]] {
				empty = false
				break
			}
		}
		f.zcol[j] = -1
		switch {
		case lo == hi:
			f.kind[j], f.off[j] = kindFixed, lo
		case empty:
			// Best value of a column in no row.
			f.kind[j] = kindFixed
			switch {
			case cj > 0 && !math.IsInf(lo, -1):
				f.off[j] = lo
			case cj < 0 && !math.IsInf(hi, 1):
				f.off[j] = hi
			case cj != 0:
				f.ray = true
				f.off[j] = clampZero(lo, hi)
			default:
				f.off[j] = clampZero(lo, hi)
			}
		case !math.IsInf(lo, -1):
			f.kind[j], f.off[j], f.zcol[j] = kindShift, lo, len(cz)
			cz = append(cz, cj)
		case !math.IsInf(hi, 1):
			f.kind[j], f.off[j], f.zcol[j] = kindFlip, hi, len(cz)
			cz = append(cz, -cj)
		default:
			f.kind[j], f.zcol[j] = kindSplit, len(cz)
			cz = append(cz, cj, -cj)
		}
	}
	f.nz = len(cz)

	// Rows of Â over z, as sparse lists; slacks are added after.
	rowEntries := make([][]entry, nr)
	constant := make([]float64, nr)
	for j := 0; j < nc; j++ {
		for p := a.start[j]; p < a.start[j+1]; p++ {
			i, v := a.index[p], a.value[p]
			if freeRow[i] {
				continue
			}
			constant[i] += v * f.off[j]
			switch f.kind[j] {
			case kindShift:
				rowEntries[i] = append(rowEntries[i], entry{f.zcol[j], v})
			case kindFlip:
				rowEntries[i] = append(rowEntries[i], entry{f.zcol[j], -v})
			case kindSplit:
				rowEntries[i] = append(rowEntries[i], entry{f.zcol[j], v}, entry{f.zcol[j] + 1, -v})
			}
		}
	}

	infeasible := &Solution{Status: Infeasible}
	// Equality rows first: drop the dependent ones.
	type stdRow struct {
		e   []entry
		rhs float64
	}
	var eq []stdRow
	var eqOf []int
	for i := 0; i < nr; i++ {
		lo, hi := m.rowLo[i], m.rowHi[i]
		if freeRow[i] || lo != hi {
			continue
		}
		if len(rowEntries[i]) == 0 {
			if math.Abs(lo-constant[i]) > feasTol*(1+math.Abs(lo)) {
				return infeasible, nil
			}
			continue
		}
		eq = append(eq, stdRow{rowEntries[i], lo - constant[i]})
		eqOf = append(eqOf, i)
	}
	keep, consistent := independentRows(len(eq), f.nz, 0, func(k int, dst []float64) float64 {
		for _, e := range eq[k].e {
			dst[e.col] += e.v
		}
		return eq[k].rhs
	})
	if !consistent {
		return infeasible, nil
	}

	f.rowStd = make([]int, nr)
	for i := range f.rowStd {
		f.rowStd[i] = -1
	}
	var rows []stdRow
	var slacks [][]entry // slack columns: entries (row, coefficient)
	for k, i := range eqOf {
		if keep[k] {
			f.rowStd[i] = len(rows)
			rows = append(rows, eq[k])
		}
	}
	for i := 0; i < nr; i++ {
		lo, hi := m.rowLo[i], m.rowHi[i]
		if freeRow[i] || lo == hi {
			continue
		}
		if len(rowEntries[i]) == 0 {
			v := constant[i]
			if v < lo-feasTol*(1+math.Abs(lo)) || v > hi+feasTol*(1+math.Abs(hi)) {
				return infeasible, nil
			}
			continue
		}
		r := len(rows)
		f.rowStd[i] = r
		switch {
		case !math.IsInf(lo, -1) && !math.IsInf(hi, 1): // range: â z − s = lo − c, s + s2 = hi − lo
			rows = append(rows, stdRow{rowEntries[i], lo - constant[i]})
			rows = append(rows, stdRow{nil, hi - lo})
			slacks = append(slacks, []entry{{r, -1}, {r + 1, 1}}, []entry{{r + 1, 1}})
		case !math.IsInf(lo, -1): // â z − s = lo − c
			rows = append(rows, stdRow{rowEntries[i], lo - constant[i]})
			slacks = append(slacks, []entry{{r, -1}})
		default: // â z + s = hi − c
			rows = append(rows, stdRow{rowEntries[i], hi - constant[i]})
			slacks = append(slacks, []entry{{r, 1}})
		}
	}
	// Bound rows: z + s = hi − lo for shifted columns with a finite upper bound.
	for j := 0; j < nc; j++ {
		if f.kind[j] == kindShift && !math.IsInf(m.colHi[j], 1) {
			r := len(rows)
			rows = append(rows, stdRow{[]entry{{f.zcol[j], 1}}, m.colHi[j] - m.colLo[j]})
			slacks = append(slacks, []entry{{r, 1}})
		}
	}

	nStd := len(rows)
	n := f.nz + len(slacks)
	c := make([]float64, n)
	copy(c, cz)
	sol := &Solution{Solver: Gonum}
	var z []float64
	switch {
	case nStd == 0:
		// No rows: every z stays at 0 unless its cost is negative.
		z = make([]float64, n)
		for _, v := range c {
			if v < 0 {
				f.ray = true
			}
		}
	default:
		A := mat.NewDense(nStd, n, nil)
		b := make([]float64, nStd)
		for r, row := range rows {
			for _, e := range row.e {
				A.Set(r, e.col, A.At(r, e.col)+e.v)
			}
			b[r] = row.rhs
		}
		for k, sl := range slacks {
			for _, e := range sl {
				A.Set(e.col, f.nz+k, e.v)
			}
		}
		var err error
		initial := startBasis(opt.warm, f.nz, slacks, A, b)
		_, z, err = gonumSimplex(c, A, b, initial)
		if err != nil && initial != nil {
			// A start gonum refuses (it panics on a basis it finds
			// infeasible): solve from scratch.
			_, z, err = gonumSimplex(c, A, b, nil)
		}
		switch {
		case errors.Is(err, glp.ErrInfeasible):
			sol.Status = Infeasible
			return sol, nil
		case errors.Is(err, glp.ErrUnbounded):
			sol.Status = Unbounded
			return sol, nil
		case err != nil:
			sol.Status = Error
			return sol, fmt.Errorf("lp: gonum simplex failed on model %q: %w", m.Name, err)
		}
		if !opt.NoDuals {
			if y, basis, err := gonumDuals(c, A, b, z); err != nil {
				sol.Note = "duals not computed: " + err.Error()
			} else {
				if opt.warm != nil {
					opt.warm.nz, opt.warm.basis = f.nz, basis
				}
				sol.Duals = make([]float64, nr)
				for i := 0; i < nr; i++ {
					if r := f.rowStd[i]; r >= 0 {
						sol.Duals[i] = s * y[r]
					}
				}
				sol.ReducedCosts = m.reducedCosts(sol.Duals)
				sol.DualsAvailable = true
			}
		}
	}
	if f.ray {
		sol.Status = Unbounded
		return sol, nil
	}
	x := make([]float64, nc)
	for j := 0; j < nc; j++ {
		switch f.kind[j] {
		case kindFixed:
			x[j] = f.off[j]
		case kindShift:
			x[j] = f.off[j] + z[f.zcol[j]]
		case kindFlip:
			x[j] = f.off[j] - z[f.zcol[j]]
		case kindSplit:
			x[j] = z[f.zcol[j]] - z[f.zcol[j]+1]
		}
	}
	sol.Status = Optimal
	sol.X = x
	sol.RowActivity = m.activity(x)
	sol.Objective = m.objective(x)
	if !sol.DualsAvailable && !opt.NoDuals && nStd == 0 {
		sol.Duals = make([]float64, nr)
		sol.ReducedCosts = m.reducedCosts(sol.Duals)
		sol.DualsAvailable = true
	}
	return sol, nil
}

// clampZero returns the point of [lo, hi] nearest to 0.
func clampZero(lo, hi float64) float64 { return math.Max(lo, math.Min(hi, 0)) }

// gonumSimplex calls gonum's Simplex, turning a panic into an error.
func gonumSimplex(c []float64, A *mat.Dense, b []float64, initial []int) (f float64, x []float64, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("gonum simplex panicked: %v", r)
		}
	}()
	return glp.Simplex(c, A, b, gonumTol, initial)
}

// gonumWarm carries an optimal basis from one solve of a model to the next
// solve of the same model with columns appended (the column-generation
// master): gonum's Simplex accepts a feasible initial basis, and the old
// optimal basis stays feasible when new columns enter at zero.
type gonumWarm struct {
	nz    int   // structural columns of the standard form the basis is for
	basis []int // standard-form column indices
}

// startBasis returns a feasible basis to start gonum's Simplex from, or nil
// (gonum then runs its own phase 1): the warm basis remapped to the current
// standard form (slack indices shift by the columns added since), else the
// slack basis when every row has a slack and it is feasible.
func startBasis(warm *gonumWarm, nz int, slacks [][]entry, A *mat.Dense, b []float64) []int {
	m, n := A.Dims()
	var basis []int
	if warm != nil && len(warm.basis) == m && nz >= warm.nz {
		basis = make([]int, m)
		for k, j := range warm.basis {
			if j >= warm.nz {
				j += nz - warm.nz
			}
			if j >= n {
				basis = nil
				break
			}
			basis[k] = j
		}
	}
	if basis == nil {
		// One slack per row: each slack's first entry is in its own row.
		own := make([]int, m)
		for i := range own {
			own[i] = -1
		}
		for k, sl := range slacks {
			if r := sl[0].col; own[r] < 0 {
				own[r] = nz + k
			}
		}
		for _, j := range own {
			if j < 0 {
				return nil
			}
		}
		basis = own
	}
	// Feasible: B x_B = b with x_B ≥ 0 (gonum panics otherwise).
	B := mat.NewDense(m, m, nil)
	col := make([]float64, m)
	for k, j := range basis {
		mat.Col(col, j, A)
		B.SetCol(k, col)
	}
	var x mat.VecDense
	if err := x.SolveVec(B, mat.NewVecDense(m, b)); err != nil {
		return nil
	}
	for _, v := range x.RawVector().Data {
		if v < -1e-13 || math.IsNaN(v) {
			return nil
		}
	}
	return basis
}

// gonumDuals finds duals y for the standard form at its optimum z: first
// from a basis recovered from z (the positive columns, completed with
// independent columns, slacks first), accepted if it is dual feasible
// (ĉ − Âᵀy ≥ −tol); otherwise by solving the dual LP.
func gonumDuals(c []float64, A *mat.Dense, b, z []float64) (y []float64, basis []int, err error) {
	if y, basis := basisDuals(c, A, b, z); y != nil {
		return y, basis, nil
	}
	m, n := A.Dims()
	if n*(2*m+n) > maxDualEntries {
		return nil, nil, fmt.Errorf("no optimal basis recovered, and the dual LP (%d×%d dense) is too large for the gonum backend", n, 2*m+n)
	}
	y, err = gonumDual(c, A, b)
	return y, nil, err
}

// basisDuals returns y = B⁻ᵀ c_B and an optimal basis B recovered from z
// (the positive columns, completed with independent columns, then made dual
// feasible by crossover), or nil when that fails.
func basisDuals(c []float64, A *mat.Dense, b, z []float64) ([]float64, []int) {
	m, n := A.Dims()
	zmax := 0.0
	for _, v := range z {
		zmax = math.Max(zmax, math.Abs(v))
	}
	var order []int
	for j, v := range z {
		if v > 1e-9*math.Max(1, zmax) {
			order = append(order, j)
		}
	}
	if len(order) > m {
		return nil, nil
	}
	// Then the other columns, the ones with few entries (slacks) first.
	nnz := make([]int, n)
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			if A.At(i, j) != 0 {
				nnz[j]++
			}
		}
	}
	var rest []int
	for j := 0; j < n; j++ {
		if !(z[j] > 1e-9*math.Max(1, zmax)) {
			rest = append(rest, j)
		}
	}
	sort.SliceStable(rest, func(a, b int) bool { return nnz[rest[a]] < nnz[rest[b]] })
	order = append(order, rest...)
	col := make([]float64, m)
	keep, _ := independentRows(len(order), m, m, func(k int, dst []float64) float64 {
		mat.Col(col, order[k], A)
		copy(dst, col)
		return 0
	})
	var basis []int
	for k, ok := range keep {
		if ok {
			basis = append(basis, order[k])
			if len(basis) == m {
				break
			}
		}
	}
	if len(basis) != m {
		return nil, nil
	}
	return crossover(c, A, b, basis)
}

// crossover runs primal simplex pivots (Bland's rule, dense LU) from a
// primal feasible basis until it is dual feasible, and returns the duals
// and the basis; nil when it does not get there. From a basis recovered
// at an optimal point the pivots are degenerate and few: they fix a
// completion of the basis that the optimal point did not determine.
func crossover(c []float64, A *mat.Dense, b []float64, basis []int) ([]float64, []int) {
	m, n := A.Dims()
	inBasis := make([]bool, n)
	for _, j := range basis {
		inBasis[j] = true
	}
	B := mat.NewDense(m, m, nil)
	col := make([]float64, m)
	cb := make([]float64, m)
	var lu mat.LU
	var y, xb, d mat.VecDense
	for iter := 0; iter <= 20*m; iter++ {
		for k, j := range basis {
			mat.Col(col, j, A)
			B.SetCol(k, col)
			cb[k] = c[j]
		}
		lu.Factorize(B)
		if math.IsInf(lu.Cond(), 1) {
			return nil, nil
		}
		// A mat.Condition error is a warning about accuracy; the duals
		// are checked below and column generation is checked against full
		// solves in the tests.
		if err := lu.SolveVecTo(&y, true, mat.NewVecDense(m, cb)); err != nil && !isCondition(err) {
			return nil, nil
		}
		yv := y.RawVector().Data
		enter := -1
		for j := 0; j < n && enter < 0; j++ {
			if inBasis[j] {
				continue
			}
			// Dual feasibility relative to the size of the terms of c_j − A_jᵀy.
			rc, size := c[j], math.Abs(c[j])
			for i := 0; i < m; i++ {
				t := A.At(i, j) * yv[i]
				rc -= t
				size += math.Abs(t)
			}
			if rc < -1e-9*math.Max(1, size) {
				enter = j // Bland: the first improving column
			}
		}
		if enter < 0 {
			return append([]float64(nil), yv...), basis
		}
		if err := lu.SolveVecTo(&xb, false, mat.NewVecDense(m, b)); err != nil && !isCondition(err) {
			return nil, nil
		}
		mat.Col(col, enter, A)
		if err := lu.SolveVecTo(&d, false, mat.NewVecDense(m, col)); err != nil && !isCondition(err) {
			return nil, nil
		}
		dv, xv := d.RawVector().Data, xb.RawVector().Data
		dmax := 0.0
		for _, v := range dv {
			dmax = math.Max(dmax, math.Abs(v))
		}
		leave, best := -1, math.Inf(1)
		for k, v := range dv {
			if v <= 1e-9*dmax {
				continue
			}
			ratio := math.Max(xv[k], 0) / v
			// Bland: ties go to the smallest column index.
			if ratio < best*(1-1e-12) || (ratio <= best*(1+1e-12) && leave >= 0 && basis[k] < basis[leave]) {
				leave, best = k, ratio
			}
		}
		if leave < 0 {
			return nil, nil // unbounded direction: not an optimal point
		}
		inBasis[basis[leave]] = false
		inBasis[enter] = true
		basis[leave] = enter
	}
	return nil, nil
}

func isCondition(err error) bool {
	var c mat.Condition
	return errors.As(err, &c)
}

// gonumDual solves max bᵀ y s.t. Aᵀ y ≤ c (y free) as the standard form
// min −bᵀ(y⁺ − y⁻) s.t. Aᵀ y⁺ − Aᵀ y⁻ + t = c, and returns y.
func gonumDual(c []float64, A *mat.Dense, b []float64) ([]float64, error) {
	m, n := A.Dims()
	D := mat.NewDense(n, 2*m+n, nil)
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			if v := A.At(i, j); v != 0 {
				D.Set(j, i, v)
				D.Set(j, m+i, -v)
			}
		}
	}
	for j := 0; j < n; j++ {
		D.Set(j, 2*m+j, 1)
	}
	cd := make([]float64, 2*m+n)
	for i := 0; i < m; i++ {
		cd[i], cd[m+i] = -b[i], b[i]
	}
	// y⁺ and y⁻ columns for a row with b = 0 and the same entries are twins;
	// gonum copes. A zero row of A cannot occur (dropped in conversion).
	_, w, err := gonumSimplex(cd, D, c, nil)
	if err != nil {
		return nil, fmt.Errorf("the dual LP failed: %v", err)
	}
	y := make([]float64, m)
	for i := range y {
		y[i] = w[i] - w[m+i]
	}
	return y, nil
}

// independentRows finds a maximal set of linearly independent rows among k
// rows of length n (fill adds row r into dst, which is zero, and returns its
// right-hand side), by Gaussian elimination with partial pivoting. It reports
// which rows to keep and whether the dropped ones are consistent (their
// right-hand side is the same combination of the kept ones'). With stopAt >
// 0 it stops once that many rows are kept (full rank: the rest are
// dependent; consistency is then not checked).
func independentRows(k, n, stopAt int, fill func(r int, dst []float64) float64) (keep []bool, consistent bool) {
	keep = make([]bool, k)
	if k == 0 {
		return keep, true
	}
	// Reduced rows kept so far, with their pivot columns.
	var basis [][]float64
	var pivots []int
	for r := 0; r < k; r++ {
		if stopAt > 0 && len(basis) == stopAt {
			break // the rest are dependent on the kept ones
		}
		row := make([]float64, n+1)
		row[n] = fill(r, row[:n])
		rhsScale := math.Abs(row[n])
		scale := 0.0
		for _, v := range row[:n] {
			scale = math.Max(scale, math.Abs(v))
		}
		for q, br := range basis {
			p := pivots[q]
			if row[p] == 0 {
				continue
			}
			factor := row[p] / br[p]
			for j := range row {
				row[j] -= factor * br[j]
			}
			row[p] = 0
		}
		best, pc := 0.0, -1
		for j, v := range row[:n] {
			if math.Abs(v) > best {
				best, pc = math.Abs(v), j
			}
		}
		if pc >= 0 && best > 1e-10*math.Max(scale, 1) {
			keep[r] = true
			basis = append(basis, row)
			pivots = append(pivots, pc)
			continue
		}
		if math.Abs(row[n]) > feasTol*(1+rhsScale) {
			return keep, false
		}
	}
	return keep, true
}
