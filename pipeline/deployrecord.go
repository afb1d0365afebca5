package pipeline

import (
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// DeployRecord is schedplan.yaml's deploy section: the run's verdict, the
// candidate and file it concerns, and its task-level interval.
type DeployRecord struct {
	Verdict   string `yaml:"verdict"`
	Candidate string `yaml:"candidate,omitempty"`
	File      string `yaml:"file,omitempty"`
	// PoolPolicy is fair-scheduler.xml's schedulingPolicy inside the pools
	// (FairSchedulerOptions.PoolPolicy; empty: fair).
	PoolPolicy string `yaml:"pool_policy,omitempty"`
	Current    string `yaml:"current"`
	// Improvement is 1 − candidate/current in the objective (mean paired),
	// IntervalLo..IntervalHi the Level bootstrap interval of the mean paired
	// relative difference (negative: better).
	Objective   tuner.Objective `yaml:"objective"`
	Improvement float64         `yaml:"improvement"`
	IntervalLo  float64         `yaml:"interval_lo"`
	IntervalHi  float64         `yaml:"interval_hi"`
	Level       float64         `yaml:"level"`
	Reason      string          `yaml:"reason"`
}
