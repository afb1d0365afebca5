package tasklevel

import (
	"context"
	"fmt"
	"runtime"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/cluster/task/hpfsp"
	"github.com/schedplan/schedplan/estimate"
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// Compile-time check: seed 002's EWMA estimator is what the task-level
// H-PFSP policy reads.
var _ hpfsp.RemainingEstimator = (*estimate.ProgressEstimator)(nil)

// HPFSPEstimator returns a hpfsp.HPFSP.NewEstimator that builds, for each
// run, seed 002's online EWMA estimator (estimate.ProgressEstimator, eq.
// 1–5 and 18) with cfg. Unless cfg.Slots is set, every stage's N(S) is the
// cluster's containers, so that Remaining is in seconds of the whole
// cluster, the unit of H-PFSP's slack system. cfg.Default (eq. 18's task
// time of a job without samples, per stage, in seconds) should come from
// history, e.g. the tuning window's mean task times.
func HPFSPEstimator(cfg estimate.ProgressConfig) func(*task.State) (hpfsp.RemainingEstimator, error) {
	return func(s *task.State) (hpfsp.RemainingEstimator, error) {
		c := cfg
		if c.Slots == nil {
			stages := 1
			for i := range s.Jobs() {
				stages = max(stages, len(s.Jobs()[i].Stages))
			}
			c.Slots = make([]float64, stages)
			for i := range c.Slots {
				c.Slots[i] = float64(s.Containers())
			}
		}
		return estimate.NewProgressEstimator(c, len(s.Jobs()))
	}
}

// HPFSPEvaluation is one simulated H-PFSP candidate on the tuning window.
type HPFSPEvaluation struct {
	FairLimit int         `json:"fair_limit"` // tasks per stage in the fair phase
	Threshold float64     `json:"threshold"`  // map-progress fraction of getStage
	Score     tuner.Score `json:"score"`      // responses in seconds
}

// DefaultFairLimits are the FAIR_LIMIT candidates TuneHPFSP tries when
// given none: seed 002 §IV tries 2 and 5; Fig. 5's knee lies between.
var DefaultFairLimits = []int{0, 1, 2, 3, 5, 8, 12}

// TuneHPFSP searches H-PFSP's FAIR_LIMIT and progress threshold on the
// tuning window's task-level jobs: every pair of limits × thresholds
// (nil: DefaultFairLimits × {0.95}) is simulated on cl (with newEst as the
// estimator, nil for the jobs' Estimates) and the best under obj wins
// (ties: the smaller FAIR_LIMIT, then the earlier threshold). The space
// is small and discrete (seed 002 §IV), so the search is exhaustive:
// O(candidates) task-level runs, in parallel.
func TuneHPFSP(ctx context.Context, jobs []task.Job, cl *task.Cluster, limits []int, thresholds []float64, obj tuner.Objective,
	newEst func(*task.State) (hpfsp.RemainingEstimator, error), opt task.Options) (HPFSPEvaluation, []HPFSPEvaluation, error) {
	if len(limits) == 0 {
		limits = DefaultFairLimits
	}
	if len(thresholds) == 0 {
		thresholds = []float64{hpfsp.DefaultStageThreshold}
	}
	if _, err := tuner.ParseObjective(string(obj)); err != nil {
		return HPFSPEvaluation{}, nil, err
	}
	if len(jobs) == 0 {
		return HPFSPEvaluation{}, nil, fmt.Errorf("tune h-pfsp: no jobs in the tuning window")
	}
	fluid := task.FluidJobs(jobs)
	// Deadlines: the reference scheduler's completions (TaskMetricsNote).
	refPolicy, err := task.ParsePolicy(DefaultTaskReference)
	if err != nil {
		return HPFSPEvaluation{}, nil, err
	}
	// The reference and every candidate are independent runs: run 0 is
	// the reference, run 1+k candidate k, side by side on GOMAXPROCS
	// goroutines (the results do not depend on their number), or one
	// after the other when opt has an Observer (shared by the runs).
	workers := runtime.GOMAXPROCS(0)
	if opt.Observer != nil {
		workers = 1
	}
	var cands []*hpfsp.HPFSP
	for _, fl := range limits {
		for _, th := range thresholds {
			p := &hpfsp.HPFSP{FairLimit: fl, Threshold: th, NewEstimator: newEst}
			if err := p.Validate(); err != nil {
				return HPFSPEvaluation{}, nil, fmt.Errorf("tune h-pfsp: %v", err)
			}
			cands = append(cands, p)
		}
	}
	// A candidate that schedules as an earlier one is not run again.
	run := sameHPFSPRuns(cands)
	completions := make([][]float64, 1+len(cands))
	err = experiment.ParallelFor(ctx, len(completions), workers, func(_, i int) error {
		var s task.Simulator
		if i == 0 {
			rr, err := s.RunContext(ctx, jobs, cl, refPolicy, opt)
			if err != nil {
				return fmt.Errorf("tune h-pfsp: reference %s: %v", DefaultTaskReference, err)
			}
			completions[0] = rr.Completion
			return nil
		}
		if run[i-1] != i-1 {
			return nil
		}
		p := cands[i-1]
		r, err := s.RunContext(ctx, jobs, cl, p, opt)
		if err != nil {
			return fmt.Errorf("tune h-pfsp: %s: %v", p.Spec(), err)
		}
		completions[i] = r.Completion
		return nil
	})
	if err != nil {
		return HPFSPEvaluation{}, nil, err
	}
	for k, r := range run {
		completions[1+k] = completions[1+r]
	}
	dl := task.ReferenceDeadlines(jobs, completions[0])
	m := sim.Metrics{Alone: task.FluidAlone(jobs, cl)}
	evals := make([]HPFSPEvaluation, len(cands))
	for k, p := range cands {
		sum := m.Compute(fluid, completions[1+k], cl.Rate(), dl)
		evals[k] = HPFSPEvaluation{FairLimit: p.FairLimit, Threshold: p.Threshold, Score: tuner.ScoreOf(sum)}
	}
	ref := evals[0].Score
	best := 0
	for i := range evals {
		// The greatest improvement over the first candidate in the
		// objective; ties go to the smaller FAIR_LIMIT.
		gi, gb := obj.Improvement(evals[i].Score, ref), obj.Improvement(evals[best].Score, ref)
		if gi > gb || (gi == gb && evals[i].FairLimit < evals[best].FairLimit) {
			best = i
		}
	}
	return evals[best], evals, nil
}

// sameHPFSPRuns returns, for each candidate, the first candidate that
// schedules exactly as it does: with FAIR_LIMIT 0 no job is ever in its
// fair phase, and the progress threshold, which only picks the stage whose
// fair phase counts (hpfsp.SlackConfig), is never read.
func sameHPFSPRuns(cands []*hpfsp.HPFSP) []int {
	run := make([]int, len(cands))
	for k, p := range cands {
		run[k] = k
		for i := range k {
			q := cands[i]
			if p.FairLimit == 0 && q.FairLimit == 0 && p.LateFirst == q.LateFirst && p.NoFallback == q.NoFallback &&
				p.BusyPS == q.BusyPS && p.ReportInterval == q.ReportInterval && run[i] == i {
				run[k] = i
				break
			}
		}
	}
	return run
}

// Config returns the evaluation's parameters as the bundle's h_pfsp
// section.
func (e HPFSPEvaluation) Config() *bundle.HPFSPConfig {
	return &bundle.HPFSPConfig{FairLimit: e.FairLimit, Threshold: e.Threshold}
}

// MeanTaskTimes returns the mean task time of each stage index of jobs on
// cl, in seconds (base durations over the cluster's mean exec_rate): eq.
// 18's prior ("the average execution time of the tasks of the finished
// jobs") from a window of history. Stages no job has are left out.
func MeanTaskTimes(jobs []task.Job, cl *task.Cluster) []float64 {
	var sum, n []float64
	for i := range jobs {
		for s, st := range jobs[i].Stages {
			for len(sum) <= s {
				sum, n = append(sum, 0), append(n, 0)
			}
			for _, t := range st.Tasks {
				sum[s] += t.Duration
				n[s]++
			}
		}
	}
	rate := cl.Rate() / float64(cl.Containers())
	for s := range sum {
		if n[s] > 0 {
			sum[s] /= n[s] * rate
		}
	}
	return sum
}

// hpfspPolicy makes a task-level hpfsp specification (params without
// file=) run with seed 002's online EWMA estimator (estimator=ewma, the
// default): it reads no job's size estimate, so it runs once, not once per
// error run; eq. 18's prior is r.HPFSPDefault, or the mean task times of
// r's own jobs. estimator=sizes keeps the jobs' estimates (hpfsp.HPFSP
// without an estimator).
func (r *TaskLevel) hpfspPolicy(tp *TaskPolicy, params map[string]string) error {
	mode := params["estimator"]
	delete(params, "estimator")
	switch mode {
	case "", bundle.HPFSPOnline:
	case bundle.HPFSPSizes:
		tp.make = func() (task.Policy, error) { return task.NewPolicy("hpfsp", params) }
		return nil
	default:
		return fmt.Errorf("hpfsp: estimator=%q: use %s (online, from the tasks' progress) or %s (the jobs' size estimates)", mode, bundle.HPFSPOnline, bundle.HPFSPSizes)
	}
	if _, err := task.NewPolicy("hpfsp", params); err != nil {
		return err
	}
	def := r.HPFSPDefault
	if def == nil {
		def = MeanTaskTimes(r.Jobs, r.Cluster)
	}
	newEst := HPFSPEstimator(estimate.ProgressConfig{Default: def})
	tp.uses.Estimates = false
	tp.make = func() (task.Policy, error) {
		p, err := task.NewPolicy("hpfsp", params)
		if err != nil {
			return nil, err
		}
		p.(*hpfsp.HPFSP).NewEstimator = newEst
		return p, nil
	}
	return nil
}
