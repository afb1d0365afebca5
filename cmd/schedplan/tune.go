package main

import (
	"github.com/schedplan/schedplan/pipeline"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
	"github.com/spf13/cobra"
)

func newTuneCmd(a *app) *cobra.Command {
	var (
		tf            traceFlags
		wf            windowFlags
		req           pipeline.TuneRequest
		blocks        int
		asJSON, iKnow bool
	)
	d := inputs.DefaultRunConfig()
	cmd := &cobra.Command{
		Use:   "tune",
		Short: "Tune the multi-level queue's (LAS_MQ) thresholds and weights on the older part of the log, check them on the newer",
		Long: `tune searches LAS_MQ's parameters — number of queues k, first threshold
alpha0, step p, queue-weight decay (0: strict priority) and the order inside
a queue (fifo, ps, or remaining: least estimated remaining work first) — on
the first part of the log (--split, by submit time) and validates the choice
on the rest, which it never sees while choosing.

The tuning window is cut into --folds+1 chunks (cut at busy-period starts
where one is near); every candidate is scored on every chunk, and its fold
score is its improvement over the current scheduler (--current) in the
objective. The choice is the candidate that meets the constraints on every
fold with the best mean fold score, up to one standard error (the steadiest
gain within the noise). Candidates: the current scheduler, plain LAS, PS,
the first guess from the sizes and Hu et al.'s default (k=10, alpha0=1,
p=10); one level in each order; fine levels towards LAS; a space-filling
sequence; then a coordinate search, --budget candidates in all. Orders that
read size estimates are scored under log-normal errors σ = 0, 0.5 and 1 and
count with their worst metrics. Folds larger than 20,000 jobs are scored on
a sample of their busy periods and the shortlist is re-checked whole (on a
sample of 200,000 jobs for a fold larger than that).

--objective: mean, p99 (response), mix, slowdown, p99-slowdown or missed
(share of jobs later than under PS). --constraint: comma-separated
METRIC<=BOUND with BOUND current, current+X, F*current, F*current+X or a
number, or "none"; the default keeps p99 slowdown no worse than the current
scheduler's and the share of missed PS deadlines within 1 point of it.`,
		Example: `  schedplan tune
  schedplan tune --budget 1000 --objective p99 --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opt, err := req.Options()
			if err != nil {
				return err
			}
			w, err := wf.load(&tf)
			if err != nil {
				return err
			}
			if w.SplitErr != nil {
				return w.SplitErr
			}
			if req.HPFSP() {
				return pipeline.TuneHPFSPText(cmd.Context(), cmd.OutOrStdout(), w, req.Seed, opt.Objective, asJSON)
			}
			if c := pipeline.TuneCost(req.Budget, w.Split, opt); !iKnow {
				if err := experiment.CheckCost("tune", c); err != nil {
					return err
				}
			}
			bar := a.newProgress("tune", req.Budget)
			opt.Progress = bar.set
			rep, err := tasklevel.TuneWindow(cmd.Context(), w, opt)
			bar.finish()
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), pipeline.TracedTuneReport{Trace: w.Log.Source, TuneReport: rep})
			}
			rep.WriteText(cmd.OutOrStdout(), w.Log.Source)
			return nil
		},
	}
	tf.register(cmd)
	wf.register(cmd, "all")
	cmd.Flags().MarkHidden("window") // tune uses both windows
	f := cmd.Flags()
	f.StringVar(&req.Policy, "policy", "las_mq", "policy to tune: las_mq, or hpfsp (FAIR_LIMIT and threshold at task level on the --cluster machines)")
	f.IntVar(&req.Budget, "budget", d.Budget, "candidate configurations to simulate")
	f.StringVar(&req.Objective, "objective", string(d.Objective), "what to minimise: mean, p99 (response), mix (mean and p99 relative to the current scheduler), slowdown, p99-slowdown or missed")
	f.StringVar(&req.Constraints, "constraint", d.Constraints, `bounds on the other metrics, e.g. "p99-slowdown<=current,missed<=current+0.01", or "none"`)
	f.StringVar(&req.Current, "current", d.Current, "the scheduler the cluster runs today (policy spec): fold scores are improvements over it")
	f.IntVar(&req.Folds, "folds", d.Folds, "rolling-origin folds of the tuning window")
	f.Uint64Var(&req.Seed, "seed", d.Seed, "seed of the estimate draws, the sampling and the bootstrap")
	f.IntVar(&blocks, "blocks", d.Blocks, "no longer used: the tuning window is scored in --folds folds")
	deprecate(f, "blocks", "the tuning window is scored in rolling-origin folds (--folds)")
	f.BoolVar(&iKnow, "i-know", false, "run even when the estimated work is beyond the limits")
	f.BoolVar(&asJSON, "json", false, "print JSON (with every candidate and the sensitivity curves)")
	return cmd
}
