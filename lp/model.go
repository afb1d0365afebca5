package lp

import (
	"fmt"
	"math"
	"strconv"
)

// Inf is an infinite bound.
var Inf = math.Inf(1)

// Sense is the direction of the objective.
type Sense int

const (
	Minimize Sense = iota
	Maximize
)

func (s Sense) String() string {
	if s == Maximize {
		return "maximize"
	}
	return "minimize"
}

// Bounds is an interval [Lo, Hi]; Lo may be -Inf and Hi +Inf.
type Bounds struct{ Lo, Hi float64 }

// LE is (-∞, v]: a "≤ v" row or a column with upper bound v and no lower one.
func LE(v float64) Bounds { return Bounds{math.Inf(-1), v} }

// GE is [v, +∞): a "≥ v" row or a column with lower bound v.
func GE(v float64) Bounds { return Bounds{v, math.Inf(1)} }

// EQ is [v, v]: an equality row or a fixed column.
func EQ(v float64) Bounds { return Bounds{v, v} }

// Range is [lo, hi].
func Range(lo, hi float64) Bounds { return Bounds{lo, hi} }

// Free is (-∞, +∞).
func Free() Bounds { return Bounds{math.Inf(-1), math.Inf(1)} }

// NonNeg is [0, +∞), the usual bound of a column.
func NonNeg() Bounds { return Bounds{0, math.Inf(1)} }

// Model is a sparse linear program:
//
//	minimize or maximize  Σ_j obj_j x_j
//	subject to            rowLo_i ≤ Σ_j a_ij x_j ≤ rowHi_i   for every row i
//	                      colLo_j ≤ x_j ≤ colHi_j            for every column j
//
// Build it with AddRow, AddCol and Set (or AddColumn, which adds a column with
// its entries). Entries are kept as triplets; setting the same (row, column)
// twice adds the values. The model is solver-neutral: Solve hands it to a
// backend. A Model is not safe for concurrent modification.
type Model struct {
	Name  string
	Sense Sense

	rowNames []string
	rowLo    []float64
	rowHi    []float64

	colNames []string
	colLo    []float64
	colHi    []float64
	obj      []float64

	// Triplets.
	ei []int32
	ej []int32
	ev []float64
}

// NewModel returns an empty model.
func NewModel(name string, sense Sense) *Model { return &Model{Name: name, Sense: sense} }

// NumRows returns the number of rows.
func (m *Model) NumRows() int { return len(m.rowLo) }

// NumCols returns the number of columns.
func (m *Model) NumCols() int { return len(m.colLo) }

// NumEntries returns the number of stored matrix entries (triplets).
func (m *Model) NumEntries() int { return len(m.ev) }

// AddRow adds a row with bounds b and returns its index. An empty name is
// replaced by "r<index>".
func (m *Model) AddRow(name string, b Bounds) int {
	m.rowNames = append(m.rowNames, name)
	m.rowLo = append(m.rowLo, b.Lo)
	m.rowHi = append(m.rowHi, b.Hi)
	return len(m.rowLo) - 1
}

// AddCol adds a column with objective coefficient obj and bounds b, and
// returns its index. An empty name is replaced by "c<index>".
func (m *Model) AddCol(name string, obj float64, b Bounds) int {
	m.colNames = append(m.colNames, name)
	m.colLo = append(m.colLo, b.Lo)
	m.colHi = append(m.colHi, b.Hi)
	m.obj = append(m.obj, obj)
	return len(m.colLo) - 1
}

// AddColumn adds a column with its entries: value vals[k] in row rows[k].
func (m *Model) AddColumn(name string, obj float64, b Bounds, rows []int, vals []float64) int {
	j := m.AddCol(name, obj, b)
	n := min(len(rows), len(vals))
	if len(rows) != len(vals) {
		// Recorded as an out-of-range entry so that Check reports it.
		m.ei = append(m.ei, -1)
		m.ej = append(m.ej, int32(j))
		m.ev = append(m.ev, 0)
	}
	for k := 0; k < n; k++ {
		m.Set(rows[k], j, vals[k])
	}
	return j
}

// Set adds v to the coefficient of column j in row i.
func (m *Model) Set(i, j int, v float64) {
	if i > math.MaxInt32 || j > math.MaxInt32 {
		i, j = -1, -1 // reported by Check
	}
	m.ei = append(m.ei, int32(i))
	m.ej = append(m.ej, int32(j))
	m.ev = append(m.ev, v)
}

// SetObj sets the objective coefficient of column j.
func (m *Model) SetObj(j int, v float64) { m.obj[j] = v }

// SetColBounds sets the bounds of column j.
func (m *Model) SetColBounds(j int, b Bounds) { m.colLo[j], m.colHi[j] = b.Lo, b.Hi }

// SetRowBounds sets the bounds of row i.
func (m *Model) SetRowBounds(i int, b Bounds) { m.rowLo[i], m.rowHi[i] = b.Lo, b.Hi }

// RowBounds returns the bounds of row i.
func (m *Model) RowBounds(i int) Bounds { return Bounds{m.rowLo[i], m.rowHi[i]} }

// ColBounds returns the bounds of column j.
func (m *Model) ColBounds(j int) Bounds { return Bounds{m.colLo[j], m.colHi[j]} }

// Obj returns the objective coefficient of column j.
func (m *Model) Obj(j int) float64 { return m.obj[j] }

// RowName returns the name of row i ("r<i>" when it has none).
func (m *Model) RowName(i int) string {
	if m.rowNames[i] != "" {
		return m.rowNames[i]
	}
	return "r" + strconv.Itoa(i)
}

// ColName returns the name of column j ("c<j>" when it has none).
func (m *Model) ColName(j int) string {
	if m.colNames[j] != "" {
		return m.colNames[j]
	}
	return "c" + strconv.Itoa(j)
}

// Check reports the first problem that makes the model unsolvable as given:
// a NaN bound or coefficient, an infinite coefficient, a lower bound above
// the upper one, a lower bound of +Inf or an upper one of -Inf, or an entry
// outside the model.
func (m *Model) Check() error {
	if m.Sense != Minimize && m.Sense != Maximize {
		return fmt.Errorf("lp: model %q: unknown objective sense %d", m.Name, int(m.Sense))
	}
	bad := func(kind, name string, b Bounds) error {
		switch {
		case math.IsNaN(b.Lo) || math.IsNaN(b.Hi):
			return fmt.Errorf("lp: model %q: %s %q has a NaN bound", m.Name, kind, name)
		case b.Lo > b.Hi:
			return fmt.Errorf("lp: model %q: %s %q has lower bound %g above upper bound %g", m.Name, kind, name, b.Lo, b.Hi)
		case math.IsInf(b.Lo, 1) || math.IsInf(b.Hi, -1):
			return fmt.Errorf("lp: model %q: %s %q has bounds [%g, %g]", m.Name, kind, name, b.Lo, b.Hi)
		}
		return nil
	}
	for i := range m.rowLo {
		if err := bad("row", m.RowName(i), m.RowBounds(i)); err != nil {
			return err
		}
	}
	for j := range m.colLo {
		if err := bad("column", m.ColName(j), m.ColBounds(j)); err != nil {
			return err
		}
		if v := m.obj[j]; math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("lp: model %q: column %q has objective coefficient %g", m.Name, m.ColName(j), v)
		}
	}
	nr, nc := int32(m.NumRows()), int32(m.NumCols())
	for k, v := range m.ev {
		i, j := m.ei[k], m.ej[k]
		if i < 0 || i >= nr || j < 0 || j >= nc {
			if j >= 0 && j < nc && i == -1 && v == 0 {
				return fmt.Errorf("lp: model %q: column %q: rows and values differ in length", m.Name, m.ColName(int(j)))
			}
			return fmt.Errorf("lp: model %q: entry (%d, %d) is outside the %d×%d model", m.Name, i, j, nr, nc)
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("lp: model %q: coefficient of column %q in row %q is %g", m.Name, m.ColName(int(j)), m.RowName(int(i)), v)
		}
	}
	return nil
}

// csc is a model's matrix in compressed sparse column form (column-major,
// no gaps, duplicates summed, explicit zeros dropped).
type csc struct {
	start []int32 // len cols+1
	index []int32 // row of each entry
	value []float64
}

// matrix builds the column-major form of the model's matrix. Call Check first.
func (m *Model) matrix() csc {
	nc := m.NumCols()
	count := make([]int32, nc+1)
	for _, j := range m.ej {
		count[j+1]++
	}
	for j := 0; j < nc; j++ {
		count[j+1] += count[j]
	}
	start := append([]int32(nil), count...)
	index := make([]int32, len(m.ev))
	value := make([]float64, len(m.ev))
	next := count[:nc]
	for k, j := range m.ej {
		p := next[j]
		index[p] = m.ei[k]
		value[p] = m.ev[k]
		next[j]++
	}
	// Sum duplicates and drop zeros, column by column.
	out := int32(0)
	where := make([]int32, m.NumRows())
	stamp := make([]int32, m.NumRows())
	for j := 0; j < nc; j++ {
		lo, hi := start[j], start[j+1]
		start[j] = out
		first := out
		for p := lo; p < hi; p++ {
			r, v := index[p], value[p]
			if stamp[r] == int32(j)+1 {
				value[where[r]] += v
				continue
			}
			stamp[r], where[r] = int32(j)+1, out
			index[out], value[out] = r, v
			out++
		}
		w := first
		for p := first; p < out; p++ {
			if value[p] != 0 {
				index[w], value[w] = index[p], value[p]
				w++
			}
		}
		out = w
	}
	start[nc] = out
	return csc{start: start, index: index[:out], value: value[:out]}
}
