// Package data holds schedplan's canonical job-log model and everything that
// moves job logs in and out of it: readers for Parquet and Arrow IPC (via
// github.com/apache/arrow/go/v17), SWIM .tsv and CSV; writers for Parquet and
// Arrow IPC; column mapping; validation that names file, row and column; and
// the embedded default trace (the SWIM Facebook 2009 sample).
//
// The model is columnar: a Jobs value holds one slice per column, strings are
// stored Arrow-style (one byte buffer plus offsets) and users and queues are
// dictionary encoded, so a million jobs cost about a hundred bytes each and no
// per-job allocation.
//
// data imports nothing else from schedplan.
package data
