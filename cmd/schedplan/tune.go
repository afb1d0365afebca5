package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/pipeline"
	"github.com/spf13/cobra"
)

// windowFlags are the flags that place the fluid simulation and the
// tune/validate split.
type windowFlags struct {
	capacity float64
	split    float64
	cluster  string
}

func (w *windowFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.Float64Var(&w.capacity, "capacity", 1, "server capacity C of the fluid model (sizes are in seconds of a capacity-1 server)")
	f.Float64Var(&w.split, "split", 0.7, "fraction of the jobs (by submit time) that tune; the rest validate")
	f.StringVar(&w.cluster, "cluster", "default", `cluster spec (YAML) for users' weights, or "default"`)
}

// load reads the trace and returns its simulation jobs and the split.
func (w *windowFlags) load(tf *traceFlags) ([]sim.Job, pipeline.Split, string, error) {
	spec, err := cluster.LoadSpec(w.cluster)
	if err != nil {
		return nil, pipeline.Split{}, "", err
	}
	j, sizes, err := tf.readSized()
	if err != nil {
		return nil, pipeline.Split{}, "", err
	}
	jobs, err := pipeline.JobsOf(j, sizes, spec)
	if err != nil {
		return nil, pipeline.Split{}, "", err
	}
	split, err := pipeline.SplitByTime(jobs, w.split)
	if err != nil {
		return nil, pipeline.Split{}, "", fmt.Errorf("%s: %w", j.Source, err)
	}
	return jobs, split, j.Source, nil
}

func init() {
	var (
		tf         traceFlags
		wf         windowFlags
		policy     string
		budget     int
		objective  string
		constraint string
		current    string
		folds      int
		seed       uint64
		blocks     int
		asJSON     bool
	)
	cmd := &cobra.Command{
		Use:   "tune",
		Short: "Tune LAS_MQ's thresholds and queue weights on the past, validate on the future",
		Long: `tune searches LAS_MQ's parameters — number of queues k, first threshold
alpha0, step p, queue-weight decay (0: strict priority) and the order inside
a queue (fifo, ps, or remaining: least estimated remaining work first) — on
the first part of the log (--split, by submit time) and validates the choice
on the rest, which it never sees while choosing.

The tuning window is cut into --folds+1 chunks (cut at busy-period starts
where one is near); every candidate is scored on every chunk, and its fold
score is its improvement over the current scheduler (--current) in the
objective. The choice is the candidate that meets the constraints on every
fold with the best mean fold score, up to one standard error (the most
steady gain within the noise). Candidates: the current scheduler, plain
LAS, PS, the first guess from the sizes and the paper default; one level in
each order; fine levels towards LAS; a space-filling sequence; then a
coordinate search, --budget candidates in all. Orders that read size
estimates are scored under log-normal errors σ = 0, 0.5 and 1 and count
with their worst metrics. Folds larger than 10,000 jobs are scored on a
sample of their busy periods and the shortlist is re-checked whole.

--objective: mean, p99 (response), mix, slowdown, p99-slowdown or missed
(share of jobs later than under PS). --constraint: comma-separated
METRIC<=BOUND with BOUND current, current+X, F*current, F*current+X or a
number, or "none"; the default keeps p99 slowdown no worse than the current
scheduler's and the share of missed PS deadlines within 1 point of it.`,
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
			jobs, split, source, err := wf.load(&tf)
			if err != nil {
				return err
			}
			cons, err := pipeline.ParseConstraints(constraint)
			if err != nil {
				return fmt.Errorf("--constraint: %w", err)
			}
			if folds < 1 {
				return fmt.Errorf("--folds %d: need at least 1", folds)
			}
			if _, err := sim.ParsePolicy(current); err != nil {
				return fmt.Errorf("--current: %w", err)
			}
			bar := newProgress("tune", budget)
			rep, err := pipeline.TuneLASMQWindows(jobs, wf.capacity, split, pipeline.TuneOptions{
				Budget: budget, Objective: obj, Constraints: cons, Current: current, Folds: folds, Seed: seed, Progress: bar.set,
			})
			bar.finish()
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(struct {
					Trace string `json:"trace"`
					*pipeline.TuneReport
				}{source, rep})
			}
			printTune(cmd.OutOrStdout(), source, rep)
			return nil
		},
	}
	tf.register(cmd)
	wf.register(cmd)
	f := cmd.Flags()
	f.StringVar(&policy, "policy", "las_mq", "policy to tune (las_mq)")
	f.IntVar(&budget, "budget", 500, "candidate configurations to simulate")
	f.StringVar(&objective, "objective", "mean", "what to minimise: mean, p99 (response), mix (mean and p99 relative to the current scheduler), slowdown, p99-slowdown or missed")
	f.StringVar(&constraint, "constraint", pipeline.DefaultConstraints, `bounds on the other metrics, e.g. "p99-slowdown<=current,missed<=current+0.01", or "none"`)
	f.StringVar(&current, "current", pipeline.FairSpec, "the scheduler the cluster runs today (policy spec): fold scores are improvements over it")
	f.IntVar(&folds, "folds", 5, "rolling-origin folds of the tuning window")
	f.Uint64Var(&seed, "seed", 1, "seed of the estimate draws, the sampling and the bootstrap")
	f.IntVar(&blocks, "blocks", 4, "no longer used: the tuning window is scored in --folds folds")
	_ = f.MarkDeprecated("blocks", "the tuning window is scored in rolling-origin folds (--folds)")
	f.BoolVar(&asJSON, "json", false, "print JSON (with every candidate and the sensitivity curves)")
	rootCmd.AddCommand(cmd)
}

func printTune(out io.Writer, source string, rep *pipeline.TuneReport) {
	s := rep.Split
	fmt.Fprintf(out, "trace %s: tuning window %d jobs (submit %g..%g s), validation window %d jobs (%g..%g s)\n",
		source, s.TuneJobs, s.TuneSpan[0], s.TuneSpan[1], s.ValidJobs, s.ValidSpan[0], s.ValidSpan[1])
	cv := rep.CV
	fmt.Fprintf(out, "objective %s, constraints %s; first guess from sizes: %v\n", cv.Objective, cv.Constraints, rep.Result.FirstGuess)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "fold\tjobs\tsubmit from (s)\tscored jobs\tblocks\tstarts a busy period\t")
	for _, f := range cv.Folds {
		name := fmt.Sprint(f.Index)
		if !slices.Contains(cv.Scored, f.Index) {
			name += " (tuning only)"
		}
		fmt.Fprintf(tw, "%s\t%d\t%g\t%d\t%d\t%v\t\n", name, f.Jobs, f.Span[0], f.Scored, f.Units, f.Exact)
	}
	tw.Flush()
	fmt.Fprintln(out)
	for _, e := range cv.Explanation {
		fmt.Fprintln(out, e)
	}
	fmt.Fprintf(out, "\ndeployed: %v\n  thresholds %s\n  weights    %s\n  policy     %s\n\n",
		rep.Best, fmtList(rep.Best.Thresholds()), fmtList(rep.Best.Weights()), rep.Best.Spec())
	tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "configuration\tfold-mean response (s)\tfold-mean p99 slowdown\tvalidate mean (s)\tvalidate p99 (s)\tvalidate mean slowdown\tvalidate p99 slowdown\tvalidate missed PS deadlines\t")
	for _, c := range rep.Compare {
		fmt.Fprintf(tw, "%s\t%.4g\t%.4g\t%.4g\t%.4g\t%.4g\t%.4g\t%.2f%%\t\n", c.Name, c.Tune.Mean, c.Tune.P99Slowdown, c.Validate.Mean, c.Validate.P99, c.Validate.MeanSlowdown, c.Validate.P99Slowdown, 100*c.Validate.Missed)
	}
	tw.Flush()
	verdict := "beats"
	if rep.Improvement <= 0 {
		verdict = "does NOT beat"
	}
	t := rep.Compare[0].Validate
	fmt.Fprintf(out, "\non the validation window the tuned configuration %s the best baseline (paper default, fair) by %.1f%% in mean response, at p99 slowdown %.4g and mean slowdown %.4g (fair: %.4g and %.4g)\n\n",
		verdict, 100*rep.Improvement, t.P99Slowdown, t.MeanSlowdown, rep.Compare[3].Validate.P99Slowdown, rep.Compare[3].Validate.MeanSlowdown)
	tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "robustness (validation window)\tload ×\tmean (s)\tp99 (s)\tp99 slowdown\t")
	for _, rr := range rep.Robustness {
		fmt.Fprintf(tw, "%s\t%.2g\t%.4g\t%.4g\t%.4g\t\n", rr.Name, rr.LoadFactor, rr.Score.Mean, rr.Score.P99, rr.Score.P99Slowdown)
	}
	tw.Flush()
	fmt.Fprintln(out, "\nsensitivity (fold means, other parameters at the deployed point):")
	for _, e := range rep.Result.VsAlpha0 {
		fmt.Fprintf(out, "  alpha0 %-10.4g mean %.4g s\n", e.Params.Alpha0, e.Score.Mean)
	}
	for _, e := range rep.Result.VsK {
		fmt.Fprintf(out, "  k %-15d mean %.4g s\n", e.Params.K, e.Score.Mean)
	}
}

func fmtList(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = fmt.Sprintf("%.4g", x)
	}
	return "[" + strings.Join(parts, " ") + "]"
}
