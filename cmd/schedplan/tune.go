package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/schedplan/schedplan/pipeline"
	"github.com/spf13/cobra"
)

func newTuneCmd(a *app) *cobra.Command {
	var (
		tf        traceFlags
		wf        windowFlags
		policy    string
		budget    int
		objective string
		blocks    int
		asJSON    bool
	)
	d := pipeline.DefaultRunConfig()
	cmd := &cobra.Command{
		Use:   "tune",
		Short: "Tune LAS_MQ's thresholds and queue weights on the past, validate on the future",
		Long: `tune searches LAS_MQ's parameters (number of queues k, first threshold
alpha0, step p, queue-weight decay) by simulating candidates on the first part
of the log (--split, by submit time) and validates the best on the rest,
against Hu et al.'s trace-simulation default (LAS_MQ, IEEE TCC 2019: k=10,
alpha0=1, p=10) and Fair (weighted PS).

The search starts from a guess read off the size distribution, runs a
log-spaced grid with about 60% of --budget, then a multi-start coordinate
search on the log scale; candidates run in parallel and the result does not
depend on the number of cores. The tuning window is scored in --blocks
independent blocks (see the README). Every tuned configuration is re-run at
±20% load on the validation window.`,
		Example: `  schedplan tune
  schedplan tune --budget 1000 --objective p99 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if p := strings.ToLower(policy); p != "las_mq" {
				return fmt.Errorf("--policy %q: only las_mq can be tuned on the fluid core; H-PFSP's FAIR_LIMIT and COSHH's k need the task-level core, which schedplan does not have yet", policy)
			}
			obj, err := pipeline.ParseObjective(objective)
			if err != nil {
				return fmt.Errorf("--objective: %w", err)
			}
			if budget < 1 || budget > pipeline.MaxBudget {
				return fmt.Errorf("--budget %d: want 1 to %d candidates", budget, pipeline.MaxBudget)
			}
			sj, err := wf.load(&tf)
			if err != nil {
				return err
			}
			if sj.splitErr != nil {
				return sj.splitErr
			}
			if blocks < 1 || 2*blocks > sj.split.TuneJobs {
				return fmt.Errorf("--blocks %d: the tuning window has %d jobs: want 1 to %d blocks of two jobs or more", blocks, sj.split.TuneJobs, sj.split.TuneJobs/2)
			}
			source := sj.sized.jobs.Source
			bar := a.newProgress("tune", budget)
			rep, err := pipeline.TuneLASMQWindows(cmd.Context(), sj.jobs, sj.capacity, sj.split, pipeline.TuneOptions{
				Budget: budget, Objective: obj, Blocks: blocks, Progress: bar.set,
			})
			bar.finish()
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), struct {
					Trace string `json:"trace"`
					*pipeline.TuneReport
				}{source, rep})
			}
			printTune(cmd.OutOrStdout(), source, rep)
			return nil
		},
	}
	tf.register(cmd)
	wf.register(cmd, "all")
	cmd.Flags().MarkHidden("window") // tune uses both windows
	f := cmd.Flags()
	f.StringVar(&policy, "policy", "las_mq", "policy to tune (las_mq)")
	f.IntVar(&budget, "budget", d.Budget, "candidate configurations to simulate")
	f.StringVar(&objective, "objective", string(d.Objective), "what to minimise: mean (ties: p99 slowdown), p99, or mix (mean and p99 relative to the first guess)")
	f.IntVar(&blocks, "blocks", d.Blocks, "independent blocks the tuning window is simulated in (1: whole)")
	f.BoolVar(&asJSON, "json", false, "print JSON (with every candidate and the sensitivity curves)")
	return cmd
}

func printTune(out io.Writer, source string, rep *pipeline.TuneReport) {
	s := rep.Split
	fmt.Fprintf(out, "trace %s: tuning window %d jobs (submit %g..%g s), validation window %d jobs (%g..%g s)\n",
		source, s.TuneJobs, s.TuneSpan[0], s.TuneSpan[1], s.ValidJobs, s.ValidSpan[0], s.ValidSpan[1])
	r := rep.Result
	fmt.Fprintf(out, "searched %d candidates (objective %s); first guess from sizes: %v\n", len(r.Evaluated), r.Objective, r.FirstGuess)
	fmt.Fprintf(out, "best: %v\n  thresholds %s\n  weights    %s\n  policy     %s\n\n",
		rep.Best, fmtList(rep.Best.Thresholds()), fmtList(rep.Best.Weights()), rep.Best.Spec())
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "configuration\ttune mean\ttune p99\tvalidate mean\tvalidate p99\tvalidate p99 slowdown\t")
	for _, c := range rep.Compare {
		fmt.Fprintf(tw, "%s\t%.4g\t%.4g\t%.4g\t%.4g\t%.4g\t\n", c.Name, c.Tune.Mean, c.Tune.P99, c.Validate.Mean, c.Validate.P99, c.Validate.P99Slowdown)
	}
	tw.Flush()
	verdict := "beats"
	if rep.Improvement <= 0 {
		verdict = "does NOT beat"
	}
	fmt.Fprintf(out, "\non the validation window the tuned configuration %s the best baseline (Hu et al.'s default, fair) by %.1f%% in mean response\n\n", verdict, 100*rep.Improvement)
	tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "robustness (validation window)\tload ×\tmean\tp99\t")
	for _, rr := range rep.Robustness {
		fmt.Fprintf(tw, "%s\t%.2g\t%.4g\t%.4g\t\n", rr.Name, rr.LoadFactor, rr.Score.Mean, rr.Score.P99)
	}
	tw.Flush()
	fmt.Fprintln(out, "\nsensitivity (tuning window, other parameters at the best point):")
	for _, e := range r.VsAlpha0 {
		fmt.Fprintf(out, "  alpha0 %-10.4g mean %.4g\n", e.Params.Alpha0, e.Score.Mean)
	}
	for _, e := range r.VsK {
		fmt.Fprintf(out, "  k %-15d mean %.4g\n", e.Params.K, e.Score.Mean)
	}
}

func fmtList(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = fmt.Sprintf("%.4g", x)
	}
	return "[" + strings.Join(parts, " ") + "]"
}
