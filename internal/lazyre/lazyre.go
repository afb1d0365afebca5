// Package lazyre holds regular expressions compiled on first use rather
// than at start-up: a package-level regexp.MustCompile runs in the
// package's init, in every process that links the package, whether or not
// it ever matches anything (schedplan --help included).
package lazyre

import (
	"regexp"
	"sync"
)

// New returns a function that compiles expr on its first call, as
// regexp.MustCompile does (a bad expression panics there), and returns the
// same *regexp.Regexp from then on; it is safe for concurrent use.
func New(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
