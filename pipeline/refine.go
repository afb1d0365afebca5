package pipeline

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// RefineMultipliers scale the tuned LAS_MQ thresholds in the task-level
// refinement (RefineThresholds): powers of √2 from ½ to 2.
var RefineMultipliers = []float64{0.5, 0.7071, 1, 1.4142, 2}

// RefineMaxJobs bounds the tuning-window jobs the refinement simulates:
// the window's last ones (the closest to deployment; contiguous, so their
// queueing is the log's). Two task-level runs of at most this many jobs
// per multiplier.
var RefineMaxJobs = 20_000

// RefineChunks is the number of consecutive chunks the refinement's jobs
// are cut into, each simulated on its own (from an empty cluster).
const RefineChunks = 2

// RefineMinGain is the share of the score a multiplier other than 1 must
// gain over 1 on every chunk to be chosen. The task level's mean response
// turns on which few jobs cross a threshold (on the embedded trace's
// validation window, thresholds 0.01% apart moved the class-queue row by
// 1.8%, and × 0.95 and × 1 by 13%), so a gain that one stretch of the log
// shows and another does not is not taken.
const RefineMinGain = 0.01

// ThresholdRefinement is the task-level check of the tuned thresholds'
// scale: the emitted capacity-scheduler.xml, with every threshold × each
// multiplier, simulated at task level on the tuning window's last jobs
// (never the validation window), applications naming no queue and naming
// their class's queue. The fluid tuner chose the thresholds on a server
// without tasks, stages or machines; this checks whether the task level
// prefers another scale, consistently, and records what it saw.
type ThresholdRefinement struct {
	Multipliers []float64 `json:"multipliers" yaml:"multipliers"`
	// MeanNoQueue and MeanClassQueue are the two rows' mean responses (s)
	// per multiplier, averaged over the chunks; Score[c][k] is chunk c's
	// score of multiplier k: the mean of its two rows' mean responses (s).
	MeanNoQueue    []float64   `json:"mean_response_no_queue_s" yaml:"mean_response_no_queue_s"`
	MeanClassQueue []float64   `json:"mean_response_class_queue_s" yaml:"mean_response_class_queue_s"`
	Score          [][]float64 `json:"score_by_chunk_s" yaml:"score_by_chunk_s"`
	// Chosen is the multiplier applied to the tuned thresholds: the best
	// by the chunks' mean score when it beats 1 by RefineMinGain on every
	// chunk, else 1. TunedAlpha0 is the fluid tuner's α_0 before it, in
	// the thresholds' unit.
	Chosen      float64 `json:"chosen" yaml:"chosen"`
	TunedAlpha0 float64 `json:"tuned_alpha0" yaml:"tuned_alpha0"`
	// FirstRow and Jobs are the simulated rows of the log (1-based first
	// row) and their count.
	FirstRow int `json:"first_row" yaml:"first_row"`
	Jobs     int `json:"jobs" yaml:"jobs"`
}

// refineVersion changes when RefineThresholds changes what it computes.
const refineVersion = 1

// RefineThresholds runs the refinement (ThresholdRefinement) of bundle b's
// LAS_MQ thresholds on the last min(RefineMaxJobs, tuning jobs) jobs of the
// tuning window, cut into RefineChunks chunks. It returns nil when there
// is nothing to refine (no LAS_MQ levels or no classes: the capacity file
// has no thresholds) or too few jobs.
func RefineThresholds(ctx context.Context, in *Inputs, cs *classState, b *Bundle) (*ThresholdRefinement, error) {
	n := min(in.Split.TuneJobs, RefineMaxJobs)
	if b.LASMQ == nil || b.LASMQ.K < 2 || len(b.Classes) == 0 || n < RefineChunks {
		return nil, nil
	}
	cl, err := TaskCluster(in.Spec)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "schedplan-refine-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	lo := in.Split.TuneJobs - n
	rf := &ThresholdRefinement{Multipliers: RefineMultipliers, Chosen: 1, TunedAlpha0: b.LASMQ.Alpha0, FirstRow: lo + 1, Jobs: n}
	var specs []string
	for k, m := range rf.Multipliers {
		s := *b
		s.LASMQ = scaledLASMQ(b.LASMQ, m)
		x, err := CapacitySchedulerXML(&s)
		if err != nil {
			return nil, err
		}
		path := filepath.Join(dir, fmt.Sprintf("capacity-scheduler-%d.xml", k))
		if err := os.WriteFile(path, x, 0o600); err != nil {
			return nil, err
		}
		specs = append(specs, "capacity:file="+path)
	}
	var xs []*Experiment
	for c := range RefineChunks {
		a, z := lo+c*n/RefineChunks, lo+(c+1)*n/RefineChunks
		jobs, err := TaskJobsWith(in.Jobs, in.Tasks, in.SimJobs[a:z], a, in.Capacity, cl.Rate(), in.Config.Seed)
		if err != nil {
			return nil, err
		}
		res := &TaskLevel{Cluster: cl, Jobs: jobs}
		x, err := res.TaskExperiment(specs)
		if err != nil {
			return nil, err
		}
		xn := *x
		xn.Resolution = res.namingClassQueues(cs, a)
		xs = append(xs, x, &xn)
	}
	out, err := RunExperiments(ctx, RunOptions{}, xs...)
	if err != nil {
		return nil, fmt.Errorf("threshold refinement: %w", err)
	}
	rf.pick(out)
	return rf, nil
}

// pick fills the scores from the experiments' results (per chunk: no queue
// named, class queue named) and chooses the multiplier.
func (rf *ThresholdRefinement) pick(out []*ExperimentResult) {
	nk := len(rf.Multipliers)
	rf.MeanNoQueue, rf.MeanClassQueue = make([]float64, nk), make([]float64, nk)
	mean := make([]float64, nk)
	for c := 0; 2*c+1 < len(out); c++ {
		score := make([]float64, nk)
		for k := range nk {
			a := out[2*c].Policies[k].Aggregate().Mean.Response.Mean
			q := out[2*c+1].Policies[k].Aggregate().Mean.Response.Mean
			score[k] = (a + q) / 2
			rf.MeanNoQueue[k] += a / float64(len(out)/2)
			rf.MeanClassQueue[k] += q / float64(len(out)/2)
			mean[k] += score[k] / float64(len(out)/2)
		}
		rf.Score = append(rf.Score, score)
	}
	one := slices.Index(rf.Multipliers, 1)
	if one < 0 {
		return
	}
	best := 0
	for k := range nk {
		if mean[k] < mean[best] {
			best = k
		}
	}
	for _, score := range rf.Score {
		if !(score[best] < (1-RefineMinGain)*score[one]) {
			return
		}
	}
	rf.Chosen = rf.Multipliers[best]
}

// scaledLASMQ returns a copy of l with α_0 and the thresholds × m.
func scaledLASMQ(l *LASMQConfig, m float64) *LASMQConfig {
	c := *l
	c.Alpha0 *= m
	c.Thresholds = make([]float64, len(l.Thresholds))
	for i, v := range l.Thresholds {
		c.Thresholds[i] = v * m
	}
	return &c
}

// multiplier is the refinement's chosen multiplier, 1 without one.
func (s refineState) multiplier() float64 {
	if s.Refinement == nil {
		return 1
	}
	return s.Refinement.Chosen
}

// Text says in a sentence what the refinement saw and chose.
func (rf *ThresholdRefinement) Text() string {
	s := fmt.Sprintf("Task-level refinement on the tuning window's rows %d–%d (the emitted capacity-scheduler.xml, mean of its two rows' mean responses, s):", rf.FirstRow, rf.FirstRow+rf.Jobs-1)
	for k, m := range rf.Multipliers {
		var sc []string
		for _, c := range rf.Score {
			sc = append(sc, fmt.Sprintf("%.4g", c[k]))
		}
		s += fmt.Sprintf(" × %g: %s;", m, strings.Join(sc, " / "))
	}
	if rf.Chosen == 1 {
		return s + fmt.Sprintf(" the tuned scale is kept (no multiplier gains %.0f%% on every chunk).", 100*RefineMinGain)
	}
	return s + fmt.Sprintf(" the emitted thresholds are the tuned ones × %g.", rf.Chosen)
}
