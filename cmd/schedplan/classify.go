package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/spf13/cobra"
)

func init() {
	var (
		tf          traceFlags
		kFlag       string
		kMin, kMax  int
		features    string
		featureSet  string
		scaling     string
		restarts    int
		initName    string
		seed        uint64
		clusterPath string
		out         string
		jobsOut     string
		force       bool
		asJSON      bool
		holdout     float64
	)
	cmd := &cobra.Command{
		Use:   "classify",
		Short: "Classify jobs with k-means: COSHH's primary and secondary classes with α and μ",
		Long: `classify groups the jobs of a log into classes of "common jobs" with k-means
(k-means++ seeding, restarts in parallel, the run of least inertia kept) on
scaled job features, as COSHH does (seed 003 §3.1): a primary classification
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

--holdout F also measures the class-based size predictor: classes fitted on
the first F of the jobs by submit time, using only what is known at submission
(input bytes, task counts, priority), predict the sizes of the rest.`,
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
			if restarts < 1 {
				return fmt.Errorf("--restarts: %d, want at least 1", restarts)
			}
			if kMin < 1 || kMax < kMin {
				return fmt.Errorf("--k-min %d, --k-max %d: want 1 ≤ k-min ≤ k-max", kMin, kMax)
			}
			if holdout != 0 && !(holdout > 0 && holdout < 1) {
				return fmt.Errorf("--holdout: %v is not a fraction in (0, 1)", holdout)
			}
			for _, o := range []struct{ flag, path string }{{"--out", out}, {"--jobs-out", jobsOut}} {
				if o.path != "" {
					if _, err := data.FormatOf(o.path); err != nil {
						return fmt.Errorf("%s: %w", o.flag, err)
					}
				}
			}
			spec, err := cluster.LoadSpec(clusterPath)
			if err != nil {
				return fmt.Errorf("--cluster: %w", err)
			}
			j, sizes, err := tf.readClusterSized(spec)
			if err != nil {
				return err
			}
			opt := classify.Options{K: k, KMin: kMin, KMax: kMax, Features: feats, FeatureSet: set, Scaling: method, FeatureScaling: perFeature, Init: init, Restarts: restarts, Seed: seed,
				OnK: func(s classify.KScore) {
					slog.Debug("k-means", "k", s.K, "inertia", s.Inertia, "silhouette", s.Silhouette)
				}}
			primary, secondary, err := classify.COSHH(j, sizes, spec, opt)
			if err != nil {
				return err
			}
			// Warnings travel in the results: "note:" lines in the text,
			// "warnings" in the JSON.
			rep := classifyReport{Trace: j.Source, Cluster: spec.Name, Jobs: j.Len(), Primary: primary, Secondary: secondary}
			if s := secondary.Span; s > 0 {
				rep.ArrivalRate = float64(j.Len()) / s
			}
			if holdout > 0 {
				rep.HoldOut, err = holdOutPredictor(j, sizes, spec, holdout, opt)
				if err != nil {
					return fmt.Errorf("--holdout: %w", err)
				}
			}
			if out != "" {
				if err := data.WriteTableFile(out, force, classify.Table(primary, secondary)); err != nil {
					return fmt.Errorf("--out: %w", err)
				}
				rep.Wrote = append(rep.Wrote, out)
			}
			if jobsOut != "" {
				if err := data.WriteTableFile(jobsOut, force, classify.JobsTable(j, primary, secondary)); err != nil {
					return fmt.Errorf("--jobs-out: %w", err)
				}
				rep.Wrote = append(rep.Wrote, jobsOut)
			}
			w := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(w)
				enc.SetIndent("", "  ")
				return enc.Encode(rep)
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
	f.StringVar(&features, "features", "", "comma-separated features ("+strings.Join(classify.AllFeatures, ", ")+"); default: all the log has for every job")
	f.StringVar(&featureSet, "feature-set", "paper", "features when --features is not given: paper (seed 003 §3.1: priority, execution rate per machine type, user arrival rate) or size (the log's size, bytes, task-seconds … columns)")
	f.StringVar(&scaling, "scaling", "auto", "feature scaling: log (log1p then z-score), z, none, or auto (log for heavy-tailed features, z for priority); per feature as size=z,priority=none, after an optional method for all")
	f.StringVar(&initName, "init", "k-means++", "k-means seeding: k-means++, greedy (2+ln k candidates per step, the best kept) or uniform")
	f.IntVar(&restarts, "restarts", 10, "k-means restarts (run in parallel; the least inertia is kept)")
	f.Uint64Var(&seed, "seed", 0, "random seed (results do not depend on the number of cores)")
	f.StringVar(&clusterPath, "cluster", "default", `cluster spec (YAML) for min shares and μ; "default" is the six-resource cluster of seed 003 Table 3`)
	f.StringVar(&out, "out", "", "write the classes table (.parquet, .arrow, .csv or .tsv)")
	f.StringVar(&jobsOut, "jobs-out", "", "write every job's class in each classification (.parquet, .arrow, .csv or .tsv)")
	f.BoolVar(&force, "force", false, "overwrite existing output files")
	f.BoolVar(&asJSON, "json", false, "print JSON instead of tables")
	f.Float64Var(&holdout, "holdout", 0, "measure the class-based size predictor: train on this fraction of the jobs by submit time (e.g. 0.7), test on the rest")
	rootCmd.AddCommand(cmd)
}

// classifyReport is what `schedplan classify` prints.
type classifyReport struct {
	Trace       string           `json:"trace"`
	Cluster     string           `json:"cluster"`
	Jobs        int              `json:"jobs"`
	ArrivalRate float64          `json:"arrival_rate_per_s"`
	Primary     *classify.Result `json:"primary"`
	Secondary   *classify.Result `json:"secondary"`
	HoldOut     *holdOutReport   `json:"size_predictor,omitempty"`
	Wrote       []string         `json:"wrote,omitempty"`
}

// holdOutReport is the class-based size predictor measured on held-out jobs.
type holdOutReport struct {
	TrainFraction float64                      `json:"train_fraction"`
	Features      []string                     `json:"features"`
	K             int                          `json:"k"`
	TrainJobs     int                          `json:"train_jobs"`
	TestJobs      int                          `json:"test_jobs"`
	Errors        map[string]predictionErrJSON `json:"errors"`
	order         []string
}

// predictionErrJSON is estimate.PredictionError with NaN as null.
type predictionErrJSON struct {
	Jobs          int      `json:"jobs"`
	Skipped       int      `json:"skipped"`
	MedianAbsRel  *float64 `json:"median_abs_rel_error"`
	MeanAbsRel    *float64 `json:"mean_abs_rel_error"`
	MedianAbsLog  *float64 `json:"median_abs_log_error"`
	MeanAbsLog    *float64 `json:"mean_abs_log_error"`
	RMSLog        *float64 `json:"rms_log_error"`
	WithinFactor2 *float64 `json:"within_factor_2"`
	MeanSignedLog *float64 `json:"mean_log_bias"`
}

func finiteOrNil(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}

func toErrJSON(e estimate.PredictionError) predictionErrJSON {
	return predictionErrJSON{e.Jobs, e.Skipped, finiteOrNil(e.MedianAbsRel), finiteOrNil(e.MeanAbsRel),
		finiteOrNil(e.MedianAbsLog), finiteOrNil(e.MeanAbsLog), finiteOrNil(e.RMSLog),
		finiteOrNil(e.WithinFactor2), finiteOrNil(e.MeanSignedLog)}
}

// holdOutPredictor fits classes on the first frac of the jobs by submit time
// with the submit-time features only, assigns the other jobs to the nearest
// class and measures the class-based size predictor on them.
func holdOutPredictor(j *data.Jobs, sizes []float64, spec *cluster.Spec, frac float64, opt classify.Options) (*holdOutReport, error) {
	train, test, err := estimate.SplitBySubmit(j.Submit, frac)
	if err != nil {
		return nil, err
	}
	feats, _ := classify.DefaultFeatures(j, sizes, nil, classify.SubmitFeatures)
	if len(feats) == 0 {
		return nil, fmt.Errorf("%s: the log has none of the features known at submission (%s) for every job",
			j.Source, strings.Join(classify.SubmitFeatures, ", "))
	}
	opt.Features = feats
	if opt.K == classify.KUsers {
		opt.K = classify.KAuto
	}
	r, err := classify.ClassifyRows(j, sizes, spec, train, opt)
	if err != nil {
		return nil, err
	}
	testClass, err := r.PredictRows(j, sizes, test)
	if err != nil {
		return nil, err
	}
	h, err := estimate.EvaluateClassPredictor(sizes, train, test, r.Assign, testClass, r.K)
	if err != nil {
		return nil, err
	}
	rep := &holdOutReport{TrainFraction: frac, Features: feats, K: r.K, TrainJobs: h.Train, TestJobs: h.Test,
		Errors: map[string]predictionErrJSON{}}
	for _, e := range []struct {
		name string
		e    estimate.PredictionError
	}{{"class mean", h.ClassMean}, {"class median", h.ClassMedian}, {"global mean", h.GlobalMean}, {"global median", h.GlobalMed}} {
		rep.Errors[strings.ReplaceAll(e.name, " ", "_")] = toErrJSON(e.e)
		rep.order = append(rep.order, e.name)
	}
	return rep, nil
}

func printClassify(w io.Writer, rep *classifyReport) {
	fmt.Fprintf(w, "trace %s: %d jobs, arrival rate %.4g jobs/s; cluster %s\n", rep.Trace, rep.Jobs, rep.ArrivalRate, rep.Cluster)
	for _, r := range []*classify.Result{rep.Primary, rep.Secondary} {
		fmt.Fprintln(w)
		printClasses(w, r)
		for _, warning := range r.Warnings {
			fmt.Fprintf(w, "note: %s\n", warning)
		}
	}
	if h := rep.HoldOut; h != nil {
		fmt.Fprintf(w, "\nclass-based size predictor: classes fitted on the first %.0f%% of the jobs by submit time (%d jobs; features %s; k = %d), tested on the other %d\n",
			100*h.TrainFraction, h.TrainJobs, strings.Join(h.Features, ","), h.K, h.TestJobs)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "predictor\tmedian |rel err|\tmean |rel err|\tmedian |log err|\tmean |log err|\trms log err\twithin ×2\t")
		for _, name := range h.order {
			e := h.Errors[strings.ReplaceAll(name, " ", "_")]
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", name, fmtPtr(e.MedianAbsRel, "%.3g"), fmtPtr(e.MeanAbsRel, "%.3g"),
				fmtPtr(e.MedianAbsLog, "%.3g"), fmtPtr(e.MeanAbsLog, "%.3g"), fmtPtr(e.RMSLog, "%.3g"), fmtPct(e.WithinFactor2))
		}
		tw.Flush()
	}
	for _, p := range rep.Wrote {
		fmt.Fprintf(w, "wrote %s\n", p)
	}
}

func fmtPtr(v *float64, format string) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf(format, *v)
}

func fmtPct(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100**v)
}

func printClasses(w io.Writer, r *classify.Result) {
	if len(r.Classes) == 0 {
		fmt.Fprintf(w, "%s classification: no classes: %s\n", r.Name, r.Reason)
		return
	}
	methods := make([]string, len(r.Features))
	for q, f := range r.Features {
		methods[q] = f + ":" + string(r.Scaling.Methods[q])
	}
	how := ""
	switch r.KRule {
	case "auto":
		if len(r.Curve) == 0 {
			how = "automatic, without a search: too few distinct jobs"
		} else {
			how = fmt.Sprintf("best silhouette over k = %d..%d; elbow of inertia at k = %d", r.Curve[0].K, r.Curve[len(r.Curve)-1].K, r.Elbow)
		}
	case "users":
		how = "one per user"
	default:
		how = "fixed"
	}
	fmt.Fprintf(w, "%s classification: %d jobs, k = %d (%s), silhouette %s, inertia %.4g, %d iterations\n",
		r.Name, r.Jobs(), r.K, how, fmtFloat(r.Silhouette, "%.3f"), r.Inertia, r.Iterations)
	fmt.Fprintf(w, "features: %s\n", strings.Join(methods, " "))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "class\tlabel\tjobs\tshare\tduration (s)\tinput\tshuffle\toutput\tmap time\treduce time\tmean size\tα (jobs/s)\t"
	for _, n := range r.Resources {
		head += "μ " + n + "\t"
	}
	fmt.Fprintln(tw, head)
	for _, c := range r.Classes {
		fmt.Fprintf(tw, "%d\t%s\t%d\t%.1f%%\t%s\t%s\t%s\t%s\t%s\t%s\t%.4g\t%s\t", c.ID, c.Label, c.Count, 100*c.Share,
			fmtFloat(c.MeanDuration, "%.0f"), fmtBytes(c.MeanInputBytes), fmtBytes(c.MeanShuffleBytes), fmtBytes(c.MeanOutputBytes),
			fmtFloat(c.MeanMapTaskSeconds, "%.0f"), fmtFloat(c.MeanReduceTaskSeconds, "%.0f"), c.MeanSize, fmtFloat(c.Alpha, "%.4g"))
		for _, m := range c.Mu {
			fmt.Fprintf(tw, "%.3g\t", m)
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
	if len(r.Curve) > 0 {
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "k\tinertia\tsilhouette\t\t")
		for _, s := range r.Curve {
			mark := ""
			if s.K == r.K {
				mark = "chosen"
			}
			if s.K == r.Elbow {
				mark = strings.TrimPrefix(mark+", elbow", ", ")
			}
			fmt.Fprintf(tw, "%d\t%.4g\t%s\t%s\t\n", s.K, s.Inertia, fmtFloat(s.Silhouette, "%.3f"), mark)
		}
		tw.Flush()
	}
}

func fmtFloat(v float64, format string) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "-"
	}
	return fmt.Sprintf(format, v)
}

// fmtBytes prints a byte count with a decimal unit, as seed 003 Table 4 does
// (21KB, 1.9GB, 7.6TB).
func fmtBytes(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	units := []string{"B", "KB", "MB", "GB", "TB", "PB", "EB"}
	u := 0
	for math.Abs(v) >= 1000 && u < len(units)-1 {
		v /= 1000
		u++
	}
	if u == 0 {
		return fmt.Sprintf("%.0f%s", v, units[u])
	}
	if v < 10 {
		return fmt.Sprintf("%.1f%s", v, units[u])
	}
	return fmt.Sprintf("%.0f%s", v, units[u])
}
