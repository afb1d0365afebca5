package inputs

import (
	"slices"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/data"
)

// Classes is the classify stage's state: the primary and secondary
// classifications (package pipeline's classState).
type Classes struct {
	Primary   ClassOut `json:"primary"`
	Secondary ClassOut `json:"secondary"`
}

// ClassOut is one classification of the log: the result, the rows it
// classified and each row's class.
type ClassOut struct {
	Result *classify.Result `json:"result"`
	Rows   []int            `json:"rows,omitempty"`
	Assign []int32          `json:"assign"`
	// first is the first row Assign holds once KeepFrom dropped the rows
	// before it (Rows nil): Assign[i−first] is row i's class.
	first int
}

// KeepFrom drops the classes of the rows before first of a classification
// of every row (Rows nil), and the result's own copy of them
// (classify.Result.DropLabels): validate keeps the validation window's
// (4 B a tuning job: 28 MB at the 10 M log's 7 M tuning jobs). A row
// dropped panics with a data.DroppedRowError when read. A no-op for a
// classification of some rows, or when nothing is dropped.
func (c *ClassOut) KeepFrom(first int) {
	if c.Rows != nil || first <= c.first {
		return
	}
	a := min(first-c.first, len(c.Assign))
	c.Assign, c.first = slices.Clone(c.Assign[a:]), c.first+a
	if c.Result != nil {
		c.Result.DropLabels()
	}
}

// Labels returns the rows classified (nil: every row) and their classes,
// as classify made them; it panics with a data.DroppedRowError once
// KeepFrom dropped rows.
func (c *ClassOut) Labels() ([]int, []int32) {
	if c.first > 0 {
		c.dropped(0)
	}
	return c.Rows, c.Assign
}

// dropped panics for a read of row i, dropped by KeepFrom: the stretch
// of dropped rows is [0, first), not the rows kept.
func (c *ClassOut) dropped(i int) {
	panic(&data.DroppedRowError{Column: "class", Row: i, Lo: 0, Hi: c.first})
}

// ClassOf returns the class of jobs-table row i (−1 when the row was not
// classified).
func (c *ClassOut) ClassOf(i int) int32 {
	if c.Rows == nil {
		if i < c.first {
			c.dropped(i)
		}
		if i-c.first < len(c.Assign) {
			return c.Assign[i-c.first]
		}
		return -1
	}
	for q, r := range c.Rows {
		if r == i {
			return c.Assign[q]
		}
	}
	return -1
}

// ClassesOf returns the classes of jobs-table rows [first, first+n) (−1 for
// a row not classified), in one pass.
func (c *ClassOut) ClassesOf(first, n int) []int32 {
	out := make([]int32, n)
	if c.Rows == nil {
		if n > 0 && first < c.first {
			c.dropped(first)
		}
		for i := range out {
			out[i] = -1
			if first+i-c.first < len(c.Assign) {
				out[i] = c.Assign[first+i-c.first]
			}
		}
		return out
	}
	for i := range out {
		out[i] = -1
	}
	for q, r := range c.Rows {
		if r >= first && r < first+n {
			out[r-first] = c.Assign[q]
		}
	}
	return out
}

// View is ClassesOf(first, n) as the results sink reads it: a view of c's
// classes when it classified every row (not a copy: 4 B a job, 11 MB at
// the 10 M log's 3 M validation jobs, beside the exact-size runs), else
// ClassesOf's copy.
func (c *ClassOut) View(first, n int) []int32 {
	if c.Rows == nil && first >= c.first && first+n <= c.first+len(c.Assign) {
		a := first - c.first
		return c.Assign[a : a+n : a+n]
	}
	return c.ClassesOf(first, n)
}
