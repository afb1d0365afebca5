// Package swimfull reads full-format SWIM traces (--format swim-full),
// whose tab-separated lines carry durations and task-seconds beside the
// bytes of the six-column SWIM .tsv that package data reads, into
// schedplan's jobs table. Format is its entry of the table of log formats
// (data.LogFormat), which data/logs registers.
//
// It imports data and data/internal/logread.
package swimfull
