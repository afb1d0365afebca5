package main

import (
	"fmt"
	"strings"

	"github.com/schedplan/schedplan/pipeline"
	"github.com/spf13/cobra"
)

func newTuneCmd(a *app) *cobra.Command {
	var (
		tf                traceFlags
		wf                windowFlags
		policy, objective string
		budget, blocks    int
		asJSON, iKnow     bool
	)
	d := pipeline.DefaultRunConfig()
	cmd := &cobra.Command{
		Use:   "tune",
		Short: "Tune LAS_MQ's thresholds and queue weights on the past, validate on the future",
		Long: `tune searches LAS_MQ's k, alpha0, p and queue-weight decay by simulating
candidates on the first part of the log (--split, by submit time) and
validates the best on the rest against Hu et al.'s trace-simulation default
(IEEE TCC 2019: k=10, alpha0=1, p=10) and Fair (weighted PS): a guess from
the size distribution, a log-spaced grid with ~60% of --budget, then a
multi-start coordinate search; the result does not depend on the number of
cores. The tuning window is scored in --blocks independent blocks (see the
README); the tuned configuration is re-run at ±20% load.`,
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
			w, err := wf.load(&tf)
			if err != nil {
				return err
			}
			if w.SplitErr != nil {
				return w.SplitErr
			}
			if err := pipeline.CheckBlocks(blocks, w.Split); err != nil {
				return err
			}
			if c := pipeline.TuneCost(budget, w.Split); !iKnow {
				if err := pipeline.CheckCost("tune", c); err != nil {
					return err
				}
			}
			bar := a.newProgress("tune", budget)
			rep, err := pipeline.TuneLASMQWindows(cmd.Context(), w.Jobs, w.Capacity, w.Split, pipeline.TuneOptions{
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
				}{w.Log.Source, rep})
			}
			rep.WriteText(cmd.OutOrStdout(), w.Log.Source)
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
	f.BoolVar(&iKnow, "i-know", false, "run even when the estimated work is beyond the limits")
	f.BoolVar(&asJSON, "json", false, "print JSON (with every candidate and the sensitivity curves)")
	return cmd
}
