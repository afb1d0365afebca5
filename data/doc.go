// Package data holds schedplan's canonical job-log model and everything that
// moves job logs in and out of it: readers and writers for Parquet and Arrow
// IPC (file and stream, via github.com/apache/arrow/go/v17), CSV with a
// header row and SWIM .tsv; column mapping for logs with other column names
// and time units; validation that names file, row and column; atomic file
// writing; a generic columnar Table for results files; and the embedded
// default trace (the SWIM Facebook 2009 sample).
//
// The model is columnar: a Jobs value holds one slice per column, strings are
// stored Arrow-style (one byte buffer plus offsets) and users and queues are
// dictionary encoded, so a million jobs cost about a hundred bytes each and no
// per-job allocation. Parquet and Arrow readers copy whole Arrow buffers into
// these slices and keep nothing of the decoder.
//
// data imports nothing else from schedplan.
package data
