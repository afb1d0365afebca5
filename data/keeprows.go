package data

import (
	"fmt"
	"maps"
	"slices"
)

// This file lets a table drop the values of rows no later reader needs
// (Jobs.KeepRows): the job ids and the byte columns of a 10 M-job log are
// 0.35 GB, of which the validation window's last stages read 30%.

// KeepRows drops the values of the named columns (canonical names: the
// job ids, ColJobID, and the numeric columns) but for rows [lo, hi), which
// it keeps in a copy of their own: the table still has j.Len() rows, the
// columns are still Present and their At, Bytes and Subset and Rows of
// kept rows give what they gave, but a dropped row's value panics with a
// *DroppedRowError (a reader past its owner's release, which must never
// read a wrong value; CatchDroppedRow makes it an error);
// null bitmaps stay whole (1 bit a row). Submit, the user, queue and
// absent columns are never dropped. A column already kept for [lo, hi) is
// left as it is; for any other rows, KeepRows errors. The table can no
// longer be written (Write errors) nor appended to.
func (j *Jobs) KeepRows(lo, hi int, names ...string) error {
	n := j.Len()
	if lo < 0 || lo > hi || hi > n {
		return fmt.Errorf("%s: keep rows [%d, %d) of %d", j.Source, lo, hi, n)
	}
	for _, name := range names {
		if err := j.keepColumn(name, lo, hi, n); err != nil {
			return err
		}
	}
	return nil
}

// keepColumn is KeepRows of one column.
func (j *Jobs) keepColumn(name string, lo, hi, n int) error {
	if name == ColJobID {
		return keepStrings(&j.ID, lo, hi, n, j.Source)
	}
	if c, ok := j.numericColumns()[name]; ok {
		return c.keepRows(lo, hi, n, name, j.Source)
	}
	return fmt.Errorf("%s: column %q cannot drop rows (KeepRows drops the job ids and the numeric columns)", j.Source, name)
}

// rowKeeper is a numeric column of any type, for KeepRows.
type rowKeeper interface {
	keepRows(lo, hi, n int, name, src string) error
	dropped() bool
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

// keptStrings are the strings of rows [lo, lo+s.Len()) of a column of n.
type keptStrings struct {
	lo, n int
	s     Strings
}

// holds reports whether row i was kept.
func (k *keptStrings) holds(i int) bool { return i >= k.lo && i < k.lo+k.s.Len() }

func (k *keptStrings) bytes(i int) []byte {
	if !k.holds(i) {
		panic(&DroppedRowError{Column: ColJobID, Row: i, Lo: k.lo, Hi: k.lo + k.s.Len()})
	}
	return k.s.Bytes(i - k.lo)
}

// view is rows [lo, hi) of the column as Jobs.Rows views them: the kept
// rows among them (their ids' bytes shared), the others dropped still.
func (k *keptStrings) view(lo, hi int) *keptStrings {
	a, b := max(lo, k.lo), min(hi, k.lo+k.s.Len())
	if a >= b {
		return &keptStrings{n: hi - lo, s: Strings{Offsets: []int32{0}}}
	}
	return &keptStrings{lo: a - lo, n: hi - lo, s: stringsRows(&k.s, a-k.lo, b-k.lo)}
}

func keepStrings(s *Strings, lo, hi, n int, src string) error {
	if k := s.kept; k != nil {
		if k.lo == lo && k.s.Len() == hi-lo {
			return nil
		}
		return fmt.Errorf("%s: job ids kept for rows [%d, %d) already, not [%d, %d)", src, k.lo, k.lo+k.s.Len(), lo, hi)
	}
	if s.Len() != n {
		return fmt.Errorf("%s: %d job ids for %d rows", src, s.Len(), n)
	}
	k := &keptStrings{lo: lo, n: n, s: gatherStrings(s, rowRange(lo, hi))}
	*s = Strings{kept: k}
	return nil
}

// keptValues are the values of rows [lo, lo+len(v)) of a column.
type keptValues[T Number] struct {
	lo   int
	v    []T
	name string
}

func (k *keptValues[T]) check(i int) {
	if i < k.lo || i >= k.lo+len(k.v) {
		panic(&DroppedRowError{Column: k.name, Row: i, Lo: k.lo, Hi: k.lo + len(k.v)})
	}
}

// view is rows [lo, hi) of the column as Jobs.Rows views them: the kept
// rows among them (no copy), the others dropped still.
func (k *keptValues[T]) view(lo, hi int) *keptValues[T] {
	a, b := max(lo, k.lo), min(hi, k.lo+len(k.v))
	if a >= b {
		return &keptValues[T]{v: []T{}, name: k.name}
	}
	return &keptValues[T]{lo: a - lo, v: k.v[a-k.lo : b-k.lo : b-k.lo], name: k.name}
}

func (k *keptValues[T]) at(i int, valid Bitmap) (T, bool) {
	k.check(i)
	if !valid.Valid(i) {
		var zero T
		return zero, false
	}
	return k.v[i-k.lo], true
}

// rows returns rows idx of the column (as gatherCol), valid its whole
// bitmap.
func (k *keptValues[T]) rows(idx []int, valid Bitmap) Column[T] {
	out := Column[T]{Values: make([]T, len(idx))}
	if valid != nil {
		out.Valid = NewBitmap(len(idx))
	}
	for q, i := range idx {
		k.check(i)
		out.Values[q] = k.v[i-k.lo]
		if !valid.Valid(i) {
			out.Valid.SetNull(q)
		}
	}
	return out
}

// dropped reports whether KeepRows dropped rows of c.
func (c *Column[T]) dropped() bool { return c.kept != nil }

// keepRows is Jobs.KeepRows of c, the column name of a table of n rows
// read from src.
func (c *Column[T]) keepRows(lo, hi, n int, name, src string) error {
	if k := c.kept; k != nil {
		if k.lo == lo && len(k.v) == hi-lo {
			return nil
		}
		return fmt.Errorf("%s: column %s kept for rows [%d, %d) already, not [%d, %d)", src, name, k.lo, k.lo+len(k.v), lo, hi)
	}
	if c.Values == nil { // absent: nothing to drop
		return nil
	}
	if len(c.Values) != n {
		return fmt.Errorf("%s: column %s has %d values for %d rows", src, name, len(c.Values), n)
	}
	c.kept, c.Values = &keptValues[T]{lo: lo, v: slices.Clone(c.Values[lo:hi]), name: name}, nil
	return nil
}

// rowRange is lo, lo+1, …, hi−1.
func rowRange(lo, hi int) []int {
	idx := make([]int, hi-lo)
	for k := range idx {
		idx[k] = lo + k
	}
	return idx
}
