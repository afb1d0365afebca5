package data

import (
	"math/bits"
	"sort"
)

// Canonical column names of the jobs table, as Parquet and Arrow columns:
// job_id (string) and submit_time (float64 seconds, or a timestamp) are
// required; user and queue (strings), priority (int32, default 1),
// start_time and finish_time (observed), map_tasks and reduce_tasks (int32),
// map_task_seconds and reduce_task_seconds (float64 task-seconds per stage),
// input_bytes, shuffle_bytes and output_bytes (int64) and size (float64
// container-seconds, which overrides derivation) are optional; a job needs a
// size, task-seconds or bytes.
const (
	ColJobID             = "job_id"
	ColSubmit            = "submit_time"
	ColUser              = "user"
	ColQueue             = "queue"
	ColPriority          = "priority"
	ColStart             = "start_time"
	ColFinish            = "finish_time"
	ColMapTasks          = "map_tasks"
	ColReduceTasks       = "reduce_tasks"
	ColMapTaskSeconds    = "map_task_seconds"
	ColReduceTaskSeconds = "reduce_task_seconds"
	ColInputBytes        = "input_bytes"
	ColShuffleBytes      = "shuffle_bytes"
	ColOutputBytes       = "output_bytes"
	ColSize              = "size"
)

// Columns lists the canonical columns in table order.
var Columns = []string{
	ColJobID, ColSubmit, ColUser, ColQueue, ColPriority, ColStart, ColFinish,
	ColMapTasks, ColReduceTasks, ColMapTaskSeconds, ColReduceTaskSeconds,
	ColInputBytes, ColShuffleBytes, ColOutputBytes, ColSize,
}

// DefaultUser is the user of jobs whose log has no user column (or a null user).
const DefaultUser = "default"

// Strings is a column of strings stored as one byte buffer and n+1 offsets,
// the layout of an Arrow string array: string i is Data[Offsets[i]:Offsets[i+1]].
type Strings struct {
	Offsets []int32
	Data    []byte
	// kept holds the strings of the rows Jobs.KeepRows kept (Offsets and
	// Data are nil then); nil: every row is in Offsets and Data.
	kept *keptStrings
}

// Len returns the number of strings.
func (s *Strings) Len() int {
	if s.kept != nil {
		return s.kept.kr.n
	}
	if len(s.Offsets) == 0 {
		return 0
	}
	return len(s.Offsets) - 1
}

// At returns string i (a copy).
func (s *Strings) At(i int) string { return string(s.Bytes(i)) }

// Held reports whether string i can be read: false for a row whose string
// Jobs.KeepRows dropped (reading it panics with a *DroppedRowError).
func (s *Strings) Held(i int) bool { return s.kept == nil || s.kept.holds(i) }

// Bytes returns string i without copying; the caller must not modify it.
func (s *Strings) Bytes(i int) []byte {
	if s.kept != nil {
		return s.kept.bytes(i)
	}
	return s.Data[s.Offsets[i]:s.Offsets[i+1]]
}

// Append adds v at the end.
func (s *Strings) Append(v string) {
	if s.kept != nil {
		panic("data: append to job ids whose rows Jobs.KeepRows dropped")
	}
	if len(s.Offsets) == 0 {
		s.Offsets = append(s.Offsets, 0)
	}
	s.Data = append(s.Data, v...)
	s.Offsets = append(s.Offsets, int32(len(s.Data)))
}

// Dict is a dictionary-encoded string column: row i holds Values[Codes[i]],
// or null when Codes[i] < 0. A Dict with nil Codes is an absent column.
type Dict struct {
	Codes  []int32
	Values []string
}

// Present reports whether the column exists in the table.
func (d *Dict) Present() bool { return d.Codes != nil }

// At returns row i's value and whether it is non-null.
func (d *Dict) At(i int) (string, bool) {
	if d.Codes == nil || d.Codes[i] < 0 {
		return "", false
	}
	return d.Values[d.Codes[i]], true
}

// Bitmap is a validity bitmap: bit i set means row i is valid (not null).
// A nil Bitmap means every row is valid.
type Bitmap []uint64

// NewBitmap returns a bitmap of n rows, all valid.
func NewBitmap(n int) Bitmap {
	b := make(Bitmap, (n+63)/64)
	for i := range b {
		b[i] = ^uint64(0)
	}
	return b
}

// Valid reports whether row i is valid.
func (b Bitmap) Valid(i int) bool { return b == nil || b[i>>6]&(1<<(uint(i)&63)) != 0 }

// SetNull marks row i null. b must not be nil.
func (b Bitmap) SetNull(i int) { b[i>>6] &^= 1 << (uint(i) & 63) }

// Nulls counts the null rows among the first n.
func (b Bitmap) Nulls(n int) int {
	if b == nil {
		return 0
	}
	valid := 0
	for i := 0; i < n>>6; i++ {
		valid += bits.OnesCount64(b[i])
	}
	for i := n &^ 63; i < n; i++ {
		if b.Valid(i) {
			valid++
		}
	}
	return n - valid
}

// Number is the element type of a numeric column.
type Number interface{ ~int32 | ~int64 | ~float64 }

// Column is an optional numeric column: Values holds one value per row (nil
// when the table has no such column) and Valid marks nulls (nil: none).
// The value stored at a null row is zero and carries no meaning.
type Column[T Number] struct {
	Values []T
	Valid  Bitmap
	// kept holds the values of the rows Jobs.KeepRows kept (Values is nil
	// then, Valid stays whole); nil: every row is in Values.
	kept *keptValues[T]
}

// Present reports whether the column exists in the table.
func (c *Column[T]) Present() bool { return c.Values != nil || c.kept != nil }

// At returns row i's value and whether it is non-null. Past Jobs.KeepRows,
// a row it did not keep panics.
func (c *Column[T]) At(i int) (T, bool) {
	if c.Values == nil {
		if c.kept != nil {
			return c.kept.at(i, c.Valid)
		}
		var zero T
		return zero, false
	}
	if !c.Valid.Valid(i) {
		var zero T
		return zero, false
	}
	return c.Values[i], true
}

// Jobs is the canonical jobs table, one row per job, held column by column.
// ID and Submit are always present (Submit in seconds); every other column may
// be absent (see Present).
type Jobs struct {
	// Source names where the table came from (a path, or "embedded:NAME");
	// readers and validation use it in messages.
	Source string

	ID     Strings
	Submit []float64

	User     Dict
	Queue    Dict
	Priority Column[int32]

	Start  Column[float64]
	Finish Column[float64]

	MapTasks          Column[int32]
	ReduceTasks       Column[int32]
	MapTaskSeconds    Column[float64]
	ReduceTaskSeconds Column[float64]

	InputBytes   Column[int64]
	ShuffleBytes Column[int64]
	OutputBytes  Column[int64]

	Size Column[float64]

	// idsChecked tells the next Validate that the ids are known unique
	// (set by the log readers, which drop duplicates; cleared by Validate).
	idsChecked bool
	// states holds a CSV table's state column, a value a row in file
	// order, read with the rows for applyColumns (which clears it).
	states []string
}

// Len returns the number of jobs.
func (j *Jobs) Len() int { return len(j.Submit) }

// UserAt returns job i's user, DefaultUser when the log names none.
func (j *Jobs) UserAt(i int) string {
	if u, ok := j.User.At(i); ok {
		return u
	}
	return DefaultUser
}

// PriorityAt returns job i's priority, 1 when the log gives none.
func (j *Jobs) PriorityAt(i int) int32 {
	if p, ok := j.Priority.At(i); ok {
		return p
	}
	return 1
}

// Users returns the distinct users in order of first appearance and, for each
// job, the index of its user in that list. Jobs without a user map to
// DefaultUser.
func (j *Jobs) Users() (names []string, index []int32) {
	index = make([]int32, j.Len())
	if !j.User.Present() {
		for i := range index {
			index[i] = 0
		}
		return []string{DefaultUser}, index
	}
	remap := make([]int32, len(j.User.Values)+1) // slot len(Values) is the null user
	for i := range remap {
		remap[i] = -1
	}
	for i, c := range j.User.Codes {
		slot := c
		if c < 0 {
			slot = int32(len(j.User.Values))
		}
		if remap[slot] < 0 {
			remap[slot] = int32(len(names))
			if c < 0 {
				names = append(names, DefaultUser)
			} else {
				names = append(names, j.User.Values[c])
			}
		}
		index[i] = remap[slot]
	}
	return names, index
}

// Present reports whether the named canonical column exists in the table.
func (j *Jobs) Present(col string) bool {
	switch col {
	case ColJobID, ColSubmit:
		return true
	case ColUser:
		return j.User.Present()
	case ColQueue:
		return j.Queue.Present()
	case ColPriority:
		return j.Priority.Present()
	case ColStart:
		return j.Start.Present()
	case ColFinish:
		return j.Finish.Present()
	case ColMapTasks:
		return j.MapTasks.Present()
	case ColReduceTasks:
		return j.ReduceTasks.Present()
	case ColMapTaskSeconds:
		return j.MapTaskSeconds.Present()
	case ColReduceTaskSeconds:
		return j.ReduceTaskSeconds.Present()
	case ColInputBytes:
		return j.InputBytes.Present()
	case ColShuffleBytes:
		return j.ShuffleBytes.Present()
	case ColOutputBytes:
		return j.OutputBytes.Present()
	case ColSize:
		return j.Size.Present()
	}
	return false
}

// Subset returns a new table holding rows idx of j, in that order.
func (j *Jobs) Subset(idx []int) *Jobs {
	out := &Jobs{Source: j.Source}
	out.ID = gatherStrings(&j.ID, idx)
	out.Submit = gather(j.Submit, idx)
	out.User = gatherDict(j.User, idx)
	out.Queue = gatherDict(j.Queue, idx)
	out.Priority = gatherCol(j.Priority, idx)
	out.Start = gatherCol(j.Start, idx)
	out.Finish = gatherCol(j.Finish, idx)
	out.MapTasks = gatherCol(j.MapTasks, idx)
	out.ReduceTasks = gatherCol(j.ReduceTasks, idx)
	out.MapTaskSeconds = gatherCol(j.MapTaskSeconds, idx)
	out.ReduceTaskSeconds = gatherCol(j.ReduceTaskSeconds, idx)
	out.InputBytes = gatherCol(j.InputBytes, idx)
	out.ShuffleBytes = gatherCol(j.ShuffleBytes, idx)
	out.OutputBytes = gatherCol(j.OutputBytes, idx)
	out.Size = gatherCol(j.Size, idx)
	return out
}

// Rows returns rows [lo, hi) of j as a read-only view: the values of
// every column are j's own (no copy; only the job ids' offsets and the
// null bitmaps are rebuilt, 4 B and 1 bit a row), where Subset would copy
// the rows: 330 MB for the first 7 M rows of a 10 M-job log. Neither
// table may be modified while the other is used; appending to a column of
// the view reallocates it.
func (j *Jobs) Rows(lo, hi int) *Jobs {
	out := &Jobs{Source: j.Source}
	if j.ID.kept != nil { // a view of the rows Jobs.KeepRows kept
		out.ID = Strings{kept: j.ID.kept.view(lo, hi)}
	} else {
		out.ID = stringsRows(&j.ID, lo, hi)
	}
	out.Submit = sliceRows(j.Submit, lo, hi)
	out.User = dictRows(j.User, lo, hi)
	out.Queue = dictRows(j.Queue, lo, hi)
	out.Priority = colRows(j.Priority, lo, hi)
	out.Start = colRows(j.Start, lo, hi)
	out.Finish = colRows(j.Finish, lo, hi)
	out.MapTasks = colRows(j.MapTasks, lo, hi)
	out.ReduceTasks = colRows(j.ReduceTasks, lo, hi)
	out.MapTaskSeconds = colRows(j.MapTaskSeconds, lo, hi)
	out.ReduceTaskSeconds = colRows(j.ReduceTaskSeconds, lo, hi)
	out.InputBytes = colRows(j.InputBytes, lo, hi)
	out.ShuffleBytes = colRows(j.ShuffleBytes, lo, hi)
	out.OutputBytes = colRows(j.OutputBytes, lo, hi)
	out.Size = colRows(j.Size, lo, hi)
	return out
}

// stringsRows is rows [lo, hi) of s as Rows views them: rebased offsets,
// s's own bytes.
func stringsRows(s *Strings, lo, hi int) Strings {
	out := Strings{Offsets: make([]int32, hi-lo+1)}
	if hi > lo {
		base := s.Offsets[lo]
		for k := range out.Offsets {
			out.Offsets[k] = s.Offsets[lo+k] - base
		}
		out.Data = s.Data[base:s.Offsets[hi]:s.Offsets[hi]]
	}
	return out
}

// sliceRows is v[lo:hi] with no room to append into v (nil stays nil).
func sliceRows[T any](v []T, lo, hi int) []T {
	if v == nil {
		return nil
	}
	return v[lo:hi:hi]
}

func dictRows(d Dict, lo, hi int) Dict {
	if d.Codes == nil {
		return d
	}
	return Dict{Codes: sliceRows(d.Codes, lo, hi), Values: d.Values}
}

func colRows[T Number](c Column[T], lo, hi int) Column[T] {
	var out Column[T]
	switch {
	case c.kept != nil: // a view of the rows Jobs.KeepRows kept
		out.kept = c.kept.view(lo, hi)
	case c.Values == nil:
		return c
	default:
		out.Values = sliceRows(c.Values, lo, hi)
	}
	if c.Valid != nil {
		out.Valid = NewBitmap(hi - lo)
		for i := lo; i < hi; i++ {
			if !c.Valid.Valid(i) {
				out.Valid.SetNull(i - lo)
			}
		}
	}
	return out
}

// SortedBySubmit reports whether submit times are non-decreasing.
func (j *Jobs) SortedBySubmit() bool {
	return sort.Float64sAreSorted(j.Submit)
}

// SortBySubmit reorders the rows by submit time, keeping the original order
// among equal times, and returns the permutation applied (row k of the result
// was row perm[k]).
func (j *Jobs) SortBySubmit() (perm []int) {
	perm = make([]int, j.Len())
	for i := range perm {
		perm[i] = i
	}
	sort.SliceStable(perm, func(a, b int) bool { return j.Submit[perm[a]] < j.Submit[perm[b]] })
	*j = *j.Subset(perm)
	return perm
}

// gatherStrings returns rows idx of s, in that order.
func gatherStrings(s *Strings, idx []int) Strings {
	out := Strings{Offsets: make([]int32, 1, len(idx)+1)}
	for _, i := range idx {
		out.Data = append(out.Data, s.Bytes(i)...)
		out.Offsets = append(out.Offsets, int32(len(out.Data)))
	}
	return out
}

func gather[T any](v []T, idx []int) []T {
	if v == nil {
		return nil
	}
	out := make([]T, len(idx))
	for k, i := range idx {
		out[k] = v[i]
	}
	return out
}

func gatherDict(d Dict, idx []int) Dict {
	if d.Codes == nil {
		return d
	}
	return Dict{Codes: gather(d.Codes, idx), Values: d.Values}
}

func gatherCol[T Number](c Column[T], idx []int) Column[T] {
	if c.kept != nil {
		return c.kept.rows(idx, c.Valid)
	}
	if c.Values == nil {
		return c
	}
	out := Column[T]{Values: gather(c.Values, idx)}
	if c.Valid != nil {
		out.Valid = NewBitmap(len(idx))
		for k, i := range idx {
			if !c.Valid.Valid(i) {
				out.Valid.SetNull(k)
			}
		}
	}
	return out
}
