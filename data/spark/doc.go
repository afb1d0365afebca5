// Package spark reads Spark event logs (--format spark-eventlog: JSON
// lines, plain or compressed with lz4, lzf, snappy or zstd; single files,
// rolling eventlog_v2_ directories, Spark 1.x directories, and directories
// of such logs) into schedplan's jobs and tasks tables, a job being a
// Spark application or a Spark job (data.LogOptions.Spark). Format is its
// entry of the table of log formats (data.LogFormat), which data/logs
// registers.
//
// It imports data and data/internal/logread.
package spark
