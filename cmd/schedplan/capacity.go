package main

import (
	"fmt"
	"math"

	"github.com/schedplan/schedplan/classify"
	"github.com/schedplan/schedplan/lp"
	"github.com/schedplan/schedplan/pipeline/capacity"
	"github.com/schedplan/schedplan/pipeline/inputs"
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
		Short: "How much more load the cluster can take (λ), which job classes each machine type should serve, and what-ifs (COSHH's LP)",
		Long: `capacity classifies the jobs as Rasooli and Down's COSHH does (primary:
the jobs of users with min_share > 0; secondary: all jobs) and solves the
COSHH LP for each: the largest λ such that the cluster sustains λ × today's
arrival rates, the canonical allocation δ (the same for every solver), the
suggested classes per type (SC_t = {i : δ_it > 0}), load and dual price;
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
			spec, s, err := tf.readWithSpec(clusterPath)
			if err != nil {
				return err
			}
			rep, err := capacity.AnalyseCapacity(cmd.Context(), capacity.CapacityRequest{Jobs: s.Jobs, Sizes: s.Sizes, Source: s.Src, SizeOpt: s.Opt,
				Spec: spec, K: k, Seed: seed, Options: capacity.CapacityOptions{Solver: solver, WhatIfs: whatIfs, Target: target, MPS: mpsPath},
				Simulate: simulate, Bundle: bundle, CurrentConfig: currentConfig})
			if err != nil {
				return err
			}
			return printReport(cmd.OutOrStdout(), asJSON, rep)
		},
	}
	tf.register(cmd)
	f := cmd.Flags()
	f.StringVar(&clusterPath, "cluster", inputs.DefaultRunConfig().Cluster, `cluster spec (YAML); "auto" (the default) a homogeneous cluster sized for offered load 0.7 on the log's measured work (on sizes normalised to a load: as many containers as Table 3); "coshh-table3" the six-resource cluster of Rasooli and Down's COSHH (Table 3)`)
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
