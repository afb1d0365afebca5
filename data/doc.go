// Package data holds schedplan's canonical job-log model and everything that
// moves job logs in and out of it: readers and writers for Parquet and Arrow
// IPC (file and stream, via github.com/apache/arrow/go/v17), CSV with a
// header row and SWIM .tsv; column mapping for logs with other column names
// and time units; validation that names file, row and column; atomic file
// writing; a generic columnar Table for results files; and the embedded
// default trace (the SWIM Facebook 2009 sample).
//
// Parquet files may use any encoding of Parquet format 2: arrow-go decodes
// all but BYTE_STREAM_SPLIT (DuckDB's choice for doubles with
// parquet_version v2), which this package decodes itself in flat numeric
// columns; DECIMAL columns read as numbers. Pages may be compressed with any
// codec arrow-go registers (Snappy, Gzip, Brotli, Zstd) and with LZ4_RAW
// and the deprecated Hadoop LZ4, which data/internal/colfile registers; a
// page whose header carries a CRC is checked against it before it is
// decoded. That package holds the Parquet and Arrow IPC codec and the
// results Table's encoding; this one converts its tables to jobs and tasks. Files are checked before they are
// read (magic bytes, Parquet footer length, an estimate of the memory reading
// needs against the memory available), and text formats are streamed.
//
// What becomes of each column of a jobs table — used as which canonical
// column and for what, or ignored and why — is reported (ColumnReport,
// through ReadOptions.Columns); a state column's failed and killed jobs are
// dropped unless LogOptions.KeepFailed keeps them. docs/formats.md is
// generated from these tables (SchemaMarkdown).
//
// The optional tasks table (Tasks: one row per task attempt, with stage,
// times, status, resources, node and phase times) has the same validation,
// I/O and column mapping, and fills the jobs' task counts and task-seconds
// (Jobs.FillFromTasks). The log readers, one package a format under data/
// (data/spark, data/jhist, data/rmsummary, data/sls, data/google,
// data/alibaba, data/swf, data/swimfull), stream the logs clusters already
// have into jobs and tasks, with a summary of what they dropped and why;
// each is an entry (LogFormat) of the one table of log formats, which
// package data/logs registers and LogFormats, DetectFormat, ReadLog and
// ReadFile consult (ReadFile reads logs too, by --format or by their
// content).
//
// The model is columnar: a Jobs value holds one slice per column, strings are
// stored Arrow-style (one byte buffer plus offsets) and users and queues are
// dictionary encoded, so a million jobs cost about a hundred bytes each and no
// per-job allocation. Parquet and Arrow readers copy whole Arrow buffers into
// these slices and keep nothing of the decoder.
//
// # Representable values
//
// Every reader validates what it reads (Validate) and rejects, naming file,
// row and column, any value outside these ranges, so that no sum over a log,
// share of a total or conversion to an integer later overflows, and times
// keep their resolution:
//
//   - submit_time, start_time, finish_time: finite, in [0, MaxTime] =
//     [0, 1e11] s (seconds since the log's clock origin; as Unix time, up to
//     the year 5138), where a float64 resolves 2^-16 s ≈ 15 µs or better.
//     Times of 1e12 s and more are almost always milliseconds or smaller
//     units read as seconds: the column mapping gives the unit. A job's
//     start_time is not before its submit_time and its finish_time not before
//     its start_time (or submit_time when it has no start time).
//   - size, map_task_seconds, reduce_task_seconds: finite, in [0, MaxSize] =
//     [0, 1e12] container-seconds; 10^8 jobs of the largest size sum to 1e20.
//     The size estimate derives (package estimate) obeys the same bound, and
//     a log whose sizes are all 0 is rejected there.
//   - input_bytes, shuffle_bytes, output_bytes: integers in [0, MaxBytes] =
//     [0, 2^53] B (8 PiB), exact as float64.
//   - map_tasks, reduce_tasks: integers in [0, MaxTasks] = [0, 10^7].
//   - priority: an integer in [MinPriority, MaxPriority] = [1, 10^4]; it is
//     a weight (DESIGN.md: default 1), so 0 and negative priorities are
//     rejected, never coerced.
//   - job_id: non-empty and unique; user and queue: any string (an empty
//     string is a value, a missing one a null that means DefaultUser).
//
// Strings are kept byte for byte, control characters included; Printable
// quotes them for a terminal.
//
// data imports nothing else from schedplan but its internal packages
// (data/internal/colfile, data/internal/compress, data/internal/csvscan)
// and internal/sysmem and internal/radix; the log readers import data,
// never the reverse.
package data
