package inputs

import "github.com/schedplan/schedplan/classify"

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
}

// ClassOf returns the class of jobs-table row i (−1 when the row was not
// classified).
func (c *ClassOut) ClassOf(i int) int32 {
	if c.Rows == nil {
		if i < len(c.Assign) {
			return c.Assign[i]
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
		for i := range out {
			out[i] = -1
			if first+i < len(c.Assign) {
				out[i] = c.Assign[first+i]
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
