package main

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/lp"
	"github.com/schedplan/schedplan/pipeline"
	"github.com/spf13/cobra"
)

func newCapacityCmd(a *app) *cobra.Command {
	var (
		tf          traceFlags
		clusterPath string
		solverName  string
		whatIfs     []string
		target      float64
		asJSON      bool
		mpsPath     string
		kFlag       string
		seed        uint64
	)
	cmd := &cobra.Command{
		Use:   "capacity",
		Short: "Solve the COSHH capacity LP: λ, allocation of machine types to job classes, what-ifs",
		Long: `capacity classifies the jobs (Rasooli and Down's COSHH: a primary
classification of the jobs of users with min_share > 0, and a secondary one
of all jobs), then solves the COSHH LP for each: the largest λ such that the
cluster sustains λ × today's arrival rates, the allocation δ of every machine
type to the classes, the suggested classes of every type (SC_t = {i : δ_it >
0}) and the load each type carries.

The what-if table gives λ with one machine more and one less of each type,
and for each --what-if (TYPE=+N or TYPE=-N, comma-separated changes applied
together; repeat the flag for more scenarios). --target gives, for each type
alone, the least number of its machines with λ ≥ the target, or says that no
number of that type can reach it.`,
		Example: `  schedplan capacity                                   # embedded trace, default cluster
  schedplan capacity --cluster cluster.yaml --what-if R2=+10 --what-if R1=-1,R3=+2
  schedplan capacity --target 1.5 --json
  schedplan capacity --solver gonum --mps /tmp/coshh.mps`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			solver, err := lp.ParseSolver(solverName)
			if err != nil {
				return fmt.Errorf("--solver: %w", err)
			}
			if _, err := solver.Resolve(); err != nil {
				return fmt.Errorf("--solver: %w", err)
			}
			if cmd.Flags().Changed("target") && (!(target > 0) || math.IsInf(target, 0)) {
				return fmt.Errorf("--target: λ target must be a positive number, got %v", target)
			}
			k, err := classify.ParseK(kFlag)
			if err != nil {
				return fmt.Errorf("--k: %w", err)
			}
			spec, err := cluster.LoadSpec(clusterPath)
			if err != nil {
				return fmt.Errorf("--cluster: %w", err)
			}
			s, err := tf.readSized()
			if err != nil {
				return err
			}
			primary, secondary, err := classify.COSHH(s.jobs, s.containerSeconds(spec), spec, classify.Options{K: k, Seed: seed})
			if err != nil {
				return err
			}
			rep := capacityReport{Trace: s.jobs.Source, Cluster: spec.Name, Jobs: s.jobs.Len()}
			for _, res := range []*classify.Result{primary, secondary} {
				opt := pipeline.CapacityOptions{Solver: solver, WhatIfs: whatIfs, Target: target}
				if mpsPath != "" {
					opt.MPSFile = mpsName(mpsPath, res.Name)
				}
				a, err := pipeline.PlanCapacity(res, spec, opt)
				if err != nil {
					return fmt.Errorf("%s classification: %w", res.Name, err)
				}
				rep.Classifications = append(rep.Classifications, a)
			}
			out := cmd.OutOrStdout()
			if asJSON {
				return writeJSON(out, rep)
			}
			printCapacity(out, &rep)
			for _, cr := range rep.Classifications {
				if cr.MPSFile != "" {
					fmt.Fprintf(out, "wrote %s (%s LP, MPS)\n", cr.MPSFile, cr.Name)
				}
			}
			return nil
		},
	}
	tf.register(cmd)
	f := cmd.Flags()
	f.StringVar(&clusterPath, "cluster", "default", `cluster spec (YAML); "default" is the six-resource cluster of Rasooli and Down's COSHH (Table 3)`)
	f.StringVar(&solverName, "solver", "", "LP solver: clp (default when built with cgo) or gonum")
	f.StringArrayVar(&whatIfs, "what-if", nil, "machine changes applied together, e.g. R1=+10,R2=-1 (repeatable)")
	f.Float64Var(&target, "target", 0, "λ target: how many machines of each type alone reach it")
	f.BoolVar(&asJSON, "json", false, "print JSON instead of tables")
	f.StringVar(&mpsPath, "mps", "", "write each LP (full textbook form) as MPS (needs CLP): FILE.primary.mps and FILE.secondary.mps")
	f.StringVar(&kFlag, "k", "auto", "number of job classes: auto (best silhouette), users (one per user, COSHH's rule) or N")
	f.Uint64Var(&seed, "seed", 0, "k-means seed")
	return cmd
}

// mpsName inserts the classification's name before the extension:
// coshh.mps → coshh.primary.mps.
func mpsName(path, name string) string {
	ext := filepath.Ext(path)
	if ext == "" {
		ext = ".mps"
	}
	return strings.TrimSuffix(path, filepath.Ext(path)) + "." + name + ext
}

type capacityReport struct {
	Trace           string                       `json:"trace"`
	Cluster         string                       `json:"cluster"`
	Jobs            int                          `json:"jobs"`
	Classifications []*pipeline.CapacityAnalysis `json:"classifications"`
}

func printCapacity(out io.Writer, rep *capacityReport) {
	fmt.Fprintf(out, "trace %s (%d jobs), cluster %s\n", rep.Trace, rep.Jobs, rep.Cluster)
	for _, cr := range rep.Classifications {
		fmt.Fprintf(out, "\n== %s classification", cr.Name)
		if cr.Reason != "" {
			fmt.Fprintf(out, ": no LP: %s\n", cr.Reason)
			continue
		}
		fmt.Fprintf(out, " (%d jobs, k = %d, features %s)\n", cr.Jobs, cr.K, strings.Join(cr.Features, ", "))
		fmt.Fprintf(out, "λ = %.6g: the cluster sustains %.4g × today's arrival rates (Σα = %.4g jobs/s → %.4g jobs/s)\n",
			cr.Lambda, cr.Lambda, cr.TotalAlpha, cr.Lambda*cr.TotalAlpha)
		rounds := "rounds"
		if cr.Rounds == 1 {
			rounds = "round"
		}
		fmt.Fprintf(out, "solved by %s, %s (%d %s, %d δ columns", cr.Solver, cr.Method, cr.Rounds, rounds, cr.Columns)
		if cr.Bound > 0 {
			fmt.Fprintf(out, "; duals certify λ* ≤ %.10g", cr.Bound)
		}
		fmt.Fprintln(out, ")")
		for _, m := range cr.Messages {
			fmt.Fprintf(out, "note: %s\n", m)
		}

		fmt.Fprintln(out)
		tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprint(tw, "class\tlabel\tjobs\tα (jobs/s)\tmean size\t")
		for _, t := range cr.Types {
			fmt.Fprintf(tw, "δ %s\t", t.Name)
		}
		fmt.Fprintln(tw)
		for _, c := range cr.Classes {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%.4g\t%.4g\t", c.Name, c.Label, c.Jobs, c.Alpha, c.MeanSize)
			for _, d := range c.Delta {
				fmt.Fprintf(tw, "%s\t", fmtFraction(d))
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()

		fmt.Fprintln(out)
		tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "type\tmachines\tsuggested classes\tallocated\tbusy at today's rates\tjobs/s\tdλ/machine")
		for _, t := range cr.Types {
			sc := strings.Join(t.Suggested, ", ")
			if sc == "" {
				sc = "-"
			}
			fmt.Fprintf(tw, "%s\t%g\t{%s}\t%.1f%%\t%.1f%%\t%.4g\t%.4g\n", t.Name, t.Count, sc, 100*t.Allocated, 100*t.Utilisation, t.Throughput, t.Marginal)
		}
		tw.Flush()

		if len(cr.WhatIfs) > 0 {
			fmt.Fprintln(out)
			tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "what-if\tλ\tvs today\t")
			for _, w := range cr.WhatIfs {
				fmt.Fprintf(tw, "%s\t%.6g\t%+.2f%%\t%s\n", w.Change, w.Lambda, 100*(w.Ratio-1), w.Note)
			}
			tw.Flush()
		}
		if len(cr.Targets) > 0 {
			fmt.Fprintf(out, "\nto reach λ = %g with one machine type alone:\n", cr.Target)
			tw = tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "type\tmachines\tchange\tλ there\tλ with unlimited machines")
			for _, t := range cr.Targets {
				if !t.Reachable {
					fmt.Fprintf(tw, "%s\tnever\t\t\t%s\n", t.Type, t.LimitText)
					continue
				}
				fmt.Fprintf(tw, "%s\t%g\t%+g\t%.6g\t%s\n", t.Type, t.Count, t.Change, t.Lambda, t.LimitText)
			}
			tw.Flush()
		}
	}
}

func fmtFraction(v float64) string {
	if v == 0 {
		return "0"
	}
	return fmt.Sprintf("%.4f", v)
}
