// Package gcpause keeps the garbage collector off while schedplan starts,
// until a command begins its work (Resume). Only package main imports it:
// a library or test binary that did would run without collections until
// something called Resume.
//
// The packages schedplan links allocate about 3.7 MB in their init
// functions — goccy/go-json's type caches (arrow-go's JSON support) 2.3 MB,
// Arrow compute's kernel registry 0.5 MB, gonum/plot's fonts and the rest
// the remainder — almost all of it live for the life of the process. The
// runtime starts its first collection at about 3 MB, in the middle of those
// init functions: a collection that frees about 0.5 MB, yet whose mark runs
// on beside `schedplan --help` and costs a fifth of the process's CPU time
// and 40% of its page faults. With this package imported, the init
// functions and the parsing of the command line allocate without a
// collection, so that --help, usage errors and shell completion never
// collect, and a command collects as GOGC says from Resume on.
//
// For its init function to run before those of the packages that allocate,
// the package imports nothing that has to be initialised first: Go
// initialises the packages whose imports are initialised in the order of
// their import paths, and runtime/debug (whose SetGCPercent this is) comes
// after every github.com path, which is after the collection has started.
// So it calls runtime/debug's implementation, which the runtime provides by
// a push linkname (runtime.setGCPercent in runtime/mgcpacer.go), directly;
// TestSetGCPercent checks that it is SetGCPercent's, and cmd/schedplan's
// TestHelpStartsNoCollection that the init runs first and no collection
// starts.
package gcpause

import (
	"sync"
	_ "unsafe" // for go:linkname
)

// setGCPercent is runtime/debug.SetGCPercent without the package's init
// order: the runtime's runtime.setGCPercent, pushed to runtime/debug.
//
//go:linkname setGCPercent runtime/debug.setGCPercent
func setGCPercent(percent int32) int32

// gogc is the collector's setting before init turned it off: GOGC's (100
// unless the environment says otherwise; -1 for GOGC=off).
var gogc = setGCPercent(-1)

var resume sync.Once

// Resume gives the collector back its GOGC setting; calls after the first
// do nothing. Every command calls it before it starts its work.
func Resume() { resume.Do(func() { setGCPercent(gogc) }) }
