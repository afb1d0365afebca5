package main

import (
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/spf13/cobra"
)

func newDescribeCmd(a *app) *cobra.Command {
	var tf traceFlags
	var lf logFlags
	var asJSON bool
	var maxUsers int
	cmd := &cobra.Command{
		Use:   "describe",
		Short: "Summarise a job log: jobs, span, arrival rate, size quantiles, users, observed response times",
		Example: `  schedplan describe                      # the embedded SWIM FB-2009 trace
  schedplan describe --trace jobs.parquet --tasks tasks.parquet --json
  schedplan describe --format spark-eventlog /var/log/spark-events --spark-job job`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			o, err := tf.inputOptions(cmd, args, &lf)
			if err != nil {
				return err
			}
			w, err := inputs.DescribeLog(o, tf.sizes())
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), w)
			}
			w.WriteText(cmd.OutOrStdout(), maxUsers)
			return nil
		},
	}
	tf.register(cmd)
	lf.register(cmd.Flags(), "a tasks table (.parquet, .arrow or .csv) of the log's jobs: task counts and task-seconds come from it")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	cmd.Flags().IntVar(&maxUsers, "users", 10, "how many users to list (largest first)")
	return cmd
}
