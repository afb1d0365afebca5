package data

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// This file lets a table drop the values of rows no later reader needs
// (Jobs.KeepRows, Jobs.KeepRanges): the job ids and the byte columns of a
// 10 M-job log are 0.35 GB, of which the last stages read a third.

// RowRange is rows [Lo, Hi) of a table.
type RowRange struct{ Lo, Hi int }

func (r RowRange) String() string { return fmt.Sprintf("[%d, %d)", r.Lo, r.Hi) }

// KeepRows is KeepRanges of the one range [lo, hi).
func (j *Jobs) KeepRows(lo, hi int, names ...string) error {
	return j.KeepRanges([]RowRange{{lo, hi}}, names...)
}

// KeepRanges drops the values of the named columns (canonical names: the
// job ids, ColJobID, and the numeric columns) but for the rows of ranges
// (in any order; overlapping and adjacent ones are merged), which it keeps
// in a copy of their own: the table still has j.Len() rows, the columns
// are still Present and their At, Bytes and Subset and Rows of kept rows
// give what they gave, but a dropped row's value panics with a
// *DroppedRowError (a reader past its owner's release, which must never
// read a wrong value; CatchDroppedRow makes it an error); null bitmaps
// stay whole (1 bit a row). Submit, the user, queue and absent columns are
// never dropped. A column kept already is left as it is when ranges are
// the rows it keeps, narrowed to them (a copy of their own again) when it
// holds every row of them, and KeepRanges errors when it does not. The
// table can no longer be written (Write errors) nor appended to.
func (j *Jobs) KeepRanges(ranges []RowRange, names ...string) error {
	n := j.Len()
	rs, err := normRanges(ranges, n)
	if err != nil {
		return fmt.Errorf("%s: %w", j.Source, err)
	}
	for _, name := range names {
		if err := j.keepColumn(name, rs, n); err != nil {
			return err
		}
	}
	return nil
}

// Holds reports whether every row of [lo, hi) of the named columns can be
// read (KeepRanges dropped none of them; an absent column reads as null).
func (j *Jobs) Holds(lo, hi int, names ...string) bool {
	cols := j.numericColumns()
	for _, n := range names {
		if c, ok := cols[n]; ok && !c.holdsRows(lo, hi) || n == ColJobID && j.ID.kept != nil && !j.ID.kept.kr.holdsRows(lo, hi) {
			return false
		}
	}
	return true
}

// keepColumn is KeepRanges of one column.
func (j *Jobs) keepColumn(name string, rs []RowRange, n int) error {
	if name == ColJobID {
		return keepStrings(&j.ID, rs, n, j.Source)
	}
	if c, ok := j.numericColumns()[name]; ok {
		return c.keepRanges(rs, n, name, j.Source)
	}
	return fmt.Errorf("%s: column %q cannot drop rows (KeepRows drops the job ids and the numeric columns)", j.Source, name)
}

// rowKeeper is a numeric column of any type, for KeepRanges.
type rowKeeper interface {
	keepRanges(rs []RowRange, n int, name, src string) error
	dropped() bool
	holdsRows(lo, hi int) bool
}

// numericColumns are j's numeric columns by canonical name.
func (j *Jobs) numericColumns() map[string]rowKeeper {
	return map[string]rowKeeper{
		ColPriority: &j.Priority, ColMapTasks: &j.MapTasks, ColReduceTasks: &j.ReduceTasks,
		ColStart: &j.Start, ColFinish: &j.Finish, ColMapTaskSeconds: &j.MapTaskSeconds, ColReduceTaskSeconds: &j.ReduceTaskSeconds,
		ColInputBytes: &j.InputBytes, ColShuffleBytes: &j.ShuffleBytes, ColOutputBytes: &j.OutputBytes, ColSize: &j.Size,
	}
}

// Kept reports whether KeepRows dropped rows of some column of j, or of
// the columns named when names are given.
func (j *Jobs) Kept(names ...string) bool {
	cols := j.numericColumns()
	if len(names) == 0 {
		names = append([]string{ColJobID}, slices.Collect(maps.Keys(cols))...)
	}
	for _, n := range names {
		if c, ok := cols[n]; ok && c.dropped() || n == ColJobID && j.ID.kept != nil {
			return true
		}
	}
	return false
}

// normRanges returns ranges sorted, the overlapping and adjacent ones
// merged and the empty ones left out; a range outside [0, n) errors.
func normRanges(ranges []RowRange, n int) ([]RowRange, error) {
	var rs []RowRange
	for _, r := range ranges {
		if r.Lo < 0 || r.Lo > r.Hi || r.Hi > n {
			return nil, fmt.Errorf("keep rows %s of %d", r, n)
		}
		if r.Lo < r.Hi {
			rs = append(rs, r)
		}
	}
	slices.SortFunc(rs, func(a, b RowRange) int { return a.Lo - b.Lo })
	out := rs[:0]
	for _, r := range rs {
		if k := len(out) - 1; k >= 0 && r.Lo <= out[k].Hi {
			out[k].Hi = max(out[k].Hi, r.Hi)
			continue
		}
		out = append(out, r)
	}
	return out, nil
}

// rangesText is rs as "[a, b), [c, d)" ("none" when empty).
func rangesText(rs []RowRange) string {
	if len(rs) == 0 {
		return "none"
	}
	s := make([]string, len(rs))
	for k, r := range rs {
		s[k] = r.String()
	}
	return strings.Join(s, ", ")
}

// keptRows are the rows a column of n rows keeps: sorted, disjoint,
// non-adjacent, non-empty ranges r, range k's first row at position
// off[k] of the kept values.
type keptRows struct {
	r   []RowRange
	off []int
	n   int
}

// newKeptRows is the kept rows of rs (normRanges's) in a column of n rows,
// their values stored in row order.
func newKeptRows(rs []RowRange, n int) keptRows {
	k := keptRows{r: rs, off: make([]int, len(rs)), n: n}
	p := 0
	for q, r := range rs {
		k.off[q] = p
		p += r.Hi - r.Lo
	}
	return k
}

// index returns row i's position among the kept values, −1 when it was
// dropped.
func (k *keptRows) index(i int) int {
	for q, r := range k.r {
		if i < r.Hi {
			if i >= r.Lo {
				return k.off[q] + i - r.Lo
			}
			break
		}
	}
	return -1
}

// holdsRows reports whether every row of [lo, hi) was kept.
func (k *keptRows) holdsRows(lo, hi int) bool {
	if lo >= hi {
		return true
	}
	for _, r := range k.r {
		if lo >= r.Lo && hi <= r.Hi {
			return true
		}
	}
	return false
}

// covers reports whether every row of rs was kept.
func (k *keptRows) covers(rs []RowRange) bool {
	for _, r := range rs {
		if !k.holdsRows(r.Lo, r.Hi) {
			return false
		}
	}
	return true
}

// miss is the panic value of a read of row i of column name that k does
// not hold: the DroppedRowError of a dropped row, but for a row outside
// the table (a reader's off-by-one, which no release caused), an
// out-of-range error, as a whole column's read would panic with.
func (k *keptRows) miss(name string, i int) any {
	if i < 0 || i >= k.n {
		return fmt.Sprintf("data: row %d of column %s out of range [0, %d)", i, name, k.n)
	}
	return k.dropped(name, i)
}

// dropped is the error of a read of dropped row i of column name: the
// stretch of dropped rows it lies in.
func (k *keptRows) dropped(name string, i int) *DroppedRowError {
	e := &DroppedRowError{Column: name, Row: i, Hi: k.n}
	for _, r := range k.r {
		if r.Hi <= i {
			e.Lo = r.Hi
		} else if r.Lo > i {
			e.Hi = r.Lo
			break
		}
	}
	return e
}

// view is the kept rows of rows [lo, hi) as Jobs.Rows views them, rows
// renumbered from lo, positions unchanged (the values are shared).
func (k *keptRows) view(lo, hi int) keptRows {
	out := keptRows{n: hi - lo}
	for q, r := range k.r {
		a, b := max(lo, r.Lo), min(hi, r.Hi)
		if a < b {
			out.r = append(out.r, RowRange{a - lo, b - lo})
			out.off = append(out.off, k.off[q]+a-r.Lo)
		}
	}
	return out
}

// keptStrings are the strings of the kept rows of a column, s.Bytes(p)
// the string at position p (keptRows.index).
type keptStrings struct {
	kr keptRows
	s  Strings
}

// holds reports whether row i was kept.
func (k *keptStrings) holds(i int) bool { return k.kr.index(i) >= 0 }

func (k *keptStrings) bytes(i int) []byte {
	p := k.kr.index(i)
	if p < 0 {
		panic(k.kr.miss(ColJobID, i))
	}
	return k.s.Bytes(p)
}

// view is rows [lo, hi) of the column as Jobs.Rows views them: the kept
// rows among them (their strings shared), the others dropped still.
func (k *keptStrings) view(lo, hi int) *keptStrings {
	return &keptStrings{kr: k.kr.view(lo, hi), s: k.s}
}

// keepStrings is Jobs.KeepRanges of the job ids s of a table of n rows
// read from src.
func keepStrings(s *Strings, rs []RowRange, n int, src string) error {
	if k := s.kept; k != nil {
		if slices.Equal(k.kr.r, rs) {
			return nil
		}
		if !k.kr.covers(rs) {
			return fmt.Errorf("%s: job ids kept for rows %s already, not all of %s", src, rangesText(k.kr.r), rangesText(rs))
		}
	} else if s.Len() != n {
		return fmt.Errorf("%s: %d job ids for %d rows", src, s.Len(), n)
	}
	out := Strings{Offsets: []int32{0}}
	for _, r := range rs {
		for i := r.Lo; i < r.Hi; i++ {
			out.Data = append(out.Data, s.Bytes(i)...)
			out.Offsets = append(out.Offsets, int32(len(out.Data)))
		}
	}
	*s = Strings{kept: &keptStrings{kr: newKeptRows(rs, n), s: out}}
	return nil
}

// keptValues are the values of the kept rows of a column, v[p] the value
// at position p (keptRows.index).
type keptValues[T Number] struct {
	kr   keptRows
	v    []T
	name string
}

// index is row i's position in v; a dropped row panics.
func (k *keptValues[T]) index(i int) int {
	p := k.kr.index(i)
	if p < 0 {
		panic(k.kr.miss(k.name, i))
	}
	return p
}

// view is rows [lo, hi) of the column as Jobs.Rows views them: the kept
// rows among them (no copy), the others dropped still.
func (k *keptValues[T]) view(lo, hi int) *keptValues[T] {
	return &keptValues[T]{kr: k.kr.view(lo, hi), v: k.v, name: k.name}
}

func (k *keptValues[T]) at(i int, valid Bitmap) (T, bool) {
	p := k.index(i)
	if !valid.Valid(i) {
		var zero T
		return zero, false
	}
	return k.v[p], true
}

// rows returns rows idx of the column (as gatherCol), valid its whole
// bitmap.
func (k *keptValues[T]) rows(idx []int, valid Bitmap) Column[T] {
	out := Column[T]{Values: make([]T, len(idx))}
	if valid != nil {
		out.Valid = NewBitmap(len(idx))
	}
	for q, i := range idx {
		out.Values[q] = k.v[k.index(i)]
		if !valid.Valid(i) {
			out.Valid.SetNull(q)
		}
	}
	return out
}

// dropped reports whether KeepRows dropped rows of c.
func (c *Column[T]) dropped() bool { return c.kept != nil }

// holdsRows reports whether every row of [lo, hi) of c can be read.
func (c *Column[T]) holdsRows(lo, hi int) bool { return c.kept == nil || c.kept.kr.holdsRows(lo, hi) }

// keepRanges is Jobs.KeepRanges of c, the column name of a table of n rows
// read from src.
func (c *Column[T]) keepRanges(rs []RowRange, n int, name, src string) error {
	from := c.Values // the values of rows [lo, hi) are from[at(lo):][:hi-lo]
	at := func(i int) int { return i }
	if k := c.kept; k != nil {
		if slices.Equal(k.kr.r, rs) {
			return nil
		}
		if !k.kr.covers(rs) {
			return fmt.Errorf("%s: column %s kept for rows %s already, not all of %s", src, name, rangesText(k.kr.r), rangesText(rs))
		}
		from, at = k.v, k.kr.index
	} else if c.Values == nil { // absent: nothing to drop
		return nil
	} else if len(c.Values) != n {
		return fmt.Errorf("%s: column %s has %d values for %d rows", src, name, len(c.Values), n)
	}
	k := &keptValues[T]{kr: newKeptRows(rs, n), name: name}
	k.v = make([]T, 0, k.kr.count())
	for _, r := range rs { // a range held lies within one range kept: contiguous
		k.v = append(k.v, from[at(r.Lo):][:r.Hi-r.Lo]...)
	}
	c.kept, c.Values = k, nil
	return nil
}

// count is the number of rows kept.
func (k *keptRows) count() int {
	if len(k.r) == 0 {
		return 0
	}
	last := len(k.r) - 1
	return k.off[last] + k.r[last].Hi - k.r[last].Lo
}
