package main

import (
	"encoding/json"
	"io"
	"log/slog"
	"path/filepath"

	"github.com/schedplan/schedplan/data"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline"
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/tasklevel"
	"github.com/spf13/cobra"
)

// errorFlags are the size-estimation error and run flags of simulate and
// sweep.
type errorFlags struct {
	sigma, uniform float64
	runs, workers  int
	seed           uint64
	iKnow          bool
}

func (e *errorFlags) register(cmd *cobra.Command, sigmaFlag bool) {
	f := cmd.Flags()
	if sigmaFlag {
		f.Float64Var(&e.sigma, "sigma", 0, "log-normal size-estimation error: estimate = size·X, X ~ LogN(0, σ²)")
		f.Float64Var(&e.uniform, "uniform", 0, "uniform size-estimation error: estimate = size·(1+E), E ~ U[−I, I], I in [0, 1]")
	}
	f.IntVar(&e.runs, "runs", 1, "independent runs (estimation errors redrawn per run)")
	f.Uint64Var(&e.seed, "seed", inputs.DefaultRunConfig().Seed, "random seed; run r draws from PCG(seed, r)")
	f.IntVar(&e.workers, "workers", 0, "parallel simulations (default: GOMAXPROCS); results do not depend on it")
	f.BoolVar(&e.iKnow, "i-know", false, "run even when the estimated work or memory is beyond the limits")
}

func (e *errorFlags) model(cmd *cobra.Command) (estimate.ErrorModel, error) {
	return pipeline.ErrorModelOf(cmd.Flags().Changed("sigma"), e.sigma, cmd.Flags().Changed("uniform"), e.uniform)
}

// checkCost refuses work beyond the limits unless --i-know.
func (e *errorFlags) checkCost(what string, c experiment.Cost) error {
	if e.iKnow {
		return nil
	}
	return experiment.CheckCost(what, c)
}

func newSimulateCmd(a *app) *cobra.Command {
	var (
		tf                        traceFlags
		wf                        windowFlags
		ef                        errorFlags
		policies, bundleFile, out string
		level                     string
		asJSON, force             bool
	)
	cmd := &cobra.Command{
		Use:   "simulate",
		Short: "Replay the job log under scheduling policies and compare response times, slowdowns and missed deadlines",
		Long: `simulate replays the job log under each policy you name and compares
their response times, slowdowns and missed deadlines. By default (the fluid
level) the cluster is one server of capacity C that shares its rate among
the running jobs as the policy says (the model of Dell'Amico's simulator);
--level task runs the jobs as map and reduce tasks on the --cluster
machines, as YARN would. Fluid level: sizes are derived from the log
(the SWIM bytes rule with --dn and --load), users' weights from the cluster
spec; C is in the units of the sizes: 1 for sizes normalised to a load
(seconds of the whole cluster), else the spec's containers. Policies that use size estimates see them exact, or
with log-normal (--sigma) or uniform (--uniform) errors redrawn for each of
--runs runs (run r draws from PCG(--seed, r), the same for every policy).

Policies (--policy, comma-separated; parameters after a colon):
` + tasklevel.PolicyHelp() + `
The table gives metrics averaged over the runs (responses in seconds) and
the min, median and max of the per-run mean response. Slowdown is response /
(size / C) over jobs of positive size; "missed" is the share of jobs that
finish after their PS completion time (their protective deadline).

--level task (auto: for file= or task-only policies) runs the jobs as map and
reduce tasks (from task counts and task-seconds, else sizes, seeded skew) on
the --cluster machines; C is then their rate in container-seconds/s, and
` + tasklevel.TaskMetricsNote + ` (--out's ps_deadline column is that deadline). Below the table, each
policy's task-level engine events, tasks, wall time and events per second.`,
		Example: `  schedplan simulate --policy fifo,ps,srpt,fsp+ps,las,las_mq
  schedplan simulate --policy fsp+ps,srpt --sigma 0.5 --runs 100 --seed 1
  schedplan simulate --policy las_mq:k=10,alpha0=1,p=10,gps --window validate --json
  schedplan simulate --trace jobs.parquet --cluster cluster.yaml --out results.parquet
  schedplan simulate --policy capacity:file=capacity-scheduler.xml,fair:file=fair-scheduler.xml,las_mq`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := experiment.CheckWorkers(ef.workers); err != nil {
				return err
			}
			specs, err := pipeline.ParseAnyPolicies("policy", policies)
			if err != nil {
				return err
			}
			if bundleFile != "" {
				spec, err := bundle.BundleLASMQSpec(bundleFile)
				if err != nil {
					return err
				}
				specs = append(specs, spec)
			}
			m, err := ef.model(cmd)
			if err != nil {
				return err
			}
			if _, err := pipeline.CheckOutFile(out, force); err != nil {
				return err
			}
			w, err := wf.load(&tf)
			if err != nil {
				return err
			}
			w, res, err := w.AtLevel(level, specs, ef.seed)
			if err != nil {
				return err
			}
			x, err := tasklevel.SimulateExperiment(w, res, specs, m, ef.runs, ef.seed, out != "")
			if err != nil {
				return err
			}
			if err := ef.checkCost("simulate", x.Cost()); err != nil {
				return err
			}
			bar := a.newProgress("simulate", 1)
			rep, rows, err := tasklevel.Simulate(cmd.Context(), w, x, experiment.RunOptions{Workers: ef.workers, Progress: bar.set})
			bar.finish()
			if err != nil {
				return err
			}
			if out != "" {
				if err := pipeline.MakeOutDir("--out", filepath.Dir(out)); err != nil {
					return err
				}
				if err := data.WriteTableFile(out, force, rows); err != nil {
					return err
				}
				slog.Info("per-job results written", "file", out)
			}
			return printReport(cmd.OutOrStdout(), asJSON, rep)
		},
	}
	tf.register(cmd)
	wf.register(cmd, "all")
	ef.register(cmd, true)
	f := cmd.Flags()
	f.StringVarP(&policies, "policy", "p", "fifo,ps,gps,srpt,fsp+ps,las,las_mq", "policies to simulate, comma-separated")
	f.StringVar(&level, "level", "auto", "resolution: fluid, task (tasks on the --cluster machines; see the policies above), or auto (task when a policy loads a file= or exists only at task level)")
	f.StringVar(&bundleFile, "config", "", "a schedplan.yaml bundle whose tuned LAS_MQ is simulated too")
	f.BoolVar(&asJSON, "json", false, "print JSON instead of a table")
	f.StringVarP(&out, "out", "o", "", "write per-job results (one row per job, policy and run) to a .parquet, .arrow or .csv file")
	f.BoolVar(&force, "force", false, "overwrite --out if it exists")
	return cmd
}

// printReport prints a command's report: as JSON (writeJSON) when asJSON,
// else as text.
func printReport(w io.Writer, asJSON bool, rep interface{ WriteText(io.Writer) }) error {
	if asJSON {
		return writeJSON(w, rep)
	}
	rep.WriteText(w)
	return nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}
