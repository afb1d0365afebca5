// Package sls reads the JSON job traces of YARN's Scheduler Load Simulator
// (--format sls) and of Hadoop Rumen (--format rumen), the format SLS
// also takes, into schedplan's jobs and tasks tables. Format and Rumen are
// their entries of the table of log formats (data.LogFormat), which
// data/logs registers.
//
// It imports data and data/internal/logread.
package sls
