package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/pipeline"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/spf13/cobra"
)

func newClassifyCmd(a *app) *cobra.Command {
	var (
		tf                        traceFlags
		cfg                       pipeline.ClassifyConfig
		clusterPath, out, jobsOut string
		force, asJSON             bool
	)
	cmd := &cobra.Command{
		Use:   "classify",
		Short: "Group the jobs into classes by size and shape with k-means, with each class's arrival rate and speed per machine type (COSHH's classes)",
		Long: `classify groups the jobs into classes of "common jobs" with k-means
(k-means++ seeding, parallel restarts, least inertia kept) on scaled
features, as Rasooli and Down's COSHH does (§3.1): a primary classification
of the jobs of users with min_share > 0 in the cluster spec, and a secondary
classification of all jobs.

Per class it prints the seed 003 Table 4 layout — jobs, mean duration, input,
shuffle and output bytes, map and reduce task-seconds — with the mean job
size, the arrival rate α (jobs/s over the log's span) and, per machine type
of the cluster spec, μ (jobs/s one machine serves: 1 / the class's mean
execution time, time = size / (slots × exec_rate) + (input + shuffle bytes) /
retrieve_rate, 0 where a task's data exceed the type's memory), and a label
from the byte ratios (small, load, summary, aggregate, expand, transform).

k is fixed (--k N), one per user (--k users, COSHH's rule) or chosen over
--k-min..--k-max by the silhouette (on at most 5,000 sampled jobs), with the
elbow of the inertia curve shown beside it. Features default to seed 003
§3.1's (--feature-set paper): priority, the execution rate on every machine
type and the user's arrival rate; --feature-set size (or --features) uses the
log's own columns instead, every one the log has for every job by default.
Heavy-tailed features are log-scaled then z-scored.

--holdout F measures the class-based size predictor: classes fitted on the
first F of the jobs by submit time, on what is known at submission (input
bytes, task counts, priority), predict the sizes of the rest.`,
		Example: `  schedplan classify                                # embedded trace, k by silhouette
  schedplan classify --k 10 --out classes.parquet --jobs-out job-classes.parquet
  schedplan classify --trace jobs.parquet --k users --cluster cluster.yaml --json
  schedplan classify --features size,input_bytes --scaling z --holdout 0.7`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			opt, err := cfg.Options()
			if err != nil {
				return err
			}
			outs := []struct{ flag, path string }{{"--out", out}, {"--jobs-out", jobsOut}}
			for _, o := range outs {
				if o.path == "" {
					continue
				}
				if _, err := data.FormatOf(o.path); err != nil {
					return fmt.Errorf("%s: %w", o.flag, err)
				}
				if err := pipeline.CheckOutPath(o.flag, o.path, force); err != nil {
					return err
				}
			}
			spec, s, err := tf.readWithSpec(clusterPath)
			if err != nil {
				return err
			}
			rep, err := cfg.Classify(s.Jobs, s.ContainerSeconds(spec), spec, opt)
			if err != nil {
				return err
			}
			for _, o := range outs {
				if o.path != "" {
					if err := pipeline.MakeOutDir(o.flag, filepath.Dir(o.path)); err != nil {
						return err
					}
				}
			}
			if err := rep.WriteTables(out, jobsOut, force); err != nil {
				return err
			}
			return printReport(cmd.OutOrStdout(), asJSON, rep)
		},
	}
	tf.register(cmd)
	f := cmd.Flags()
	f.StringVar(&cfg.K, "k", "auto", "number of classes: auto (best silhouette over --k-min..--k-max), users (one per user, COSHH's rule) or N")
	f.IntVar(&cfg.KMin, "k-min", 2, "smallest k tried by --k auto")
	f.IntVar(&cfg.KMax, "k-max", 12, "largest k tried by --k auto")
	f.StringVar(&cfg.FeatureSet, "feature-set", "paper", "features when --features is not given: paper (Rasooli and Down §3.1: priority, execution rate per machine type, user arrival rate) or size (the log's size, bytes and task-seconds columns)")
	f.StringVar(&cfg.Features, "features", "", "comma-separated features ("+strings.Join(classify.AllFeatures, ", ")+"); default: all the log has for every job")
	f.StringVar(&cfg.Scaling, "scaling", "auto", "feature scaling: log (log1p then z-score), z, none, or auto (log for heavy-tailed features, z for priority); per feature as size=z,priority=none, after an optional method for all")
	f.StringVar(&cfg.Init, "init", "k-means++", "k-means seeding: k-means++, greedy (2+ln k candidates per step, the best kept) or uniform")
	f.IntVar(&cfg.Restarts, "restarts", 10, "k-means restarts (run in parallel; the least inertia is kept)")
	f.Uint64Var(&cfg.Seed, "seed", 0, "random seed (results do not depend on the number of cores)")
	f.StringVar(&clusterPath, "cluster", inputs.DefaultRunConfig().Cluster, `cluster spec (YAML); "auto" (the default) a homogeneous cluster sized for offered load 0.7 on the log's measured work (on sizes normalised to a load: as many containers as Table 3); "coshh-table3" the six-resource cluster of Rasooli and Down's COSHH (Table 3)`)
	f.StringVar(&out, "out", "", "write the classes table (.parquet, .arrow, .csv or .tsv)")
	f.StringVar(&jobsOut, "jobs-out", "", "write every job's class in each classification (.parquet, .arrow, .csv or .tsv)")
	f.BoolVar(&force, "force", false, "overwrite existing output files")
	f.BoolVar(&asJSON, "json", false, "print JSON instead of tables")
	f.Float64Var(&cfg.Holdout, "holdout", 0, "measure the class-based size predictor: train on this fraction of the jobs by submit time (e.g. 0.7), test on the rest")
	return cmd
}
