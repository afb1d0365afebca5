// Package rmsummary reads YARN ResourceManager application summary log
// lines (--format rm-app-summary: RMAppManager$ApplicationSummary's
// appId=…,submitTime=…) into schedplan's jobs table. Format is its entry
// of the table of log formats (data.LogFormat), which data/logs registers.
//
// It imports data and data/internal/logread.
package rmsummary
