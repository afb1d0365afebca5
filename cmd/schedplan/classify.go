package main

import (
	"fmt"
	"io"
	"log/slog"
	"strings"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/pipeline"
	"github.com/spf13/cobra"
)

func newClassifyCmd(a *app) *cobra.Command {
	var (
		tf                                 traceFlags
		kFlag, features, scaling, initName string
		featureSet                         string
		clusterPath, out, jobsOut          string
		kMin, kMax, restarts               int
		seed                               uint64
		force, asJSON                      bool
		holdout                            float64
	)
	cmd := &cobra.Command{
		Use:   "classify",
		Short: "Classify jobs with k-means: COSHH's primary and secondary classes with α and μ",
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
			k, err := classify.ParseK(kFlag)
			if err != nil {
				return fmt.Errorf("--k: %w", err)
			}
			feats, err := classify.ParseFeatures(features)
			if err != nil {
				return fmt.Errorf("--features: %w", err)
			}
			set, err := classify.ParseFeatureSet(featureSet)
			if err != nil {
				return fmt.Errorf("--feature-set: %w", err)
			}
			method, perFeature, err := classify.ParseScaling(scaling)
			if err != nil {
				return fmt.Errorf("--scaling: %w", err)
			}
			init, err := classify.ParseInit(initName)
			if err != nil {
				return fmt.Errorf("--init: %w", err)
			}
			switch {
			case restarts < 1:
				return fmt.Errorf("--restarts: %d, want at least 1", restarts)
			case kMin < 1 || kMax < kMin:
				return fmt.Errorf("--k-min %d, --k-max %d: want 1 ≤ k-min ≤ k-max", kMin, kMax)
			case holdout != 0 && !(holdout > 0 && holdout < 1):
				return fmt.Errorf("--holdout: %v is not a fraction in (0, 1)", holdout)
			}
			for _, o := range []string{out, jobsOut} {
				if _, err := checkOut(o, force); err != nil {
					return err
				}
			}
			spec, err := cluster.LoadSpec(clusterPath)
			if err != nil {
				return fmt.Errorf("--cluster: %w", err)
			}
			s, err := tf.readSized()
			if err != nil {
				return err
			}
			j, sizes := s.jobs, s.containerSeconds(spec)
			opt := classify.Options{K: k, KMin: kMin, KMax: kMax, Features: feats, FeatureSet: set, Scaling: method, FeatureScaling: perFeature, Init: init, Restarts: restarts, Seed: seed,
				OnK: func(s classify.KScore) {
					slog.Debug("k-means", "k", s.K, "inertia", s.Inertia, "silhouette", s.Silhouette)
				}}
			primary, secondary, err := classify.COSHH(j, sizes, spec, opt)
			if err != nil {
				return err
			}
			rep := classifyReport{Trace: j.Source, Cluster: spec.Name, Jobs: j.Len(), Primary: primary, Secondary: secondary}
			if s := secondary.Span; s > 0 {
				rep.ArrivalRate = float64(j.Len()) / s
			}
			if holdout > 0 {
				if rep.HoldOut, err = classify.HoldOutPredictor(j, sizes, spec, holdout, opt); err != nil {
					return fmt.Errorf("--holdout: %w", err)
				}
			}
			for _, o := range []struct {
				path string
				t    *data.Table
			}{{out, classify.Table(primary, secondary)}, {jobsOut, classify.JobsTable(j, primary, secondary)}} {
				if o.path != "" {
					if err := data.WriteTableFile(o.path, force, o.t); err != nil {
						return err
					}
					rep.Wrote = append(rep.Wrote, o.path)
				}
			}
			w := cmd.OutOrStdout()
			if asJSON {
				return writeJSON(w, rep)
			}
			printClassify(w, &rep)
			return nil
		},
	}
	tf.register(cmd)
	f := cmd.Flags()
	f.StringVar(&kFlag, "k", "auto", "number of classes: auto (best silhouette over --k-min..--k-max), users (one per user, COSHH's rule) or N")
	f.IntVar(&kMin, "k-min", 2, "smallest k tried by --k auto")
	f.IntVar(&kMax, "k-max", 12, "largest k tried by --k auto")
	f.StringVar(&featureSet, "feature-set", "paper", "features when --features is not given: paper (Rasooli and Down §3.1: priority, execution rate per machine type, user arrival rate) or size (the log's size, bytes and task-seconds columns)")
	f.StringVar(&features, "features", "", "comma-separated features ("+strings.Join(classify.AllFeatures, ", ")+"); default: all the log has for every job")
	f.StringVar(&scaling, "scaling", "auto", "feature scaling: log (log1p then z-score), z, none, or auto (log for heavy-tailed features, z for priority); per feature as size=z,priority=none, after an optional method for all")
	f.StringVar(&initName, "init", "k-means++", "k-means seeding: k-means++, greedy (2+ln k candidates per step, the best kept) or uniform")
	f.IntVar(&restarts, "restarts", 10, "k-means restarts (run in parallel; the least inertia is kept)")
	f.Uint64Var(&seed, "seed", 0, "random seed (results do not depend on the number of cores)")
	f.StringVar(&clusterPath, "cluster", "default", `cluster spec (YAML) for min shares and μ; "default" is the six-resource cluster of Rasooli and Down's COSHH (Table 3)`)
	f.StringVar(&out, "out", "", "write the classes table (.parquet, .arrow, .csv or .tsv)")
	f.StringVar(&jobsOut, "jobs-out", "", "write every job's class in each classification (.parquet, .arrow, .csv or .tsv)")
	f.BoolVar(&force, "force", false, "overwrite existing output files")
	f.BoolVar(&asJSON, "json", false, "print JSON instead of tables")
	f.Float64Var(&holdout, "holdout", 0, "measure the class-based size predictor: train on this fraction of the jobs by submit time (e.g. 0.7), test on the rest")
	return cmd
}

// classifyReport is what `schedplan classify` prints.
type classifyReport struct {
	Trace       string                  `json:"trace"`
	Cluster     string                  `json:"cluster"`
	Jobs        int                     `json:"jobs"`
	ArrivalRate float64                 `json:"arrival_rate_per_s"`
	Primary     *classify.Result        `json:"primary"`
	Secondary   *classify.Result        `json:"secondary"`
	HoldOut     *classify.HoldOutResult `json:"size_predictor,omitempty"`
	Wrote       []string                `json:"wrote,omitempty"`
}

func printClassify(w io.Writer, rep *classifyReport) {
	fmt.Fprintf(w, "trace %s: %d jobs, arrival rate %.4g jobs/s; cluster %s\n", pipeline.Printable(rep.Trace), rep.Jobs, rep.ArrivalRate, rep.Cluster)
	for _, r := range []*classify.Result{rep.Primary, rep.Secondary} {
		fmt.Fprintln(w)
		r.WriteText(w)
	}
	if rep.HoldOut != nil {
		fmt.Fprintln(w)
		rep.HoldOut.WriteText(w)
	}
	for _, p := range rep.Wrote {
		fmt.Fprintf(w, "wrote %s\n", p)
	}
}
