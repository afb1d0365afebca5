// Package logread holds what the readers of other systems' logs
// (data/spark, data/jhist, data/swf, …) share: the state of one read (the
// options, the summary of what was dropped and why, the jobs and tasks
// tables being built), line reading with file and line numbers,
// decompression, and the walk from a path (a file or a directory) to its
// files.
//
// It imports data and data/internal/compress.
package logread
