// Package alibaba reads Alibaba's cluster-trace-v2018 batch workloads
// (--format alibaba-2018: batch_task, with batch_instance beside it when
// present) into schedplan's jobs and tasks tables. Format is its entry of
// the table of log formats (data.LogFormat), which data/logs registers.
//
// It imports data and data/internal/logread.
package alibaba
