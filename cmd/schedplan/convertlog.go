package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"strings"

	"github.com/schedplan/schedplan/data"
	"github.com/spf13/pflag"
)

// logFlags are convert's flags for other systems' logs (Spark event logs,
// job history, SLS/Rumen, Google 2019, Alibaba 2018, SWF, full SWIM).
type logFlags struct {
	tasksOut   string
	keepFailed bool
	sparkUnit  string
}

func (l *logFlags) register(fl *pflag.FlagSet) {
	fl.StringVar(&l.tasksOut, "tasks", "", "also write the log's tasks table here (.parquet, .arrow, .arrows or .csv); for logs that have tasks")
	fl.BoolVar(&l.keepFailed, "keep-failed", false, "keep failed and killed jobs of a log (dropped and counted by default)")
	fl.StringVar(&l.sparkUnit, "spark-job", string(data.SparkApplication), `what a job is in a Spark event log: "application" or "job" (each Spark job, APP_ID/JOB_ID)`)
}

func (l *logFlags) options() (data.LogOptions, error) {
	u := data.SparkUnit(l.sparkUnit)
	if u != data.SparkApplication && u != data.SparkJob {
		return data.LogOptions{}, fmt.Errorf("--spark-job: %q is neither %q nor %q", l.sparkUnit, data.SparkApplication, data.SparkJob)
	}
	return data.LogOptions{KeepFailed: l.keepFailed, Spark: u}, nil
}

// logFormat returns the log format of convert's input, "" when the input is
// a canonical job log (Parquet, Arrow, CSV, SWIM .tsv, embedded).
func logFormat(tf *traceFlags) data.Format {
	f := data.Format(tf.format)
	if data.IsLogFormat(f) {
		return f
	}
	if f != "" || tf.trace == "embedded" || strings.HasPrefix(tf.trace, "embedded:") {
		return ""
	}
	if d, err := data.DetectFormat(tf.trace); err == nil && data.IsLogFormat(d) {
		return d
	}
	return ""
}

// readConvertInput reads convert's input. A log is read under a soft
// memory limit (data.SoftMemoryLimit, unless GOMEMLIMIT is set), with its
// tasks, and its summary (what was dropped and why) is printed to out.
func readConvertInput(tf *traceFlags, lf *logFlags, out io.Writer) (*data.Jobs, *data.Tasks, error) {
	f := logFormat(tf)
	if f == "" {
		if lf.tasksOut != "" {
			return nil, nil, fmt.Errorf("--tasks: the input is a job log without tasks; --tasks writes the tasks of a log (--format %s)", logFormatNames())
		}
		j, err := tf.read()
		return j, nil, err
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(data.SoftMemoryLimit))
	}
	lo, err := lf.options()
	if err != nil {
		return nil, nil, err
	}
	var sum *data.LogSummary
	lo.Summary = func(s *data.LogSummary) { sum = s }
	lg, err := data.ReadLog(tf.trace, data.ReadOptions{
		Format: f,
		Strict: tf.strict,
		Warn:   func(msg string) { slog.Warn(msg) },
		Log:    lo,
	})
	if sum != nil {
		fmt.Fprintln(out, sum.String())
	}
	if err != nil {
		return nil, nil, err
	}
	if lf.tasksOut != "" && lg.Tasks == nil {
		return nil, nil, fmt.Errorf("--tasks: this %s log has no tasks", f)
	}
	return lg.Jobs, lg.Tasks, nil
}

func logFormatNames() string {
	var names []string
	for _, f := range data.LogFormats {
		names = append(names, string(f))
	}
	return strings.Join(names, ", ")
}
