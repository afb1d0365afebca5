package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"slices"
	"sync/atomic"
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
}

func (e *errorFlags) register(cmd *cobra.Command, sigmaFlag bool) {
	f := cmd.Flags()
	if sigmaFlag {
		f.Float64Var(&e.sigma, "sigma", 0, "log-normal size-estimation error: estimate = size·X, X ~ LogN(0, σ²)")
		f.Float64Var(&e.uniform, "uniform", 0, "uniform size-estimation error: estimate = size·(1+E), E ~ U[−I, I], I in [0, 1]")
	}
	f.IntVar(&e.runs, "runs", 1, "independent runs (estimation errors redrawn per run)")
	f.Uint64Var(&e.seed, "seed", 1, "random seed; run r draws from PCG(seed, r)")
	f.IntVar(&e.workers, "workers", 0, "parallel runs (default: GOMAXPROCS); results do not depend on it")
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
	if e.runs < 1 {
		return m, fmt.Errorf("--runs %d: need at least one run", e.runs)
	}
	return m, nil
}

func (e *errorFlags) nworkers() int {
	if e.workers > 0 {
		return e.workers
	}
	return runtime.GOMAXPROCS(0)
}

// parsePolicies checks a --policy list and returns its specifications.
func parsePolicies(list string) ([]string, error) {
	specs := sim.SplitPolicies(list)
	if len(specs) == 0 {
		return nil, errors.New("--policy: no policy given")
	}
	for _, s := range specs {
		if _, err := sim.ParsePolicy(s); err != nil {
			return nil, fmt.Errorf("--policy: %w", err)
		}
	}
	return specs, nil
}

// experiment is a trace prepared for simulation: jobs with true sizes and
// weights, their PS deadlines, and the policies to run.
type experiment struct {
	base      []sim.Job
	sizes     []float64
	capacity  float64
	deadlines []float64
	specs     []string
}

func newExperiment(j *data.Jobs, sizes []float64, capacity float64, specs []string) (*experiment, error) {
	if !(capacity > 0) {
		return nil, fmt.Errorf("--capacity %v: need a positive capacity", capacity)
	}
	x := &experiment{sizes: sizes, capacity: capacity, specs: specs}
	var err error
	if x.base, err = pipeline.JobsOf(j, sizes, nil); err != nil {
		return nil, err
	}
	if x.deadlines, err = sim.PSCompletions(x.base, capacity); err != nil {
		return nil, fmt.Errorf("%s: %w", j.Source, err)
	}
	return x, nil
}

// simWorker holds one goroutine's buffers.
type simWorker struct {
	sim  sim.Simulator
	met  sim.Metrics
	jobs []sim.Job
	est  []float64
	pols []sim.Policy
}

// run simulates run r (estimates from PCG(seed, r)) of every policy and
// returns one summary per policy; rows, when not nil, receives the per-job
// results.
func (w *simWorker) run(x *experiment, m estimate.ErrorModel, seed uint64, r int, rows *pipeline.JobRows) ([]sim.Summary, error) {
	if w.pols == nil {
		for _, s := range x.specs {
			p, err := sim.ParsePolicy(s)
			if err != nil {
				return nil, err
			}
			w.pols = append(w.pols, p)
		}
	}
	w.est = m.Apply(x.sizes, estimate.RunRand(seed, uint64(r)), w.est)
	w.jobs = append(w.jobs[:0], x.base...)
	for i := range w.jobs {
		w.jobs[i].Estimate = w.est[i]
	}
	out := make([]sim.Summary, len(w.pols))
	for k, p := range w.pols {
		res, err := w.sim.Run(w.jobs, x.capacity, p)
		if err != nil {
			return nil, fmt.Errorf("%s, run %d: %w", x.specs[k], r, err)
		}
		out[k] = w.met.Compute(w.jobs, res.Completion, x.capacity, x.deadlines)
		if rows != nil {
			rows.Append(x.specs[k], r, w.jobs, res.Completion, &w.met, x.deadlines)
		}
	}
	return out, nil
}

// policyReport aggregates a policy's runs.
type policyReport struct {
	Policy string `json:"policy"`
	Runs   int    `json:"runs"`
	// Mean is every summary field averaged over the runs.
	Mean sim.Summary `json:"mean"`
	// MeanResponse is the spread of the per-run mean response across runs.
	MeanResponse struct {
		Min float64 `json:"min"`
		P50 float64 `json:"median"`
		Max float64 `json:"max"`
	} `json:"mean_response_across_runs"`
}

type simulateReport struct {
	Trace    string         `json:"trace"`
	Jobs     int            `json:"jobs"`
	Capacity float64        `json:"capacity"`
	Errors   string         `json:"estimation_errors"`
	Seed     uint64         `json:"seed"`
	Policies []policyReport `json:"policies"`
}

func aggregate(spec string, runs []sim.Summary) policyReport {
	rep := policyReport{Policy: spec, Runs: len(runs)}
	means := make([]float64, len(runs))
	for i, s := range runs {
		means[i] = s.Response.Mean
	}
	q := sim.QuantilesOf(means)
	rep.MeanResponse.Min, rep.MeanResponse.P50, rep.MeanResponse.Max = q.Min, q.P50, q.Max
	rep.Mean = sim.MeanSummary(runs)
	return rep
}

func init() {
	var (
		tf       traceFlags
		ef       errorFlags
		policies string
		bundle   string
		capacity float64
		asJSON   bool
		out      string
		force    bool
	)
	cmd := &cobra.Command{
		Use:   "simulate",
		Short: "Simulate scheduling policies on a job log (fluid model) and compare their metrics",
		Long: `simulate runs each policy on the job log in the fluid model of seed 001: one
server of capacity C, every active job served at a rate the policy sets, job
sizes as derived from the log (the SWIM bytes rule with --dn and --load for
.tsv traces). Size-based policies see estimates: exact, or with log-normal
(--sigma) or uniform (--uniform) errors redrawn for each of --runs runs (run r
uses the random stream PCG(--seed, r), the same for every policy).

Policies (--policy, comma-separated; parameters after a colon):
` + policyHelp() + `
The table gives, per policy, metrics averaged over the runs, and the minimum,
median and maximum of the per-run mean response. Slowdown is response /
(size / C) over jobs of positive size. "missed" is the share of jobs that
finish after their PS completion time (their protective deadline).`,
		Example: `  schedplan simulate --policy fifo,ps,srpt,fsp+ps,las
  schedplan simulate --policy fsp+ps,srpt --sigma 0.5 --runs 100 --seed 1
  schedplan simulate --policy las_mq:k=10,alpha0=100,p=10,ps --json
  schedplan simulate --trace jobs.parquet --capacity 640 --out results.parquet`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			specs, err := parsePolicies(policies)
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
			j, sizes, err := tf.readSized()
			if err != nil {
				return err
			}
			x, err := newExperiment(j, sizes, capacity, specs)
			if err != nil {
				return err
			}
			runs := ef.runs
			if m.IsExact() && runs > 1 {
				slog.Info("exact sizes: every run would be the same; running once")
				runs = 1
			}
			summaries := make([][]sim.Summary, runs) // [run][policy]
			var rows []*pipeline.JobRows
			if out != "" {
				rows = make([]*pipeline.JobRows, runs)
			}
			workers := make([]simWorker, ef.nworkers())
			bar := newProgress("simulate", runs)
			var finished atomic.Int64
			err = pipeline.ParallelFor(runs, len(workers), func(w, r int) error {
				defer func() { bar.set(int(finished.Add(1)), runs) }()
				var jr *pipeline.JobRows
				if rows != nil {
					jr = &pipeline.JobRows{}
					rows[r] = jr
				}
				s, err := workers[w].run(x, m, ef.seed, r, jr)
				summaries[r] = s
				return err
			})
			bar.finish()
			if err != nil {
				return err
			}
			rep := simulateReport{Trace: j.Source, Jobs: j.Len(), Capacity: capacity, Errors: m.String(), Seed: ef.seed}
			for k, s := range specs {
				per := make([]sim.Summary, runs)
				for r := range per {
					per[r] = summaries[r][k]
				}
				rep.Policies = append(rep.Policies, aggregate(s, per))
			}
			if out != "" {
				if err := writeJobRows(out, force, rows, j); err != nil {
					return err
				}
				slog.Info("per-job results written", "file", out)
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(rep)
			}
			printSimulate(cmd.OutOrStdout(), rep)
			return nil
		},
	}
	tf.register(cmd)
	ef.register(cmd, true)
	f := cmd.Flags()
	f.StringVarP(&policies, "policy", "p", "fifo,ps,srpt,fsp+ps,las,las_mq", "policies to simulate, comma-separated")
	f.StringVar(&bundle, "config", "", "a schedplan.yaml bundle whose tuned LAS_MQ is simulated too")
	f.Float64Var(&capacity, "capacity", 1, "server capacity C (sizes are in seconds of a capacity-1 server)")
	f.BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	f.StringVarP(&out, "out", "o", "", "write per-job results (one row per job, policy and run) to a .parquet, .arrow or .csv file")
	f.BoolVar(&force, "force", false, "overwrite --out if it exists")
	rootCmd.AddCommand(cmd)
}

func policyHelp() string {
	s := ""
	for _, n := range sim.PolicyNames() {
		s += fmt.Sprintf("  %-9s %s\n", n, sim.PolicyDoc(n))
	}
	return s
}

func writeJobRows(path string, force bool, parts []*pipeline.JobRows, j *data.Jobs) error {
	all := &pipeline.JobRows{}
	for _, p := range parts {
		all.AppendRows(p)
	}
	ids := make([]string, j.Len())
	for i := range ids {
		ids[i] = j.ID.At(i)
	}
	return data.WriteTableFile(path, force, all.Table(ids))
}

func printSimulate(out io.Writer, rep simulateReport) {
	fmt.Fprintf(out, "trace %s: %d jobs, capacity %g, estimates %s", rep.Trace, rep.Jobs, rep.Capacity, rep.Errors)
	multi := slices.ContainsFunc(rep.Policies, func(p policyReport) bool { return p.Runs > 1 })
	if multi {
		fmt.Fprintf(out, ", %d runs (seed %d)", rep.Policies[0].Runs, rep.Seed)
	}
	fmt.Fprintln(out)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	head := "policy\tmean resp\t"
	if multi {
		head += "min\tmedian\tmax\t"
	}
	fmt.Fprintln(tw, head+"p50\tp90\tp99\tmax resp\tmean slowdown\tp99 slowdown\tmissed\tmakespan\tutil\t")
	for _, p := range rep.Policies {
		s := p.Mean
		fmt.Fprintf(tw, "%s\t%.6g\t", p.Policy, s.Response.Mean)
		if multi {
			fmt.Fprintf(tw, "%.6g\t%.6g\t%.6g\t", p.MeanResponse.Min, p.MeanResponse.P50, p.MeanResponse.Max)
		}
		missed := 100 * s.MissedShare
		fmt.Fprintf(tw, "%.4g\t%.4g\t%.4g\t%.4g\t%.4g\t%.4g\t%.2f%%\t%.6g\t%.3f\t\n",
			s.Response.P50, s.Response.P90, s.Response.P99, s.Response.Max,
			s.Slowdown.Mean, s.Slowdown.P99, missed, s.Makespan, s.Utilisation)
	}
	tw.Flush()
}
