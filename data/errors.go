package data

import (
	"errors"
	"fmt"
	"strings"
)

// ErrExists is returned (wrapped, with the path) by WriteFileAtomic and
// WriteBytesAtomic when the target exists and overwriting was not allowed.
var ErrExists = errors.New("file exists")

// InputError is a problem with an input file, located as precisely as the
// reader can: File always, Row (1-based data row, 0 when the problem is not
// tied to one row) and Column (the canonical or source column name, "" when the
// problem is not tied to one column).
type InputError struct {
	File   string
	Row    int
	Column string
	Msg    string
}

func (e *InputError) Error() string {
	var b strings.Builder
	b.WriteString(Printable(e.File))
	if e.Row > 0 {
		fmt.Fprintf(&b, ": row %d", e.Row)
	}
	if e.Column != "" {
		fmt.Fprintf(&b, ": column %q", e.Column)
	}
	b.WriteString(": ")
	b.WriteString(e.Msg)
	return b.String()
}

func inputErrorf(file string, row int, col string, format string, args ...any) *InputError {
	return &InputError{File: file, Row: row, Column: col, Msg: fmt.Sprintf(format, args...)}
}

// InputErrorf returns an *InputError of file, row and column (0 and "" when
// the problem is tied to none) with a formatted message: what the log
// readers of data/spark, data/swf, … return for bad input.
func InputErrorf(file string, row int, col string, format string, args ...any) *InputError {
	return inputErrorf(file, row, col, format, args...)
}
