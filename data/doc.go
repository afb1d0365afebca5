// Package data holds schedplan's canonical job-log model and everything that
// moves job logs in and out of it: readers and writers for Parquet and Arrow
// IPC (file and stream, via github.com/apache/arrow/go/v17), CSV with a
// header row and SWIM .tsv; column mapping for logs with other column names
// and time units; validation that names file, row and column; atomic file
// writing; a generic columnar Table for results files; and the embedded
// default trace (the SWIM Facebook 2009 sample).
//
// The optional tasks table (Tasks: one row per task attempt, with stage,
// times, status, resources, node and phase times) has the same validation,
// I/O and column mapping, and fills the jobs' task counts and task-seconds
// (Jobs.FillFromTasks). The log readers (logs.go) stream the logs clusters
// already have into jobs and tasks, with a summary of what they dropped and
// why: Spark event logs, MapReduce job history, ResourceManager application
// summaries, YARN SLS and Rumen traces, Google cluster data 2019, Alibaba
// cluster-trace-v2018, SWF and full-format SWIM (LogFormats, ReadLog;
// ReadFile reads them too, by --format or by their content).
//
// The model is columnar: a Jobs value holds one slice per column, strings are
// stored Arrow-style (one byte buffer plus offsets) and users and queues are
// dictionary encoded, so a million jobs cost about a hundred bytes each and no
// per-job allocation. Parquet and Arrow readers copy whole Arrow buffers into
// these slices and keep nothing of the decoder.
//
// data imports nothing else from schedplan.
package data
