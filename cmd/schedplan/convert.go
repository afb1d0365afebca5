package main

import (
	"github.com/schedplan/schedplan/pipeline"
	"github.com/spf13/cobra"
)

func newConvertCmd(a *app) *cobra.Command {
	var (
		tf traceFlags
		lf logFlags
		o  pipeline.ConvertOptions
	)
	cmd := &cobra.Command{
		Use:   "convert",
		Short: "Convert a job log, or another system's log, to Parquet, Arrow IPC, CSV or SWIM .tsv",
		Long: `convert reads a job log (any supported format, with --map for other column
names) and writes it in the canonical schema: Parquet, an Arrow IPC file or
stream, CSV with a header row, or SWIM .tsv (which keeps only job id, submit
time and the three byte counts).

It also reads the logs clusters already have (--format, or detected from the
content): spark-eventlog, jhist, rm-app-summary, sls, rumen, google-2019,
alibaba-2018, swf and swim-full. It prints what it read and what it dropped
and why (failed jobs, missing fields, unparseable lines with file and line),
and --tasks writes the log's tasks table beside the jobs.

The output format follows --to, else the output's extension (.parquet,
.arrow, .arrows for an Arrow stream, .csv, .tsv). The output is written
atomically (temporary file, then rename); an existing file is not replaced
without --force, and the input is never modified.`,
		Example: `  schedplan convert --out fb2009.parquet                  # the embedded trace as Parquet
  schedplan convert --format spark-eventlog /var/log/spark-events -o jobs.parquet --tasks tasks.parquet
  schedplan convert --trace jobs.csv --map submit_time=ts:ms --out jobs.arrow
  schedplan convert --trace jobs.parquet --out jobs.tsv --force`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			in, err := tf.inputOptions(cmd, args, &lf) // convert --format spark-eventlog DIR -o jobs.parquet
			if err != nil {
				return err
			}
			o.Trace, o.Read, o.TasksOut = in.Trace, in.Read, in.Tasks
			return pipeline.Convert(o, cmd.OutOrStdout())
		},
	}
	tf.register(cmd)
	fl := cmd.Flags()
	lf.register(fl, "also write the log's tasks table here (.parquet, .arrow, .arrows or .csv); for logs that have tasks")
	// Sizes are not derived when converting: --dn and --load do not apply.
	fl.MarkHidden("dn")
	fl.MarkHidden("load")
	fl.StringVarP(&o.Out, "out", "o", "", "output file (required)")
	fl.StringVar(&o.To, "to", "", "output format: "+pipeline.ConvertFormatNames()+"; default: from --out's extension")
	fl.BoolVar(&o.Force, "force", false, "overwrite an existing output file")
	return cmd
}
