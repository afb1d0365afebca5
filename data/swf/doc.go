// Package swf reads the Standard Workload Format of the Parallel Workloads
// Archive (--format swf) into schedplan's jobs table: one job a line, 18
// whitespace-separated numbers, header comments after ';' (swf.go says
// which field becomes which column). Format is its entry of the table of
// log formats (data.LogFormat), which data/logs registers.
//
// It imports data and data/internal/logread.
package swf
