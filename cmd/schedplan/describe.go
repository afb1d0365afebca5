package main

import (
	"github.com/schedplan/schedplan/pipeline"
	"github.com/spf13/cobra"
)

func newDescribeCmd(a *app) *cobra.Command {
	var tf traceFlags
	var asJSON bool
	var maxUsers int
	cmd := &cobra.Command{
		Use:   "describe",
		Short: "Summarise a job log: jobs, span, arrival rate, size quantiles, users",
		Example: `  schedplan describe                      # the embedded SWIM FB-2009 trace
  schedplan describe --trace jobs.parquet --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			sopt, err := tf.sizeOptions()
			if err != nil {
				return err
			}
			ropt, err := tf.readOptions()
			if err != nil {
				return err
			}
			w, err := pipeline.DescribeLog(tf.trace, ropt, sopt)
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
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	cmd.Flags().IntVar(&maxUsers, "users", 10, "how many users to list (largest first)")
	return cmd
}
