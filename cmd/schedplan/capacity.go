package main

import (
	"fmt"
	"math"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/lp"
	"github.com/schedplan/schedplan/pipeline"
	"github.com/spf13/cobra"
)

func newCapacityCmd(a *app) *cobra.Command {
	var (
		tf                                      traceFlags
		clusterPath, solverName, mpsPath, kFlag string
		whatIfs                                 []string
		target                                  float64
		asJSON, simulate                        bool
		seed                                    uint64
		bundle, currentConfig                   string
	)
	cmd := &cobra.Command{
		Use:   "capacity",
		Short: "Solve the COSHH capacity LP: λ, allocation of machine types to job classes, what-ifs",
		Long: `capacity classifies the jobs as Rasooli and Down's COSHH does (primary:
the jobs of users with min_share > 0; secondary: all jobs) and solves the
COSHH LP for each: the largest λ such that the cluster sustains λ × today's
arrival rates, the allocation δ of every machine type to the classes, the
suggested classes per type (SC_t = {i : δ_it > 0}) and each type's load;
then λ with one machine more and one fewer of each type, with each
--what-if (TYPE=+N or TYPE=-N, comma-separated changes applied together),
and, with --target, the least number of machines of each type alone that
reaches λ ≥ the target.`,
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
			if err := pipeline.CheckWhatIfs(whatIfs, spec); err != nil {
				return err
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
				a, err := pipeline.PlanCapacity(res, spec, pipeline.CapacityOptions{Solver: solver, WhatIfs: whatIfs, Target: target, MPS: mpsPath})
				if err != nil {
					return fmt.Errorf("%s classification: %w", res.Name, err)
				}
				rep.Classifications = append(rep.Classifications, a)
			}
			if simulate {
				names, specs, err := pipeline.TaskConfigs(bundle, currentConfig)
				if err != nil {
					return err
				}
				lambdas := rep.Classifications[len(rep.Classifications)-1].WhatIfLambdas(len(whatIfs))
				if rep.Simulated, err = pipeline.SimulateWhatIfs(cmd.Context(), s.jobs, s.sizes, s.src, s.opt, spec, whatIfs, lambdas, names, specs, seed); err != nil {
					return err
				}
			}
			out := cmd.OutOrStdout()
			if asJSON {
				return writeJSON(out, rep)
			}
			defer pipeline.WriteWhatIfSims(out, rep.Simulated)
			fmt.Fprintf(out, "trace %s (%d jobs), cluster %s\n", pipeline.Printable(rep.Trace), rep.Jobs, rep.Cluster)
			for _, a := range rep.Classifications {
				fmt.Fprintln(out)
				a.WriteText(out)
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
	f.Uint64Var(&seed, "seed", 0, "k-means seed (and task durations' seed with --simulate)")
	f.BoolVar(&simulate, "simulate", false, "simulate the log at task level on the spec and each --what-if: mean and p99 response under the current (--current-config) and tuned (--config) configurations")
	f.StringVar(&bundle, "config", "", "with --simulate: a schedplan.yaml whose tuned LAS_MQ is simulated (default: Hu et al.'s LAS_MQ)")
	f.StringVar(&currentConfig, "current-config", "", "with --simulate: the cluster's fair-scheduler.xml or capacity-scheduler.xml (default: Fair, one pool per user)")
	return cmd
}

type capacityReport struct {
	Trace           string                       `json:"trace"`
	Cluster         string                       `json:"cluster"`
	Jobs            int                          `json:"jobs"`
	Classifications []*pipeline.CapacityAnalysis `json:"classifications"`
	Simulated       []pipeline.WhatIfSim         `json:"simulated,omitempty"`
}
