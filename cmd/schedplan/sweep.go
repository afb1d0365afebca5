package main

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/sweep"
	"github.com/spf13/cobra"
)

func newSweepCmd(a *app) *cobra.Command {
	var (
		tf                traceFlags
		ef                errorFlags
		req               sweep.SweepRequest
		errKind, clusterP string
		out               string
		capacity          float64
		force             bool
	)
	cmd := &cobra.Command{
		Use:   "sweep",
		Short: "How policies fare as size estimates get worse, load rises or sizes change (Dell'Amico's experiments; shardable)",
		Long: `sweep runs every policy on every setting (estimation error σ, load, d/n) for
--runs runs: one row per (setting, run, policy) with the run's mean, p50,
p90, p99 and max response (s), mean and p99 slowdown, missed PS deadlines,
makespan (s) and utilisation. Settings come from --experiment (Dell'Amico,
EURECOM RR-13-282, §3):
  sigma  σ ∈ {0, 0.125, 0.25, 0.5, 1, 2, 4}, load 0.9, d/n 4
  load   load ∈ {0.1, …, 2}, σ ∈ {0, 0.5}, d/n 4
  dn     d/n ∈ {1, 2, 4, 8, 16}, σ ∈ {0, 0.5}, load 0.9
  all    all three
or from the product of --sigmas, --loads and --dns. Sizes are normalised to
each load (capacity 1); run r draws its errors from PCG(--seed, r); a policy
that uses no size estimates is simulated once per setting.

The units (setting × run) are numbered in a fixed order; --shard i/N runs
the units u with u mod N = i, so N jobs (a Kubernetes Indexed Job) each write
a part, and "schedplan sweep merge" combines them, failing when a part is
missing, repeated or of another sweep. Results do not depend on --workers or
sharding.`,
		Example: `  schedplan sweep --experiment sigma --runs 100 --out sigma.parquet
  schedplan sweep --experiment all --runs 100 --shard 3/8 --out part-3.parquet
  schedplan sweep merge --out sweep.parquet part-*.parquet
  schedplan sweep --sigmas 0,0.5,1 --loads 0.5,0.9 --policy fsp+ps,srpt --out s.csv`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := experiment.CheckWorkers(ef.workers); err != nil {
				return err
			}
			s := &sweep.Sweep{Errors: estimate.ErrorKind(errKind), Runs: ef.runs, Seed: ef.seed, Capacity: capacity}
			fl := cmd.Flags()
			req.Grid = fl.Changed("sigmas") || fl.Changed("loads") || fl.Changed("dns")
			err := req.Configure(s)
			if err != nil {
				return err
			}
			if s.Spec, err = cluster.LoadSpec(clusterP); err != nil {
				return fmt.Errorf("--cluster: %w", err)
			}
			if err := s.Check(); err != nil {
				return err
			}
			if out == "" {
				return fmt.Errorf("--out is required (a .parquet, .arrow or .csv file)")
			}
			format, err := pipeline.CheckRerunOutFile(out, force)
			if err != nil {
				return err
			}
			if s.Jobs, err = tf.read(); err != nil {
				return err
			}
			if err := ef.checkCost("sweep", s.Cost()); err != nil {
				return err
			}
			slog.Info("sweep", "settings", len(s.Settings), "runs", s.Runs, "shard", fmt.Sprintf("%d/%d", s.Shard, s.Shards))
			bar := a.newProgress("sweep", 1)
			t, err := s.Run(cmd.Context(), experiment.RunOptions{Workers: ef.workers, Progress: bar.set})
			bar.finish()
			if err != nil {
				return err
			}
			return writeSweepTable(out, force, t, format, "sweep written")
		},
	}
	tf.register(cmd)
	ef.register(cmd, false)
	f := cmd.Flags()
	f.MarkHidden("load") // sizes are normalised to each setting's load
	f.StringVarP(&req.Policies, "policy", "p", "fifo,ps,srpt,fsp+fifo,fsp+ps", "policies, comma-separated")
	f.StringVar(&req.Preset, "experiment", "sigma", "preset settings: "+strings.Join(sweep.SweepPresetNames, ", "))
	f.StringVar(&req.Sigmas, "sigmas", "0", "error magnitudes, comma-separated (σ, or I with --error uniform)")
	f.StringVar(&req.Loads, "loads", "0.9", "loads, comma-separated")
	f.StringVar(&req.DNs, "dns", "4", "d/n values, comma-separated")
	f.StringVar(&errKind, "error", string(estimate.LogNormal), "error model: lognormal or uniform")
	f.Float64Var(&capacity, "capacity", 0, "server capacity C (0: 1, as sizes are normalised to each load)")
	f.StringVar(&clusterP, "cluster", "default", "cluster spec (YAML) for users' weights")
	f.StringVar(&req.Shard, "shard", "", "run only shard i of N (i/N, 0-based)")
	f.StringVarP(&out, "out", "o", "", "results file (.parquet, .arrow or .csv)")
	f.BoolVar(&force, "force", false, "replace --out when it exists with other contents (the same contents are left as they are: a re-run)")
	cmd.AddCommand(newSweepMergeCmd())
	return cmd
}

func newSweepMergeCmd() *cobra.Command {
	var (
		out   string
		force bool
		wait  time.Duration
	)
	cmd := &cobra.Command{
		Use:   "merge PART...",
		Short: "Combine sweep part files into one table, ordered by unit; fail on a missing, repeated or foreign part",
		Example: `  schedplan sweep merge --out sweep.parquet part-*.parquet
  schedplan sweep merge --wait 2h --out /data/sweep.parquet '/data/sweep/part-*.parquet'`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return fmt.Errorf("--out is required")
			}
			format, err := pipeline.CheckRerunOutFile(out, force)
			if err != nil {
				return err
			}
			if wait < 0 {
				return fmt.Errorf("--wait %v: need a duration ≥ 0", wait)
			}
			t, parts, err := sweep.WaitMergeSweepFiles(cmd.Context(), args, wait, sweep.SweepMergePoll)
			if err != nil {
				return err
			}
			return writeSweepTable(out, force, t, format, "sweep parts merged", "parts", len(parts))
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "", "merged file (.parquet, .arrow or .csv)")
	cmd.Flags().BoolVar(&force, "force", false, "replace --out when it exists with other contents (the same contents are left as they are: a re-run)")
	cmd.Flags().DurationVar(&wait, "wait", 0, "wait up to this long for missing parts (a quoted glob such as 'parts/part-*.parquet' is expanded again at each try), instead of failing at once")
	return cmd
}

// writeSweepTable writes a sweep's (or a merge's) table to out, as a step
// that may run again: the same bytes already there are left as they are,
// other bytes are refused unless force (pipeline.WriteOutRerun).
func writeSweepTable(out string, force bool, t *data.Table, format data.Format, msg string, attrs ...any) error {
	var buf bytes.Buffer
	if err := data.WriteTable(&buf, t, format); err != nil {
		return err
	}
	unchanged, err := pipeline.WriteOutRerun("--out", out, force, buf.Bytes())
	if err != nil {
		return err
	}
	slog.Info(msg, append(attrs, "file", out, "rows", t.Len(), "unchanged", unchanged)...)
	return nil
}
