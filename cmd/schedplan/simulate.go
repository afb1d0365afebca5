package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"text/tabwriter"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline"
	"github.com/spf13/cobra"
)

// errorFlags are the size-estimation error flags of simulate and sweep.
type errorFlags struct {
	sigma   float64
	uniform float64
	runs    int
	seed    uint64
	workers int
	iKnow   bool
}

func (e *errorFlags) register(cmd *cobra.Command, sigmaFlag bool) {
	f := cmd.Flags()
	if sigmaFlag {
		f.Float64Var(&e.sigma, "sigma", 0, "log-normal size-estimation error: estimate = size·X, X ~ LogN(0, σ²)")
		f.Float64Var(&e.uniform, "uniform", 0, "uniform size-estimation error: estimate = size·(1+E), E ~ U[−I, I], I in [0, 1]")
	}
	f.IntVar(&e.runs, "runs", 1, "independent runs (estimation errors redrawn per run)")
	f.Uint64Var(&e.seed, "seed", pipeline.DefaultRunConfig().Seed, "random seed; run r draws from PCG(seed, r)")
	f.IntVar(&e.workers, "workers", 0, "parallel simulations (default: GOMAXPROCS); results do not depend on it")
	f.BoolVar(&e.iKnow, "i-know", false, "run even when the estimated work or memory is beyond the limits")
}

func (e *errorFlags) model(cmd *cobra.Command) (estimate.ErrorModel, error) {
	sig, uni := cmd.Flags().Changed("sigma"), cmd.Flags().Changed("uniform")
	var m estimate.ErrorModel
	switch {
	case sig && uni:
		return m, errors.New("--sigma and --uniform are exclusive: choose one error model")
	case sig:
		m = estimate.ErrorModel{Kind: estimate.LogNormal, Sigma: e.sigma}
	case uni:
		m = estimate.ErrorModel{Kind: estimate.Uniform, I: e.uniform}
	default:
		m = estimate.ErrorModel{Kind: estimate.Exact}
	}
	if err := m.Validate(); err != nil {
		return m, err
	}
	if e.runs < 1 || e.runs > pipeline.MaxRuns {
		return m, fmt.Errorf("--runs %d: want 1 to %d runs", e.runs, pipeline.MaxRuns)
	}
	return m, nil
}

// checkCost refuses work beyond the limits unless --i-know.
func (e *errorFlags) checkCost(what string, c pipeline.Cost) error {
	if e.iKnow {
		return nil
	}
	return pipeline.CheckCost(what, c)
}

// parsePolicies checks a policy list and returns its specifications.
func parsePolicies(flag, list string) ([]string, error) {
	specs := sim.SplitPolicies(list)
	if len(specs) == 0 {
		return nil, fmt.Errorf("--%s: no policy given", flag)
	}
	for _, s := range specs {
		if _, err := pipeline.Fluid.Policy(s); err != nil {
			return nil, fmt.Errorf("--%s: %w", flag, err)
		}
	}
	return specs, nil
}

// simulateReport is what simulate prints.
type simulateReport struct {
	Trace        string               `json:"trace"`
	Window       string               `json:"window"`
	Jobs         int                  `json:"jobs"`
	Capacity     float64              `json:"capacity"`
	CapacityFrom string               `json:"capacity_from"`
	OfferedLoad  *float64             `json:"offered_load"` // null when undefined (one arrival instant)
	Overloaded   bool                 `json:"overloaded"`
	Warning      string               `json:"warning,omitempty"`
	Errors       string               `json:"estimation_errors"`
	Seed         uint64               `json:"seed"`
	Policies     []pipeline.Aggregate `json:"policies"`
}

func newSimulateCmd(a *app) *cobra.Command {
	var (
		tf       traceFlags
		wf       windowFlags
		ef       errorFlags
		policies string
		bundle   string
		asJSON   bool
		out      string
		force    bool
	)
	cmd := &cobra.Command{
		Use:   "simulate",
		Short: "Simulate scheduling policies on a job log (fluid model) and compare their metrics",
		Long: `simulate runs each policy on the job log in the fluid model of Dell'Amico's
simulator (one server of capacity C, every active job served at a rate the
policy sets), with job sizes as derived from the log (the SWIM bytes rule
with --dn and --load for .tsv traces) and the users' weights of the cluster
spec. The capacity is in the units of the sizes: 1 for sizes normalised to
a load (seconds of the whole cluster), else the cluster spec's containers.
Policies that use size estimates see them exact, or with log-normal
(--sigma) or uniform (--uniform) errors redrawn for each of --runs runs (run
r uses the random stream PCG(--seed, r), the same for every policy).

Policies (--policy, comma-separated; parameters after a colon):
` + policyHelp() + `
The table gives, per policy, metrics averaged over the runs, and the minimum,
median and maximum of the per-run mean response (seconds). Slowdown is
response / (size / C) over jobs of positive size. "missed" is the share of
jobs that finish after their PS completion time (their protective deadline).`,
		Example: `  schedplan simulate --policy fifo,ps,srpt,fsp+ps,las,las_mq
  schedplan simulate --policy fsp+ps,srpt --sigma 0.5 --runs 100 --seed 1
  schedplan simulate --policy las_mq:k=10,alpha0=1,p=10,gps --window validate --json
  schedplan simulate --trace jobs.parquet --cluster cluster.yaml --out results.parquet`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			specs, err := parsePolicies("policy", policies)
			if err != nil {
				return err
			}
			if bundle != "" {
				b, err := pipeline.LoadBundle(bundle)
				if err != nil {
					return fmt.Errorf("--config: %w", err)
				}
				if b.LASMQ == nil {
					return fmt.Errorf("--config %s: the bundle has no las_mq section", bundle)
				}
				specs = append(specs, b.LASMQ.Spec())
			}
			m, err := ef.model(cmd)
			if err != nil {
				return err
			}
			if out != "" {
				if _, err := checkOut(out, force); err != nil {
					return err
				}
			}
			sj, err := wf.load(&tf)
			if err != nil {
				return err
			}
			deadlines, err := pipeline.PSDeadlines(sj.jobs, sj.capacity)
			if err != nil {
				return fmt.Errorf("%s: %w", sj.sized.jobs.Source, err)
			}
			runs := ef.runs
			if m.IsExact() && runs > 1 {
				slog.Info("exact sizes: every run would be the same; running once")
				runs = 1
			}
			x := &pipeline.Experiment{Jobs: sj.jobs, Capacity: sj.capacity, Deadlines: deadlines, Policies: specs,
				Errors: m, Runs: runs, Seed: ef.seed, KeepRows: out != ""}
			if err := ef.checkCost("simulate", x.Cost()); err != nil {
				return err
			}
			bar := a.newProgress("simulate", 1)
			res, err := x.Run(cmd.Context(), pipeline.RunOptions{Workers: ef.workers, Progress: bar.set})
			bar.finish()
			if err != nil {
				return err
			}
			rep := simulateReport{Trace: sj.sized.jobs.Source, Window: wf.window, Jobs: len(sj.jobs), Capacity: sj.capacity, CapacityFrom: sj.capFrom,
				OfferedLoad: finiteOrNil(sj.load), Overloaded: sj.load > 1, Warning: pipeline.OverloadWarning(sj.load, sj.capacity, sj.capFrom),
				Errors: m.String(), Seed: ef.seed}
			rows := &pipeline.JobRows{}
			for _, p := range res.Policies {
				rep.Policies = append(rep.Policies, p.Aggregate())
				if p.Rows != nil {
					rows.AppendRows(p.Rows)
				}
			}
			if out != "" {
				ids := make([]string, len(sj.jobs))
				for i := range ids {
					ids[i] = sj.sized.jobs.ID.At(sj.first + i)
				}
				if err := data.WriteTableFile(out, force, rows.Table(ids)); err != nil {
					return err
				}
				slog.Info("per-job results written", "file", out)
			}
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), rep)
			}
			printSimulate(cmd.OutOrStdout(), rep)
			return nil
		},
	}
	tf.register(cmd)
	wf.register(cmd, "all")
	ef.register(cmd, true)
	f := cmd.Flags()
	f.StringVarP(&policies, "policy", "p", "fifo,ps,gps,srpt,fsp+ps,las,las_mq", "policies to simulate, comma-separated")
	f.StringVar(&bundle, "config", "", "a schedplan.yaml bundle whose tuned LAS_MQ is simulated too")
	f.BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	f.StringVarP(&out, "out", "o", "", "write per-job results (one row per job, policy and run) to a .parquet, .arrow or .csv file")
	f.BoolVar(&force, "force", false, "overwrite --out if it exists")
	return cmd
}

func policyHelp() string {
	s := ""
	for _, n := range sim.PolicyNames() {
		info, _ := sim.LookupPolicy(n)
		s += fmt.Sprintf("  %-9s %s (uses %s)\n", n, info.Doc, info.Uses)
	}
	return s
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func printSimulate(out io.Writer, rep simulateReport) {
	fmt.Fprintf(out, "trace %s (%s window): %d jobs, capacity %g (%s), offered load %s, estimates %s",
		rep.Trace, rep.Window, rep.Jobs, rep.Capacity, rep.CapacityFrom, fmtPtr(rep.OfferedLoad, "%.3g"), rep.Errors)
	multi := len(rep.Policies) > 0 && rep.Policies[0].Runs > 1
	if multi {
		fmt.Fprintf(out, ", %d runs (seed %d)", rep.Policies[0].Runs, rep.Seed)
	}
	fmt.Fprintln(out)
	if rep.Warning != "" {
		fmt.Fprintf(out, "WARNING: %s\n", rep.Warning)
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "policy\tmean resp (s)\t"
	if multi {
		head += "min\tmedian\tmax\t"
	}
	fmt.Fprintln(tw, head+"p50\tp90\tp99\tmax resp\tmean slowdown\tp99 slowdown\tmissed\tmakespan (s)\tutil\t")
	for _, p := range rep.Policies {
		s := p.Mean
		fmt.Fprintf(tw, "%s\t%.6g\t", p.Policy, s.Response.Mean)
		if multi {
			fmt.Fprintf(tw, "%.6g\t%.6g\t%.6g\t", p.MeanResponse.Min, p.MeanResponse.P50, p.MeanResponse.Max)
		}
		fmt.Fprintf(tw, "%.4g\t%.4g\t%.4g\t%.4g\t%.4g\t%.4g\t%.2f%%\t%.6g\t%.3f\t\n",
			s.Response.P50, s.Response.P90, s.Response.P99, s.Response.Max,
			s.Slowdown.Mean, s.Slowdown.P99, 100*s.MissedShare, s.Makespan, s.Utilisation)
	}
	tw.Flush()
}

// finiteOrNil turns NaN and ±Inf, which JSON cannot hold, into null.
func finiteOrNil(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}
