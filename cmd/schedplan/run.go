package main

import (
	"strings"
	"time"

	"github.com/schedplan/schedplan/pipeline"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/tunedeploy"
	"github.com/spf13/cobra"
)

func newRunCmd(a *app) *cobra.Command {
	cfg := inputs.DefaultRunConfig()
	cfg.AsGiven = true // the flags below start from the defaults: a zero is what the user typed
	var (
		tf                   traceFlags
		lf                   logFlags
		out                  string
		req                  pipeline.RunRequest
		force, require, wait bool
	)
	cmd := &cobra.Command{
		Use:   "run",
		Short: "From a job log to scheduler files to deploy (or a reason to keep yours), checked by replay, with a report",
		Long: `run reads a job log and runs every stage into an output directory:

  ingest → classify (k-means, COSHH classes) → capacity (COSHH LP, what-ifs)
  → tune (LAS_MQ on the first part of the log) → bounds (validation window)
  → tune-deploy (every deployable candidate — keep the current scheduler,
    fair-scheduler.xml pools, capacity-scheduler.xml LAS_MQ levels — rendered
    and replayed at task level on chunks of the tuning window × task seeds,
    paired against the current scheduler; then the verdict: the best one
    against the current scheduler on the validation window, deploy only when
    the bootstrap interval of the paired difference lies below 0)
  → emit (schedplan.yaml, capacity-scheduler.xml, fair-scheduler.xml; the
    chosen candidate's, marked KEEP when the verdict is to keep)
  → validate (every configuration on the rest of the log, with estimation
    errors and at other loads) → report (summary.json, report.html)

Every flag is checked, and the run's work and memory estimated, before the
first stage. Simulations run at the cluster spec's capacity in the units of
the sizes (see simulate); an offered load above 1 is reported as OVERLOADED.
A stage whose inputs (log, cluster spec, parameters, the stages it reads) are
unchanged since the last run into the directory is skipped; files are written
whole (temporary name, then rename), so an interrupted run (Ctrl-C included)
leaves no partial file and the next run resumes. A directory schedplan did
not write, or a file whose inputs changed, is not overwritten without --force,
and an earlier run's file that no longer matches (results.parquet after
--results none, a later stage's after --until, a part of a stage run whole) is
not left beside the new ones: the run is refused, or with --force removed.

Past one machine (deploy/ has the Kubernetes manifests): --until STAGE stops
after a stage; --stage tune|validate --shard i/N computes shard i of N of the
stage into parts/ (the stages before must have run; shards of one directory
run side by side); --stage tune|validate --merge checks the parts (a missing,
repeated or foreign one is an error) and completes the stage. Give every step
the same flags: the outputs are byte for byte those of one run.`,
		Example: `  schedplan run                                  # the embedded trace into ./schedplan-out
  schedplan run --trace jobs.parquet --cluster cluster.yaml --out out/
  schedplan run --require-improvement --quiet --log-format json   # in a pipeline
  schedplan run --until capacity && schedplan run --stage tune --shard 0/4   # one shard`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			cfg.Trace, cfg.Sizes.DN, cfg.Sizes.Load = tf.trace, tf.dn, tf.load
			if cfg.Read, err = tf.readOptions(); err != nil {
				return err
			}
			lf.options(&cfg.Read)
			cfg.Tasks = lf.tasks
			if err := req.Configure(&cfg); err != nil {
				return err
			}
			t0 := time.Now()
			in, err := pipeline.Prepare(cfg)
			if err != nil {
				return err
			}
			bar := a.newProgress("run", 1)
			rp := &pipeline.Reporter{Bar: bar.setETA}
			r := &pipeline.Runner{Dir: out, Force: force, Wait: wait, Hook: rp.Hook, Progress: rp.Progress}
			res, err := pipeline.Run(cmd.Context(), in, r)
			bar.finish()
			if err != nil || res == nil { // nil: part of the run (--until, --stage)
				return err
			}
			res.WriteText(cmd.OutOrStdout(), out, time.Since(t0))
			if require {
				if err := res.RequireImprovement(); err != nil {
					return &exitError{code: 3, err: err}
				}
			}
			return nil
		},
	}
	tf.register(cmd)
	f := cmd.Flags()
	lf.register(f, "a tasks table (.parquet, .arrow or .csv) of the log's jobs: task counts and task-seconds come from it, and the task-level validation runs its tasks as they ran")
	f.StringVar(&cfg.Cluster, "cluster", cfg.Cluster, `cluster spec (YAML); "auto" (the default) a homogeneous cluster sized for offered load 0.7 on the log's measured work (on sizes normalised to a load: as many containers as Table 3); "coshh-table3" the six-resource cluster of Rasooli and Down's COSHH (Table 3)`)
	f.StringVarP(&out, "out", "o", "schedplan-out", "output directory")
	f.BoolVar(&wait, "wait", false, "wait for another run that holds the output directory, instead of failing at once")
	f.BoolVar(&force, "force", false, "write into a directory schedplan did not create, overwrite files whose inputs changed, and remove an earlier run's outputs that no longer match")
	f.Float64Var(&cfg.Split, "split", cfg.Split, "fraction of the jobs (by submit time) that tune; the rest validate")
	f.Float64Var(&cfg.Capacity, "capacity", cfg.Capacity, "fluid server capacity in the units of the sizes (0: from the cluster spec, see simulate)")
	f.StringVar(&req.K, "k", "auto", "classes: auto (silhouette), users, or a number")
	f.StringVar(&req.Solver, "solver", string(cfg.Solver), "LP solver: clp, gonum or auto")
	f.StringArrayVar(&cfg.WhatIfs, "what-if", nil, "capacity what-if, e.g. R2=+10,R5=-1 (repeatable)")
	f.IntVar(&cfg.Budget, "budget", cfg.Budget, "LAS_MQ candidates to simulate when tuning")
	f.StringVar(&req.Objective, "objective", string(cfg.Objective), "tuning objective: mean, p99, mix, slowdown, p99-slowdown or missed")
	f.StringVar(&cfg.Constraints, "constraint", cfg.Constraints, `tuning constraints, e.g. "p99-slowdown<=current,missed<=current+0.01", or "none"; the default is the fluid tuner's, and the task-level deploy tuner and verdict then use "`+tunedeploy.DeployDefaultConstraints+`" (a value of your own applies to both)`)
	f.IntVar(&cfg.Folds, "folds", cfg.Folds, "rolling-origin folds of the tuning window")
	f.IntVar(&cfg.Blocks, "blocks", cfg.Blocks, "no longer used: the tuning window is scored in --folds folds")
	deprecate(f, "blocks", "the tuning window is scored in rolling-origin folds (--folds)")
	f.StringVar(&cfg.Current, "current", cfg.Current, "the scheduler the cluster runs today (policy spec)")
	f.StringVar(&req.Baselines, "baselines", strings.Join(cfg.Baselines, ","), "policies validated beside the tuned configuration, the current scheduler and Hu et al.'s LAS_MQ default")
	f.StringVar(&req.Sigmas, "sigmas", pipeline.FormatFloats(cfg.Sigmas), "log-normal σ the policies that use size estimates are validated with")
	f.StringVar(&req.LoadFactors, "load-factors", pipeline.FormatFloats(cfg.LoadFactors), "factors the validation window's load is scaled by for the load curve")
	f.IntVar(&cfg.Runs, "runs", cfg.Runs, "runs per σ > 0")
	f.StringVar(&cfg.Results, "results", cfg.Results, "validation jobs whose rows results.parquet holds: all, sample:N (by job-id hash, the same jobs for every configuration), none, or auto (all up to 1,000,000 validation jobs, else sample:1000000)")
	f.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "random seed of every stochastic stage")
	f.StringVar(&cfg.CurrentConfig, "current-config", "", "the cluster's own fair-scheduler.xml or capacity-scheduler.xml: the current scheduler of the task-level validation (default: Fair, one pool per user)")
	f.BoolVar(&require, "require-improvement", false, "exit with status 3 unless the verdict is deploy: the chosen file beats the current scheduler (--current-config, else Fair with one pool per user) at task level on the validation window with its whole interval below 0")
	f.IntVar(&cfg.ContainerMB, "container-mb", cfg.ContainerMB, "memory of one container, for fair-scheduler.xml's minResources")
	f.StringVar(&cfg.Stages.Until, "until", "", "stop after this stage: "+strings.Join(pipeline.StageNames, ", "))
	f.StringVar(&cfg.Stages.Stage, "stage", "", "the stage --shard or --merge is for: tune or validate")
	f.StringVar(&cfg.Stages.Shard, "shard", "", "compute only shard i of N of --stage (i/N, 0-based) into parts/")
	f.BoolVar(&cfg.Stages.Merge, "merge", false, "complete --stage from its shards' parts")
	f.StringVar(&cfg.MemoryLimit, "memory-limit", inputs.MemoryLimitAuto, "Go's soft memory limit for the run: a size (3.5GiB, 4000MB), none, or auto (GOMEMLIMIT, else 1.3 × (250 MB + 105 B per job) and at least 512 MiB, at most 90% of the RAM or cgroup limit)")
	f.BoolVar(&cfg.NoLimits, "i-know", false, "run even when the estimated work or memory is beyond the limits")
	return cmd
}
