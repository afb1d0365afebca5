package main

import (
	"github.com/schedplan/schedplan/data"
	"github.com/spf13/pflag"
)

// logFlags are the flags for other systems' logs (Spark event logs, job
// history, SLS/Rumen, Google 2019, Alibaba 2018, SWF, full SWIM) and a
// tasks table: convert writes the log's tasks to --tasks, run and describe
// read a tasks table from it.
type logFlags struct {
	tasks      string
	keepFailed bool
	sparkUnit  string
}

func (l *logFlags) register(fl *pflag.FlagSet, tasksUsage string) {
	fl.StringVar(&l.tasks, "tasks", "", tasksUsage)
	fl.BoolVar(&l.keepFailed, "keep-failed", false, "keep failed and killed jobs of a log or of a jobs table with a state column (dropped and counted by default)")
	fl.StringVar(&l.sparkUnit, "spark-job", string(data.SparkApplication), `what a job is in a Spark event log: "application" or "job" (each Spark job, APP_ID/JOB_ID)`)
}

// options sets the log readers' options of opt (checked in pipeline).
func (l *logFlags) options(opt *data.ReadOptions) {
	opt.Log = data.LogOptions{KeepFailed: l.keepFailed, Spark: data.SparkUnit(l.sparkUnit)}
}
