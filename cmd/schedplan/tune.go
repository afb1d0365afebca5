package main

import (
	"encoding/json"
	"fmt"
	"io"
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
		tf        traceFlags
		wf        windowFlags
		policy    string
		budget    int
		objective string
		blocks    int
		asJSON    bool
	)
	cmd := &cobra.Command{
		Use:   "tune",
		Short: "Tune LAS_MQ's thresholds and queue weights on the past, validate on the future",
		Long: `tune searches LAS_MQ's parameters (number of queues k, first threshold
alpha0, step p, queue-weight decay) by simulating candidates on the first part
of the log (--split, by submit time) and validates the best on the rest,
against the paper's default (k=10, alpha0=100, p=10) and Fair (weighted PS).

The search starts from a guess read off the size distribution, runs a
log-spaced grid with about 60% of --budget, then a multi-start coordinate
search on the log scale; candidates run in parallel and the result does not
depend on the number of cores. The tuning window is scored in --blocks
independent blocks (see the README). Every tuned configuration is re-run at
±20% load on the validation window.`,
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
			bar := newProgress("tune", budget)
			rep, err := pipeline.TuneLASMQWindows(jobs, wf.capacity, split, pipeline.TuneOptions{
				Budget: budget, Objective: obj, Blocks: blocks, Progress: bar.set,
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
	f.StringVar(&objective, "objective", "mean", "what to minimise: mean (ties: p99 slowdown), p99, or mix (mean and p99 relative to the first guess)")
	f.IntVar(&blocks, "blocks", 4, "independent blocks the tuning window is simulated in (1: whole)")
	f.BoolVar(&asJSON, "json", false, "print JSON (with every candidate and the sensitivity curves)")
	rootCmd.AddCommand(cmd)
}

func printTune(out io.Writer, source string, rep *pipeline.TuneReport) {
	s := rep.Split
	fmt.Fprintf(out, "trace %s: tuning window %d jobs (submit %g..%g s), validation window %d jobs (%g..%g s)\n",
		source, s.TuneJobs, s.TuneSpan[0], s.TuneSpan[1], s.ValidJobs, s.ValidSpan[0], s.ValidSpan[1])
	r := rep.Result
	fmt.Fprintf(out, "searched %d candidates (objective %s); first guess from sizes: %v\n", len(r.Evaluated), r.Objective, r.FirstGuess)
	fmt.Fprintf(out, "best: %v\n  thresholds %s\n  weights    %s\n  policy     %s\n\n",
		rep.Best, fmtList(rep.Best.Thresholds()), fmtList(rep.Best.Weights()), rep.Best.Spec())
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "configuration\ttune mean\ttune p99\tvalidate mean\tvalidate p99\tvalidate p99 slowdown\t")
	for _, c := range rep.Compare {
		fmt.Fprintf(tw, "%s\t%.4g\t%.4g\t%.4g\t%.4g\t%.4g\t\n", c.Name, c.Tune.Mean, c.Tune.P99, c.Validate.Mean, c.Validate.P99, c.Validate.P99Slowdown)
	}
	tw.Flush()
	verdict := "beats"
	if rep.Improvement <= 0 {
		verdict = "does NOT beat"
	}
	fmt.Fprintf(out, "\non the validation window the tuned configuration %s the best baseline (paper default, fair) by %.1f%% in mean response\n\n", verdict, 100*rep.Improvement)
	tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "robustness (validation window)\tload ×\tmean\tp99\t")
	for _, rr := range rep.Robustness {
		fmt.Fprintf(tw, "%s\t%.2g\t%.4g\t%.4g\t\n", rr.Name, rr.LoadFactor, rr.Score.Mean, rr.Score.P99)
	}
	tw.Flush()
	fmt.Fprintln(out, "\nsensitivity (tuning window, other parameters at the best point):")
	for _, e := range r.VsAlpha0 {
		fmt.Fprintf(out, "  alpha0 %-10.4g mean %.4g\n", e.Params.Alpha0, e.Score.Mean)
	}
	for _, e := range r.VsK {
		fmt.Fprintf(out, "  k %-15d mean %.4g\n", e.Params.K, e.Score.Mean)
	}
}

func fmtList(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = fmt.Sprintf("%.4g", x)
	}
	return "[" + strings.Join(parts, " ") + "]"
}
