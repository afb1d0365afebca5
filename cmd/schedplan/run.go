package main

import (
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/lp"
	"github.com/schedplan/schedplan/pipeline"
	"github.com/spf13/cobra"
)

func newRunCmd(a *app) *cobra.Command {
	cfg := pipeline.DefaultRunConfig()
	cfg.AsGiven = true // the flags below start from the defaults: a zero is what the user typed
	var (
		tf        traceFlags
		out       string
		force     bool
		kFlag     string
		solver    string
		objective string
		baselines string
		sigmas    string
		loads     string
		require   bool
	)
	fmtList := func(v []float64) string {
		s := make([]string, len(v))
		for i, x := range v {
			s[i] = strconv.FormatFloat(x, 'g', -1, 64)
		}
		return strings.Join(s, ",")
	}
	cmd := &cobra.Command{
		Use:   "run",
		Short: "The whole pipeline: from a job log to validated scheduler configurations, results and a report",
		Long: `run reads a job log and runs every stage into an output directory:

  ingest → classify (k-means, COSHH classes) → capacity (COSHH LP, what-ifs)
  → tune (LAS_MQ on the first part of the log) → bounds (validation window)
  → emit (schedplan.yaml, capacity-scheduler.xml, fair-scheduler.xml)
  → validate (every configuration on the rest of the log, with estimation
    errors and at other loads) → report (summary.json, report.html)

Every flag is checked, and the work and memory the run will take estimated,
before the first stage runs. Simulations run at the capacity of the cluster
spec in the units of the sizes (see simulate); a log whose offered load
there exceeds 1 is reported as OVERLOADED.

A stage whose inputs (the log, the cluster spec, its parameters, the stages
it reads) have not changed since the last run into the same directory is
skipped; every file is written whole (temporary name, then rename), so an
interrupted run (Ctrl-C included) leaves no partial file and the next run
resumes. A directory schedplan did not write, or a file whose inputs
changed, is not overwritten without --force.`,
		Example: `  schedplan run                                  # the embedded trace into ./schedplan-out
  schedplan run --trace jobs.parquet --cluster cluster.yaml --out out/
  schedplan run --require-improvement --quiet --log-format json   # in a pipeline`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			cfg.Trace, cfg.Sizes.DN, cfg.Sizes.Load = tf.trace, tf.dn, tf.load
			if cfg.Read, err = tf.readOptions(); err != nil {
				return err
			}
			if cfg.K, err = classify.ParseK(kFlag); err != nil {
				return fmt.Errorf("--k: %w", err)
			}
			if cfg.Solver, err = lp.ParseSolver(solver); err != nil {
				return fmt.Errorf("--solver: %w", err)
			}
			cfg.Objective = pipeline.Objective(objective)
			if cfg.Baselines, err = parsePolicies("baselines", baselines); err != nil {
				return err
			}
			if cfg.Sigmas, err = parseFloats("sigmas", sigmas); err != nil {
				return err
			}
			if cfg.LoadFactors, err = parseFloats("load-factors", loads); err != nil {
				return err
			}
			if out == "" {
				return fmt.Errorf("--out: %w", pipeline.ErrNoOutputDir)
			}
			t0 := time.Now()
			in, err := pipeline.Prepare(cfg)
			if err != nil {
				return err
			}
			bar := a.newProgress("run", 1)
			r := &pipeline.Runner{Dir: out, Force: force,
				Hook: func(stage string, ev pipeline.StageEvent, err error) {
					switch ev {
					case pipeline.StageStart:
						bar.describe(stage)
						slog.Info("stage started", "stage", stage)
					case pipeline.StageSkip:
						slog.Info("stage up to date", "stage", stage)
					}
				},
				Progress: func(stage string, done, total int) { bar.set(done, total) },
			}
			res, err := pipeline.Run(cmd.Context(), in, r)
			bar.finish()
			if err != nil {
				return err
			}
			printRun(cmd.OutOrStdout(), out, res, time.Since(t0))
			if require && !res.Improved {
				return &exitError{code: 3, err: fmt.Errorf("--require-improvement: the tuned configuration (%s) does not beat the current scheduler (%s) on the validation window (%+.1f%%)", res.TunedSpec, res.Current, -100*res.Improvement)}
			}
			return nil
		},
	}
	tf.register(cmd)
	f := cmd.Flags()
	f.StringVar(&cfg.Cluster, "cluster", cfg.Cluster, `cluster spec (YAML), or "default" (the six-resource cluster of Rasooli and Down's COSHH, Table 3)`)
	f.StringVarP(&out, "out", "o", "schedplan-out", "output directory")
	f.BoolVar(&force, "force", false, "write into a directory schedplan did not create, and overwrite files whose inputs changed")
	f.Float64Var(&cfg.Split, "split", cfg.Split, "fraction of the jobs (by submit time) that tune; the rest validate")
	f.Float64Var(&cfg.Capacity, "capacity", cfg.Capacity, "fluid server capacity in the units of the sizes (0: from the cluster spec, see simulate)")
	f.StringVar(&kFlag, "k", "auto", "classes: auto (silhouette), users, or a number")
	f.StringVar(&solver, "solver", string(cfg.Solver), "LP solver: clp, gonum or auto")
	f.StringArrayVar(&cfg.WhatIfs, "what-if", nil, "capacity what-if, e.g. R2=+10,R5=-1 (repeatable)")
	f.IntVar(&cfg.Budget, "budget", cfg.Budget, "LAS_MQ candidates to simulate when tuning")
	f.StringVar(&objective, "objective", string(cfg.Objective), "tuning objective: mean, p99 or mix")
	f.IntVar(&cfg.Blocks, "blocks", cfg.Blocks, "blocks the tuning window is simulated in")
	f.StringVar(&cfg.Current, "current", cfg.Current, "the scheduler the cluster runs today (policy spec)")
	f.StringVar(&baselines, "baselines", strings.Join(cfg.Baselines, ","), "policies validated beside the tuned configuration, the current scheduler and Hu et al.'s LAS_MQ default")
	f.StringVar(&sigmas, "sigmas", fmtList(cfg.Sigmas), "log-normal σ the policies that use size estimates are validated with")
	f.StringVar(&loads, "load-factors", fmtList(cfg.LoadFactors), "factors the validation window's load is scaled by for the load curve")
	f.IntVar(&cfg.Runs, "runs", cfg.Runs, "runs per σ > 0")
	f.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "random seed of every stochastic stage")
	f.BoolVar(&require, "require-improvement", false, "exit with status 3 when the tuned configuration does not beat --current")
	f.IntVar(&cfg.ContainerMB, "container-mb", cfg.ContainerMB, "memory of one container, for fair-scheduler.xml's minResources")
	f.BoolVar(&cfg.NoLimits, "i-know", false, "run even when the estimated work or memory is beyond the limits")
	return cmd
}

func printRun(w io.Writer, dir string, res *pipeline.RunResult, took time.Duration) {
	fmt.Fprintf(w, "trace %s: %d jobs; tuned on %d, validated on %d\n", res.Trace, res.Workload.Jobs, res.Split.TuneJobs, res.Split.ValidJobs)
	fmt.Fprintf(w, "simulated at capacity %g (%s); offered load %s\n", res.Capacity, res.CapacityFrom, fmtPtr(res.OfferedLoad, "%.3g"))
	for _, m := range res.Warnings {
		fmt.Fprintf(w, "WARNING: %s\n", m)
	}
	if len(res.Skipped) > 0 {
		fmt.Fprintf(w, "stages run: %s; up to date: %s\n", strings.Join(res.Ran, ", "), strings.Join(res.Skipped, ", "))
	}
	fmt.Fprintf(w, "capacity: λ = %.4g (the cluster sustains %.3g × today's arrival rates)\n", res.Lambda, res.Lambda)
	fmt.Fprintf(w, "tuned LAS_MQ: %s\n\n", res.TunedSpec)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "validation window\tσ\tmean response (s)\tp99 (s)\tmean slowdown\tp99 slowdown\tgap to SRPT bound\tmissed PS deadlines\t")
	for _, r := range res.Validation {
		if r.Sigma != 0 {
			continue
		}
		fmt.Fprintf(tw, "%s\t%g\t%.4g\t%.4g\t%.4g\t%.4g\t%+.1f%%\t%.0f\t\n", r.Name, r.Sigma, r.Mean, r.P99, r.MeanSlowdown, r.P99Slowdown, 100*r.Gap, r.Missed)
	}
	tw.Flush()
	if res.Improved {
		fmt.Fprintf(w, "\nthe tuned configuration beats the current scheduler (%s) by %.1f%% in mean response\n", res.Current, 100*res.Improvement)
	} else {
		fmt.Fprintf(w, "\nthe tuned configuration does NOT beat the current scheduler (%s): %+.1f%% mean response\n", res.Current, -100*res.Improvement)
	}
	fmt.Fprintf(w, "wrote %s/{%s} in %.1f s\n", strings.TrimRight(dir, "/"), strings.Join(res.Files, ","), took.Seconds())
}
