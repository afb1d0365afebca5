package main

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/schedplan/schedplan/pipeline"
	"github.com/spf13/cobra"
)

func newDescribeCmd(a *app) *cobra.Command {
	var (
		tf       traceFlags
		asJSON   bool
		maxUsers int
	)
	cmd := &cobra.Command{
		Use:   "describe",
		Short: "Summarise a job log: jobs, span, arrival rate, size quantiles, users",
		Example: `  schedplan describe                      # the embedded SWIM FB-2009 trace
  schedplan describe --trace jobs.parquet --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			s, err := tf.readSized()
			if err != nil {
				return err
			}
			w := pipeline.Describe(s.jobs, s.sizes, s.src)
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), w)
			}
			printWorkload(cmd.OutOrStdout(), w, maxUsers)
			return nil
		},
	}
	tf.register(cmd)
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	cmd.Flags().IntVar(&maxUsers, "users", 10, "how many users to list (largest first)")
	return cmd
}

func printWorkload(out io.Writer, w pipeline.Workload, maxUsers int) {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "trace\t%s\n", w.Source)
	fmt.Fprintf(tw, "jobs\t%d\n", w.Jobs)
	fmt.Fprintf(tw, "submit times\t%g s .. %g s (span %g s, %.2f h)\n", w.FirstSubmit, w.LastSubmit, w.Span, w.Span/3600)
	fmt.Fprintf(tw, "arrival rate\t%.4g jobs/s\n", w.ArrivalRate)
	fmt.Fprintf(tw, "sizes from\t%s\n", w.SizeSource)
	fmt.Fprintf(tw, "total work\t%.6g\n", w.TotalWork)
	fmt.Fprintf(tw, "size mean\t%.4g\n", w.Size.Mean)
	fmt.Fprintf(tw, "size p50 / p90 / p99 / max\t%.4g / %.4g / %.4g / %.4g\n", w.Size.P50, w.Size.P90, w.Size.P99, w.Size.Max)
	fmt.Fprintf(tw, "zero-size jobs\t%d\n", w.ZeroSize)
	fmt.Fprintf(tw, "work in largest 1%% of jobs\t%.1f%%\n", 100*w.TopShare)
	fmt.Fprintf(tw, "users\t%d\n", len(w.Users))
	tw.Flush()
	if len(w.Users) > 0 {
		fmt.Fprintln(out)
		tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "user\tjobs\tshare\t")
		for k, u := range w.Users {
			if k == maxUsers {
				fmt.Fprintf(tw, "(%d more)\t\t\t\n", len(w.Users)-k)
				break
			}
			fmt.Fprintf(tw, "%s\t%d\t%.1f%%\t\n", u.User, u.Jobs, 100*float64(u.Jobs)/float64(w.Jobs))
		}
		tw.Flush()
	}
}
