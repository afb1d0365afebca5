package tunedeploy

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// Families of deployable candidates, simplest first (their Complexity).
const (
	// FamilyKeep is the current scheduler, left as it is.
	FamilyKeep = "keep"
	// FamilyFair is a fair-scheduler.xml: one pool per user.
	FamilyFair = "fair-scheduler.xml"
	// FamilyCapacity is a capacity-scheduler.xml with LAS_MQ levels (their
	// demotions applied by `schedplan yarn-controller`).
	FamilyCapacity = "capacity-scheduler.xml"
	// FamilyReference is a task-level policy scored beside the candidates
	// for the report (LAS, FSP with exact sizes): not deployable.
	FamilyReference = "reference"
)

// deployReferences are the task-level policies scored beside the
// candidates on every pair, for the report's Pareto front and the gap
// the choice closes: they have no YARN file.
var deployReferences = []DeployCandidate{
	{Name: "LAS (task level, no YARN file)", Family: FamilyReference, Complexity: 9, Policy: "las"},
	{Name: "FSP with exact sizes (task level, no YARN file)", Family: FamilyReference, Complexity: 9, Policy: "fsp"},
}

// DeployMultipliers scale the fluid tuner's LAS_MQ thresholds in the
// capacity-scheduler.xml candidates.
var DeployMultipliers = []float64{0.5, 1, 2}

// DeployLevelOrders are the leaf ordering-policies YARN's Capacity
// Scheduler has (CapacitySchedulerConfiguration.getAppOrderingPolicy:
// fifo, fair), as LAS_MQ orders inside a level ("" fifo, ps fair).
var DeployLevelOrders = []sim.LevelOrder{"", sim.OrderPS}

// DeployFluidConfigs is how many LAS_MQ configurations of the fluid
// tuner's search the capacity candidates start from: its choice, the next
// best feasible ones by fold score, and the first guess.
const DeployFluidConfigs = 3

// DeployCandidate is one configuration the emitted files implement as
// they are (plus `schedplan yarn-controller` for LAS_MQ levels), with
// applications naming no queue (the file's own queue mappings route
// them), and how it scored at task level against the current scheduler.
type DeployCandidate struct {
	Name   string `json:"name"`
	Family string `json:"family"`
	// Complexity orders the kinds, simplest first: 0 keep, 1 a plain
	// fair-scheduler.xml, 2 a tuned one (Fair set), 3 a
	// capacity-scheduler.xml with LAS_MQ levels.
	Complexity int `json:"complexity"`
	// Policy is the task-level specification: the current scheduler's, or
	// fair:file= / capacity:file= of the rendered file.
	Policy string `json:"policy"`
	// LASMQ is a capacity-scheduler.xml's levels as emitted (thresholds in
	// the units of the sizes, × Multiplier; Order as its leaves' YARN
	// ordering-policy: fifo or fair, ps), Origin the fluid configuration
	// it came from; PoolPolicy is a fair-scheduler.xml's schedulingPolicy
	// inside the pools and Fair a tuned one's knobs (nil: plain).
	LASMQ      *tuner.LASMQParams `json:"las_mq,omitempty"`
	Origin     string             `json:"origin,omitempty"`
	Multiplier float64            `json:"threshold_multiplier,omitempty"`
	PoolPolicy string             `json:"pool_policy,omitempty"`
	Fair       *bundle.FairKnobs  `json:"fair_knobs,omitempty"`
	// Diffs[c][s] is the paired relative difference in the objective
	// (−Objective.Improvement: negative is better) against the current
	// scheduler on chunk c with task seed s, for the seeds it ran with;
	// Mean is their mean, Interval (finalists) its bootstrap interval.
	Diffs    [][]float64     `json:"differences"`
	Mean     float64         `json:"mean_difference"`
	Interval *tuner.Interval `json:"interval,omitempty"`
	// Score is the candidate's metrics averaged over the pairs it ran on,
	// Current the current scheduler's over the same pairs.
	Score   tuner.Score `json:"score"`
	Current tuner.Score `json:"current_score"`
	// Fluid is the LAS_MQ candidate's fluid-model difference on the same
	// chunks (the fluid tuner's view), nil for the others.
	Fluid      *float64 `json:"fluid_difference,omitempty"`
	Feasible   bool     `json:"feasible"`
	Violations []string `json:"violations,omitempty"`
	// Finalist is set for the candidates scored on every seed (and the
	// references); Pareto for those no other candidate beats in every
	// metric of Score.
	Finalist bool `json:"finalist"`
	Pareto   bool `json:"pareto_front"`
	// file is the rendered file deployCandidates compared (nil for keep
	// and the references): TuneDeploy writes it without rendering again.
	file []byte
}

// deployCandidates lists the candidates, simplest first: keep (the
// current scheduler, task-level spec keep), fair-scheduler.xml with fair
// and with fifo pools, the tuned fair-scheduler.xml files (bundle.FairTunedKnobs
// × those pool policies), then capacity-scheduler.xml from the fluid
// tuner's best LAS_MQ configurations × DeployMultipliers ×
// DeployLevelOrders.
// Candidates whose rendered files are byte-identical are listed once.
func deployCandidates(tr *tuner.TuneReport, b *bundle.Bundle, keep, keepName string, opt bundle.FairSchedulerOptions) ([]DeployCandidate, error) {
	out := []DeployCandidate{{Name: "keep: the current scheduler (" + keepName + ")", Family: FamilyKeep, Policy: keep}}
	var seen [][]byte
	add := func(c DeployCandidate) error {
		f, err := c.render(b, opt)
		if err != nil {
			return fmt.Errorf("candidate %s: %w", c.Name, err)
		}
		if slices.ContainsFunc(seen, func(s []byte) bool { return bytes.Equal(s, f) }) {
			return nil
		}
		seen = append(seen, f)
		c.file = f
		out = append(out, c)
		return nil
	}
	for _, pol := range []string{"fair", "fifo"} {
		if err := add(DeployCandidate{Name: "fair-scheduler.xml, " + pol + " inside each user's pool", Family: FamilyFair, Complexity: 1, PoolPolicy: pol}); err != nil {
			return nil, err
		}
	}
	for _, k := range bundle.FairTunedKnobs(len(b.Queues) > 0) {
		for _, pol := range bundle.FairTunedPolicies {
			name := "fair-scheduler.xml tuned, " + pol + " inside each user's pool, " + k.String()
			if k.Layout == bundle.FairLayoutQueues {
				name = "fair-scheduler.xml tuned, " + pol + " inside " + k.String()
			}
			err := add(DeployCandidate{Name: name, Family: FamilyFair, Complexity: 2, PoolPolicy: pol, Fair: &k})
			switch {
			case err != nil && k.Layout == bundle.FairLayoutQueues:
				// The log's queue names and its users' clash under
				// Hadoop's rules (RenderYARN): no such file to offer.
			case err != nil:
				return nil, err
			}
		}
	}
	for _, fc := range fluidConfigs(tr) {
		for _, m := range DeployMultipliers {
			for _, o := range DeployLevelOrders {
				p := fc.p
				p.Alpha0 *= m
				p.Order = o
				leaves := "fifo"
				if o == sim.OrderPS {
					leaves = "fair"
				}
				name := fmt.Sprintf("capacity-scheduler.xml, LAS_MQ k=%d (%s) thresholds × %g, %s leaves", p.K, fc.origin, m, leaves)
				if err := add(DeployCandidate{Name: name, Family: FamilyCapacity, Complexity: 3, LASMQ: &p, Origin: fc.origin, Multiplier: m}); err != nil {
					return nil, err
				}
			}
		}
	}
	return out, nil
}

// fluidConfig is a LAS_MQ configuration of the fluid search and where it
// came from.
type fluidConfig struct {
	p      tuner.LASMQParams
	origin string
}

// fluidConfigs returns the fluid tuner's LAS_MQ configurations the
// capacity candidates start from (DeployFluidConfigs): the deployed one,
// the best other feasible ones by mean fold improvement, and the first
// guess; each once, orders inside a level left to the candidates.
func fluidConfigs(tr *tuner.TuneReport) []fluidConfig {
	out := []fluidConfig{{tr.Best, "fluid choice"}}
	key := func(p tuner.LASMQParams) string { p.Order = ""; return p.Spec() }
	seen := map[string]bool{key(tr.Best): true}
	if cv := tr.CV; cv != nil {
		idx := make([]int, 0, len(cv.Candidates))
		for i, c := range cv.Candidates {
			if c.LASMQ != nil && c.Feasible {
				idx = append(idx, i)
			}
		}
		slices.SortStableFunc(idx, func(a, b int) int {
			return -cmpFloat(cv.Candidates[a].Improvement, cv.Candidates[b].Improvement)
		})
		for _, i := range idx {
			if len(out) >= DeployFluidConfigs-1 {
				break
			}
			if p := *cv.Candidates[i].LASMQ; !seen[key(p)] {
				seen[key(p)] = true
				out = append(out, fluidConfig{p, fmt.Sprintf("fluid rank %d", len(out)+1)})
			}
		}
	}
	if fg := tr.Result.FirstGuess; fg.K > 0 && !seen[key(fg)] {
		out = append(out, fluidConfig{fg, tuner.NameFirstGuess})
	}
	return out
}

// cmpFloat orders a before b when a < b.
func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// withLASMQ returns a copy of bundle b whose las_mq is p (the held
// container-seconds per unit kept: p is in the units b's were tuned in).
func withLASMQ(b *bundle.Bundle, p tuner.LASMQParams) *bundle.Bundle {
	s := *b
	s.LASMQ = p.Config()
	if b.LASMQ != nil {
		s.LASMQ.HeldPerUnit = b.LASMQ.HeldPerUnit
	}
	return &s
}

// render returns the candidate's file as emit writes it (nil for keep).
func (c *DeployCandidate) render(b *bundle.Bundle, opt bundle.FairSchedulerOptions) ([]byte, error) {
	files, err := c.files(b, opt)
	if err != nil || files == nil {
		return nil, err
	}
	return files[c.Family], nil
}

// files renders both YARN files with the candidate's settings (RenderYARN
// of the bundle variant): its capacity-scheduler.xml levels or its
// fair-scheduler.xml pools, the other file as b has it. Keep: nil.
func (c *DeployCandidate) files(b *bundle.Bundle, opt bundle.FairSchedulerOptions) (map[string][]byte, error) {
	switch c.Family {
	case FamilyKeep, FamilyReference:
		return nil, nil
	case FamilyFair:
		opt.PoolPolicy, opt.Knobs = c.PoolPolicy, c.Fair
	case FamilyCapacity:
		b = withLASMQ(b, *c.LASMQ)
	}
	return bundle.RenderYARN(b, opt)
}

// FileSpec is the task-level specification that loads the candidate's
// file from path (fair:file= or capacity:file=).
func (c *DeployCandidate) FileSpec(path string) string {
	if c.Family == FamilyFair {
		return "fair:file=" + path
	}
	return "capacity:file=" + path
}

// deployable reports whether the candidate is a file to deploy (not keep,
// not a reference).
func (c *DeployCandidate) deployable() bool {
	return c.Family == FamilyFair || c.Family == FamilyCapacity
}

// differs reports whether any paired difference is not 0: a candidate
// that does not differ behaves as the current scheduler wherever it ran.
func (c *DeployCandidate) differs() bool {
	for _, g := range c.Diffs {
		for _, v := range g {
			if v != 0 {
				return true
			}
		}
	}
	return false
}
