package main

import (
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/schedplan/schedplan/data"
	"github.com/spf13/cobra"
)

// convertFormats are the values --to accepts.
var convertFormats = []data.Format{data.FormatParquet, data.FormatArrow, data.FormatArrowStream, data.FormatCSV, data.FormatTSV}

func newConvertCmd(a *app) *cobra.Command {
	var (
		tf    traceFlags
		lf    logFlags
		out   string
		to    string
		force bool
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
			if len(args) == 1 { // the input as an argument: convert --format spark-eventlog DIR -o jobs.parquet
				if cmd.Flags().Changed("trace") {
					return fmt.Errorf("give the input either as an argument or with --trace, not both")
				}
				tf.trace = args[0]
			}
			if out == "" {
				return fmt.Errorf("--out is required")
			}
			f, err := outputFormat(out, to)
			if err != nil {
				return err
			}
			if err := notTheInput(tf.trace, out); err != nil {
				return err
			}
			if !force {
				if _, err := os.Lstat(out); err == nil {
					return fmt.Errorf("%s exists; pass --force to overwrite", out)
				}
			}
			j, tasks, err := readConvertInput(&tf, &lf, cmd.OutOrStdout())
			if err != nil {
				return err
			}
			if tasks != nil && lf.tasksOut != "" {
				if err := notTheInput(tf.trace, lf.tasksOut); err != nil {
					return err
				}
				if err := data.WriteTasksFile(lf.tasksOut, force, tasks); err != nil {
					return err
				}
				fmt.Fprintf(cmd.OutOrStdout(), "wrote %d tasks to %s\n", tasks.Len(), lf.tasksOut)
			}
			if f == data.FormatTSV {
				warnTSVLoss(j)
			}
			if err := data.WriteFileAtomic(out, force, func(w io.Writer) error { return data.Write(w, j, f) }); err != nil {
				return err
			}
			size := int64(0)
			if st, err := os.Stat(out); err == nil {
				size = st.Size()
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %d jobs to %s (%s, %d bytes)\n", j.Len(), out, f, size)
			return nil
		},
	}
	tf.register(cmd)
	fl := cmd.Flags()
	lf.register(fl)
	// Sizes are not derived when converting: --dn and --load do not apply.
	fl.MarkHidden("dn")
	fl.MarkHidden("load")
	fl.StringVarP(&out, "out", "o", "", "output file (required)")
	names := make([]string, len(convertFormats))
	for k, f := range convertFormats {
		names[k] = string(f)
	}
	fl.StringVar(&to, "to", "", "output format: "+strings.Join(names, ", ")+"; default: from --out's extension")
	fl.BoolVar(&force, "force", false, "overwrite an existing output file")
	return cmd
}

// outputFormat resolves --to, or the output's extension when --to is empty.
func outputFormat(out, to string) (data.Format, error) {
	if to == "" {
		f, err := data.FormatOf(out)
		if err != nil {
			return "", fmt.Errorf("%w (or pass --to)", err)
		}
		return f, nil
	}
	for _, f := range convertFormats {
		if data.Format(to) == f {
			return f, nil
		}
	}
	return "", fmt.Errorf("--to: unknown format %q", to)
}

// notTheInput refuses an output that is the input file itself.
func notTheInput(trace, out string) error {
	if trace == "embedded" || strings.HasPrefix(trace, "embedded:") {
		return nil
	}
	ai, err1 := os.Stat(trace)
	bi, err2 := os.Stat(out)
	if err1 == nil && err2 == nil && os.SameFile(ai, bi) {
		return fmt.Errorf("--out %s is the input file; convert never modifies its input", out)
	}
	a, _ := filepath.Abs(trace)
	b, _ := filepath.Abs(out)
	if a == b {
		return fmt.Errorf("--out %s is the input file; convert never modifies its input", out)
	}
	return nil
}

// warnTSVLoss warns about what SWIM .tsv cannot hold.
func warnTSVLoss(j *data.Jobs) {
	var dropped []string
	for _, c := range data.Columns {
		switch c {
		case data.ColJobID, data.ColSubmit, data.ColInputBytes, data.ColShuffleBytes, data.ColOutputBytes:
			continue
		}
		if j.Present(c) {
			dropped = append(dropped, c)
		}
	}
	if len(dropped) > 0 {
		slog.Warn("SWIM .tsv has no place for some columns; they are dropped", "columns", strings.Join(dropped, ","))
	}
	nulls := 0
	for _, c := range []*data.Column[int64]{&j.InputBytes, &j.ShuffleBytes, &j.OutputBytes} {
		nulls += c.Valid.Nulls(len(c.Values))
	}
	if nulls > 0 || !j.InputBytes.Present() || !j.ShuffleBytes.Present() || !j.OutputBytes.Present() {
		slog.Warn("SWIM .tsv needs all three byte counts; missing or null ones are written as 0", "null values", nulls)
	}
}
