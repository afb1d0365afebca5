package pipeline

import "github.com/schedplan/schedplan/classify"

// classState is the classify stage's state.
type classState struct {
	Primary   classOut `json:"primary"`
	Secondary classOut `json:"secondary"`
}

type classOut struct {
	Result *classify.Result `json:"result"`
	Rows   []int            `json:"rows,omitempty"`
	Assign []int32          `json:"assign"`
}

// classOf returns the class of jobs-table row i (−1 when the row was not
// classified).
func (c *classOut) classOf(i int) int32 {
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
