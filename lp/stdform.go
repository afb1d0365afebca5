package lp

import "math"

// The standard form gonum's Simplex takes,
//
//	minimize ĉᵀ z  s.t.  Â z = b̂,  z ≥ 0,
//
// with a dense Â of full row rank and no zero rows or columns. toStdForm
// converts a Model: every column becomes z ≥ 0 by a shift (x = lo + z), a
// flip (x = hi − z) or a split (x = z⁺ − z⁻); a finite upper bound above a
// finite lower one becomes a row z + s = hi − lo; an inequality row gets a
// slack; a range row gets a slack with its own bound row; free rows are
// dropped; columns that appear in no row are set to their best bound;
// dependent equality rows are removed (or the model is infeasible).

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

// stdRow is a standard-form row: its entries over z and its right-hand side.
type stdRow struct {
	e   []entry
	rhs float64
}

// stdForm is a model in standard form.
type stdForm struct {
	sign   float64 // +1: the model minimises; −1: it maximises (ĉ = −c)
	nz     int     // structural z columns
	cz     []float64
	kind   []int
	off    []float64
	zcol   []int     // first z index of each model column (-1 when fixed)
	rowStd []int     // std row of each model row (-1 when dropped)
	rows   []stdRow  // the standard-form rows
	slacks [][]entry // slack columns (after the nz structural ones)
	ray    bool      // a column in no row improves the objective without limit
}

// feasTol is the tolerance for checks made while converting (rows with no
// free columns, dependent equality rows).
const feasTol = 1e-9

// toStdForm converts m (which passed Check). feasible is false when the
// conversion already shows the model infeasible.
func toStdForm(m *Model) (f *stdForm, feasible bool) {
	f = &stdForm{sign: 1}
	if m.Sense == Maximize {
		f.sign = -1
	}
	a := m.matrix()
	nr := m.NumRows()
	freeRow := make([]bool, nr)
	for i := 0; i < nr; i++ {
		freeRow[i] = math.IsInf(m.rowLo[i], -1) && math.IsInf(m.rowHi[i], 1)
	}
	f.columns(m, a, freeRow)
	rowEntries, constant := f.rowsOverZ(m, a, freeRow)
	if !f.equalityRows(m, freeRow, rowEntries, constant) {
		return f, false
	}
	if !f.inequalityRows(m, freeRow, rowEntries, constant) {
		return f, false
	}
	// Bound rows: z + s = hi − lo for shifted columns with a finite upper bound.
	for j := range f.kind {
		if f.kind[j] == kindShift && !math.IsInf(m.colHi[j], 1) {
			r := len(f.rows)
			f.rows = append(f.rows, stdRow{[]entry{{f.zcol[j], 1}}, m.colHi[j] - m.colLo[j]})
			f.slacks = append(f.slacks, []entry{{r, 1}})
		}
	}
	return f, true
}

// columns decides every model column's kind, offset and z index.
func (f *stdForm) columns(m *Model, a csc, freeRow []bool) {
	nc := m.NumCols()
	f.kind, f.off, f.zcol = make([]int, nc), make([]float64, nc), make([]int, nc)
	for j := 0; j < nc; j++ {
		lo, hi, cj := m.colLo[j], m.colHi[j], f.sign*m.obj[j]
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
			f.kind[j], f.off[j], f.zcol[j] = kindShift, lo, len(f.cz)
			f.cz = append(f.cz, cj)
		case !math.IsInf(hi, 1):
			f.kind[j], f.off[j], f.zcol[j] = kindFlip, hi, len(f.cz)
			f.cz = append(f.cz, -cj)
		default:
			f.kind[j], f.zcol[j] = kindSplit, len(f.cz)
			f.cz = append(f.cz, cj, -cj)
		}
	}
	f.nz = len(f.cz)
}

// rowsOverZ returns every model row's entries over z and the constant the
// fixed parts and offsets contribute.
func (f *stdForm) rowsOverZ(m *Model, a csc, freeRow []bool) ([][]entry, []float64) {
	nr := m.NumRows()
	rowEntries := make([][]entry, nr)
	constant := make([]float64, nr)
	for j := range f.kind {
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
	return rowEntries, constant
}

// equalityRows adds the independent equality rows (first, so that
// dependent ones can be dropped); false when they are inconsistent.
func (f *stdForm) equalityRows(m *Model, freeRow []bool, rowEntries [][]entry, constant []float64) bool {
	nr := m.NumRows()
	var eq []stdRow
	var eqOf []int
	for i := 0; i < nr; i++ {
		lo, hi := m.rowLo[i], m.rowHi[i]
		if freeRow[i] || lo != hi {
			continue
		}
		if len(rowEntries[i]) == 0 {
			if math.Abs(lo-constant[i]) > feasTol*(1+math.Abs(lo)) {
				return false
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
		return false
	}
	f.rowStd = make([]int, nr)
	for i := range f.rowStd {
		f.rowStd[i] = -1
	}
	for k, i := range eqOf {
		if keep[k] {
			f.rowStd[i] = len(f.rows)
			f.rows = append(f.rows, eq[k])
		}
	}
	return true
}

// inequalityRows adds every inequality and range row with its slacks;
// false when a row without free columns is violated.
func (f *stdForm) inequalityRows(m *Model, freeRow []bool, rowEntries [][]entry, constant []float64) bool {
	for i := range rowEntries {
		lo, hi := m.rowLo[i], m.rowHi[i]
		if freeRow[i] || lo == hi {
			continue
		}
		if len(rowEntries[i]) == 0 {
			v := constant[i]
			if v < lo-feasTol*(1+math.Abs(lo)) || v > hi+feasTol*(1+math.Abs(hi)) {
				return false
			}
			continue
		}
		r := len(f.rows)
		f.rowStd[i] = r
		switch {
		case !math.IsInf(lo, -1) && !math.IsInf(hi, 1): // range: â z − s = lo − c, s + s2 = hi − lo
			f.rows = append(f.rows, stdRow{rowEntries[i], lo - constant[i]}, stdRow{nil, hi - lo})
			f.slacks = append(f.slacks, []entry{{r, -1}, {r + 1, 1}}, []entry{{r + 1, 1}})
		case !math.IsInf(lo, -1): // â z − s = lo − c
			f.rows = append(f.rows, stdRow{rowEntries[i], lo - constant[i]})
			f.slacks = append(f.slacks, []entry{{r, -1}})
		default: // â z + s = hi − c
			f.rows = append(f.rows, stdRow{rowEntries[i], hi - constant[i]})
			f.slacks = append(f.slacks, []entry{{r, 1}})
		}
	}
	return true
}

// columnsN is the number of standard-form columns (structural and slack).
func (f *stdForm) columnsN() int { return f.nz + len(f.slacks) }

// point returns the model's x for a standard-form z.
func (f *stdForm) point(z []float64) []float64 {
	x := make([]float64, len(f.kind))
	for j, k := range f.kind {
		switch k {
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
	return x
}

// rowDuals returns the model's row duals (Solution's convention) for
// standard-form duals y; dropped rows get 0.
func (f *stdForm) rowDuals(y []float64) []float64 {
	d := make([]float64, len(f.rowStd))
	for i, r := range f.rowStd {
		if r >= 0 {
			d[i] = f.sign * y[r]
		}
	}
	return d
}

// clampZero returns the point of [lo, hi] nearest to 0.
func clampZero(lo, hi float64) float64 { return math.Max(lo, math.Min(hi, 0)) }

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
