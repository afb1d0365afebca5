// Package jhist reads MapReduce job history files (--format jhist: .jhist,
// Avro-JSON events, one file a job; a directory is walked for them) into
// schedplan's jobs and tasks tables. Format is its entry of the table of
// log formats (data.LogFormat), which data/logs registers.
//
// It imports data and data/internal/logread.
package jhist
