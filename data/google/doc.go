// Package google reads Google cluster data 2019 (--format google-2019:
// CollectionEvents, with InstanceEvents beside them when present, as CSV
// or JSON lines) into schedplan's jobs and tasks tables. Format is its
// entry of the table of log formats (data.LogFormat), which data/logs
// registers.
//
// It imports data and data/internal/logread.
package google
