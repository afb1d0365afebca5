package main

import (
	"encoding/json"
	"errors"
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

func init() {
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
		Long: `capacity classifies the jobs (seed 003's primary classification: jobs of users
with min_share > 0; and the secondary one: all jobs), then solves the COSHH
LP for each: the largest λ such that the cluster sustains λ × today's arrival
rates, the allocation δ of every machine type to the classes, the suggested
classes of every type (SC_t = {i : δ_it > 0}) and the load each type carries.

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
			j, sizes, err := tf.readClusterSized(spec)
			if err != nil {
				return err
			}
			primary, secondary, err := classify.COSHH(j, sizes, spec, classify.Options{K: k, Seed: seed})
			if err != nil {
				return err
			}
			opt := lp.COSHHOptions{Solver: solver}
			rep := capacityReport{Trace: j.Source, Cluster: spec.Name, Jobs: j.Len()}
			for _, res := range []*classify.Result{primary, secondary} {
				o := opt
				if mpsPath != "" {
					o.MPSFile = mpsName(mpsPath, res.Name)
				}
				cr, err := capacityFor(res, spec, o, whatIfs, target)
				if err != nil {
					return fmt.Errorf("%s classification: %w", res.Name, err)
				}
				rep.Classifications = append(rep.Classifications, cr)
			}
			out := cmd.OutOrStdout()
			if asJSON {
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				return enc.Encode(rep)
			}
			printCapacity(out, &rep)
			if mpsPath != "" {
				for _, cr := range rep.Classifications {
					if cr.MPSFile != "" {
						fmt.Fprintf(out, "wrote %s (%s LP, MPS)\n", cr.MPSFile, cr.Name)
					}
				}
			}
			return nil
		},
	}
	tf.register(cmd)
	f := cmd.Flags()
	f.StringVar(&clusterPath, "cluster", "default", `cluster spec (YAML); "default" is the six-resource cluster of seed 003 Table 3`)
	f.StringVar(&solverName, "solver", "", "LP solver: clp (default when built with cgo) or gonum")
	f.StringArrayVar(&whatIfs, "what-if", nil, "machine changes applied together, e.g. R1=+10,R2=-1 (repeatable)")
	f.Float64Var(&target, "target", 0, "λ target: how many machines of each type alone reach it")
	f.BoolVar(&asJSON, "json", false, "print JSON instead of tables")
	f.StringVar(&mpsPath, "mps", "", "write each LP (full textbook form) as MPS (needs CLP): FILE.primary.mps and FILE.secondary.mps")
	f.StringVar(&kFlag, "k", "auto", "number of job classes: auto (best silhouette), users (one per user, COSHH's rule) or N")
	f.Uint64Var(&seed, "seed", 0, "k-means seed")
	rootCmd.AddCommand(cmd)
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
	Trace           string              `json:"trace"`
	Cluster         string              `json:"cluster"`
	Jobs            int                 `json:"jobs"`
	Classifications []capacityOfClasses `json:"classifications"`
}

type capacityClass struct {
	Name     string    `json:"name"`
	Label    string    `json:"label"`
	Jobs     int       `json:"jobs"`
	Alpha    float64   `json:"alpha_per_s"`
	MeanSize float64   `json:"mean_size"`
	Mu       []float64 `json:"mu_per_s"`
	// Delta is the fraction of each machine type allocated to the class.
	Delta []float64 `json:"delta"`
}

type capacityType struct {
	Name        string   `json:"name"`
	Count       float64  `json:"count"`
	Suggested   []string `json:"suggested_classes"`
	Allocated   float64  `json:"allocated"`
	Utilisation float64  `json:"utilisation"`
	Throughput  float64  `json:"throughput_per_s"`
	Marginal    float64  `json:"dlambda_per_machine"`
}

type capacityWhatIf struct {
	Change string  `json:"change"`
	Lambda float64 `json:"lambda"`
	Ratio  float64 `json:"ratio"` // λ / base λ
	Note   string  `json:"note,omitempty"`
}

type capacityTarget struct {
	Type      string  `json:"type"`
	Reachable bool    `json:"reachable"`
	Limit     float64 `json:"limit_lambda"` // λ with unlimited machines of the type (+Inf as 1e308 in JSON: see LimitText)
	LimitText string  `json:"limit"`
	Count     float64 `json:"machines,omitempty"`
	Change    float64 `json:"change,omitempty"`
	Lambda    float64 `json:"lambda,omitempty"`
}

type capacityOfClasses struct {
	Name string `json:"name"`
	// Reason says why there is no LP (no classes).
	Reason     string           `json:"reason,omitempty"`
	Jobs       int              `json:"jobs"`
	K          int              `json:"k"`
	Features   []string         `json:"features,omitempty"`
	Lambda     float64          `json:"lambda"`
	TotalAlpha float64          `json:"total_alpha_per_s"`
	Classes    []capacityClass  `json:"classes,omitempty"`
	Types      []capacityType   `json:"types,omitempty"`
	WhatIfs    []capacityWhatIf `json:"what_if,omitempty"`
	Target     float64          `json:"target,omitempty"`
	Targets    []capacityTarget `json:"targets,omitempty"`
	Messages   []string         `json:"messages,omitempty"`
	Solver     string           `json:"solver,omitempty"`
	Method     string           `json:"method,omitempty"`
	Rounds     int              `json:"rounds,omitempty"`
	Bound      float64          `json:"dual_bound,omitempty"`
	Columns    int              `json:"columns,omitempty"`
	MPSFile    string           `json:"mps_file,omitempty"`
}

// capacityFor solves the LP of one classification with its what-ifs and
// targets.
func capacityFor(res *classify.Result, spec *cluster.Spec, opt lp.COSHHOptions, whatIfs []string, target float64) (capacityOfClasses, error) {
	cr := capacityOfClasses{Name: res.Name, Reason: res.Reason, Jobs: res.Jobs(), K: res.K, Features: res.Features}
	cr.Messages = append(cr.Messages, res.Warnings...)
	if len(res.Classes) == 0 {
		if cr.Reason == "" {
			cr.Reason = "the classification has no classes"
		}
		return cr, nil
	}
	p, err := pipeline.COSHHProblem(res, spec)
	if err != nil {
		return cr, err
	}
	sol, err := lp.SolveCOSHH(p, opt)
	if errors.Is(err, lp.ErrNoDemand) {
		cr.Reason = err.Error()
		return cr, nil
	}
	if err != nil {
		return cr, err
	}
	cr.MPSFile = opt.MPSFile
	cr.Lambda = sol.Lambda
	cr.Messages = append(cr.Messages, sol.Messages...)
	cr.Solver, cr.Method, cr.Rounds, cr.Columns = string(sol.Solver), sol.Method.String(), sol.Rounds, sol.Columns
	if !math.IsInf(sol.Bound, 0) {
		cr.Bound = sol.Bound
	}
	for i, c := range res.Classes {
		cr.TotalAlpha += c.Alpha
		cr.Classes = append(cr.Classes, capacityClass{
			Name: p.ClassNames[i], Label: c.Label, Jobs: c.Count, Alpha: c.Alpha,
			MeanSize: c.MeanSize, Mu: c.Mu, Delta: sol.Delta[i],
		})
	}
	for t, tl := range sol.Types {
		ct := capacityType{Name: tl.Name, Count: tl.Count, Allocated: tl.Allocated,
			Utilisation: tl.Utilisation, Throughput: tl.Throughput, Marginal: tl.Marginal}
		for _, i := range sol.Suggested[t] {
			ct.Suggested = append(ct.Suggested, p.ClassNames[i])
		}
		cr.Types = append(cr.Types, ct)
	}
	if sol.Lambda == 0 {
		// Nothing to plan: a class cannot run anywhere (said in Messages).
		return cr, nil
	}
	var scenarios [][]lp.Change
	for t := range p.TypeNames {
		scenarios = append(scenarios, []lp.Change{{Type: t, Delta: 1}})
		if p.Counts[t] >= 1 {
			scenarios = append(scenarios, []lp.Change{{Type: t, Delta: -1}})
		}
	}
	for _, w := range whatIfs {
		cs, err := lp.ParseChanges(p, w)
		if err != nil {
			return cr, fmt.Errorf("--what-if: %w", err)
		}
		scenarios = append(scenarios, cs)
	}
	opt.MPSFile = ""
	for _, cs := range scenarios {
		wi, err := lp.WhatIf(p, cs, opt)
		if err != nil {
			return cr, fmt.Errorf("--what-if %s: %w", lp.FormatChanges(p, cs), err)
		}
		cr.WhatIfs = append(cr.WhatIfs, capacityWhatIf{Change: lp.FormatChanges(p, cs), Lambda: wi.Lambda, Ratio: wi.Lambda / sol.Lambda, Note: wi.Note})
	}
	if target > 0 {
		cr.Target = target
		for t := range p.TypeNames {
			tr, err := lp.MachinesForTarget(p, t, target, opt)
			if err != nil {
				return cr, fmt.Errorf("--target: %w", err)
			}
			ct := capacityTarget{Type: p.TypeNames[t], Reachable: tr.Reachable, Limit: tr.Limit, LimitText: fmtLambda(tr.Limit)}
			if math.IsInf(tr.Limit, 1) {
				ct.Limit = math.MaxFloat64
			}
			if tr.Reachable {
				ct.Count, ct.Change, ct.Lambda = tr.Count, tr.Change, tr.Lambda
			}
			cr.Targets = append(cr.Targets, ct)
		}
	}
	return cr, nil
}

func fmtLambda(v float64) string {
	if math.IsInf(v, 1) {
		return "unbounded"
	}
	return fmt.Sprintf("%.4g", v)
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
