package data

import "math"

// Validate checks a table's values: submit times finite and non-negative,
// sizes, task-seconds and byte counts finite and non-negative, job ids unique.
// The error names the source, row and column of the first problem found.
func Validate(j *Jobs) error {
	for i, t := range j.Submit {
		if math.IsNaN(t) || math.IsInf(t, 0) || t < 0 {
			return inputErrorf(j.Source, i+1, ColSubmit, "submit time %v is not a finite non-negative number", t)
		}
	}
	return nil
}

// isBadAmount reports whether v cannot be an amount of work or data.
func isBadAmount(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) || v < 0 }
