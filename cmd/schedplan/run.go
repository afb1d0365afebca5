package main

import (
	"fmt"
	"io"
	"log/slog"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/lp"
	"github.com/schedplan/schedplan/pipeline"
	"github.com/spf13/cobra"
)

func init() {
	var (
		tf        traceFlags
		clusterP  string
		out       string
		force     bool
		split     float64
		capacity  float64
		kFlag     string
		solverF   string
		whatIfs   []string
		budget    int
		objective string
		constrain string
		folds     int
		blocks    int
		current   string
		baselines string
		sigmas    string
		runs      int
		seed      uint64
		require   bool
		contMB    int
	)
	def := pipeline.DefaultRunConfig()
	cmd := &cobra.Command{
		Use:   "run",
		Short: "The whole pipeline: from a job log to validated scheduler configurations, results and a report",
		Long: `run reads a job log and runs every stage into an output directory:

  ingest → classify (k-means, COSHH classes) → capacity (COSHH LP, what-ifs)
  → tune (LAS_MQ on the first part of the log) → bounds (validation window)
  → emit (schedplan.yaml, capacity-scheduler.xml, fair-scheduler.xml)
  → validate (every configuration on the rest of the log, with estimation
    errors and at other loads) → report (summary.json, report.html)

A stage whose inputs and parameters have not changed since the last run into
the same directory is skipped; every file is written whole (temporary name,
then rename), so an interrupted run leaves no partial file and the next run
resumes. A directory schedplan did not write, or a file whose inputs changed,
is not overwritten without --force.`,
		Example: `  schedplan run                                  # the embedded trace into ./schedplan-out
  schedplan run --trace jobs.parquet --cluster cluster.yaml --out out/
  schedplan run --require-improvement --quiet --log-format json   # in a pipeline`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg := def
			cfg.Trace, cfg.Cluster, cfg.Split, cfg.Capacity = tf.trace, clusterP, split, capacity
			cfg.Sizes = tf.sizeOptions()
			cfg.Read = data.ReadOptions{Format: data.Format(tf.format), Strict: tf.strict, Warn: func(m string) { slog.Warn(m) }}
			if tf.mapping != "" {
				m, err := data.ParseMapping(tf.mapping)
				if err != nil {
					return fmt.Errorf("--map: %w", err)
				}
				cfg.Read.Map = m
			}
			var err error
			if cfg.K, err = classify.ParseK(kFlag); err != nil {
				return fmt.Errorf("--k: %w", err)
			}
			if cfg.Solver, err = lp.ParseSolver(solverF); err != nil {
				return fmt.Errorf("--solver: %w", err)
			}
			if cfg.Objective, err = pipeline.ParseObjective(objective); err != nil {
				return fmt.Errorf("--objective: %w", err)
			}
			if _, err := pipeline.ParseConstraints(constrain); err != nil {
				return fmt.Errorf("--constraint: %w", err)
			}
			if folds < 1 {
				return fmt.Errorf("--folds %d: need at least 1", folds)
			}
			cfg.Constraints, cfg.Folds = constrain, folds
			cfg.WhatIfs, cfg.Budget, cfg.Blocks, cfg.Current, cfg.Runs, cfg.Seed, cfg.ContainerMB = whatIfs, budget, blocks, current, runs, seed, contMB
			if cfg.Baselines, err = parsePolicies(baselines); err != nil {
				return fmt.Errorf("--baselines: %w", err)
			}
			if cfg.Sigmas, err = parseFloats("--sigmas", sigmas); err != nil {
				return err
			}
			for _, s := range cfg.Sigmas {
				if s < 0 {
					return fmt.Errorf("--sigmas: σ = %v is negative", s)
				}
			}
			t0 := time.Now()
			in, err := pipeline.Prepare(cfg)
			if err != nil {
				return err
			}
			bar := newProgress("run", 1)
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
			res, err := pipeline.Run(in, r)
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
	f.StringVar(&clusterP, "cluster", "default", `cluster spec (YAML), or "default" (seed 003's six-resource cluster)`)
	f.StringVarP(&out, "out", "o", "schedplan-out", "output directory")
	f.BoolVar(&force, "force", false, "write into a directory schedplan did not create, and overwrite files whose inputs changed")
	f.Float64Var(&split, "split", def.Split, "fraction of the jobs (by submit time) that tune; the rest validate")
	f.Float64Var(&capacity, "capacity", def.Capacity, "fluid server capacity C")
	f.StringVar(&kFlag, "k", "auto", "classes: auto (silhouette), users, or a number")
	f.StringVar(&solverF, "solver", "auto", "LP solver: clp, gonum or auto")
	f.StringArrayVar(&whatIfs, "what-if", nil, "capacity what-if, e.g. R2=+10,R5=-1 (repeatable)")
	f.IntVar(&budget, "budget", def.Budget, "LAS_MQ candidates to simulate when tuning")
	f.StringVar(&objective, "objective", string(def.Objective), "tuning objective: mean, p99, mix, slowdown, p99-slowdown or missed")
	f.StringVar(&constrain, "constraint", def.Constraints, `tuning constraints, e.g. "p99-slowdown<=current,missed<=current+0.01", or "none"`)
	f.IntVar(&folds, "folds", def.Folds, "rolling-origin folds of the tuning window")
	f.IntVar(&blocks, "blocks", def.Blocks, "no longer used: the tuning window is scored in --folds folds")
	_ = f.MarkDeprecated("blocks", "the tuning window is scored in rolling-origin folds (--folds)")
	f.StringVar(&current, "current", def.Current, "the scheduler the cluster runs today (policy spec)")
	f.StringVar(&baselines, "baselines", strings.Join(def.Baselines, ","), "policies validated beside the tuned configuration")
	f.StringVar(&sigmas, "sigmas", "0,0.25,0.5,1", "log-normal σ the size-based policies are validated with")
	f.IntVar(&runs, "runs", def.Runs, "runs per σ > 0")
	f.Uint64Var(&seed, "seed", def.Seed, "random seed of every stochastic stage")
	f.BoolVar(&require, "require-improvement", false, "exit with status 3 when the tuned configuration does not beat --current")
	f.IntVar(&contMB, "container-mb", def.ContainerMB, "memory of one container, for fair-scheduler.xml's minResources")
	rootCmd.AddCommand(cmd)
}

func printRun(w io.Writer, dir string, res *pipeline.RunResult, took time.Duration) {
	fmt.Fprintf(w, "trace %s: %d jobs; tuned on %d, validated on %d\n", res.Trace, res.Workload.Jobs, res.Split.TuneJobs, res.Split.ValidJobs)
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
	fmt.Fprintf(w, "\n%s\n", pipeline.Verdict(res))
	fmt.Fprintf(w, "wrote %s/{%s} in %.1f s\n", strings.TrimRight(dir, "/"), strings.Join(res.Files, ","), took.Seconds())
}
