package bundle

import (
	"fmt"
	"strings"

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
	// FairKnobs are a tuned fair-scheduler.xml's pool weights and
	// maxRunningApps (nil: the plain file).
	FairKnobs *FairKnobs `yaml:"fair_knobs,omitempty"`
}

// Verdicts.
const (
	VerdictDeploy = "deploy"
	VerdictKeep   = "keep"
)

// Text says the record in a sentence.
func (d *DeployRecord) Text() string {
	if d.Verdict == VerdictDeploy {
		return fmt.Sprintf("Verdict: deploy %s (%s), %.1f%% better than %s at task level.", d.File, d.Candidate, 100*d.Improvement, d.Current)
	}
	return fmt.Sprintf("Verdict: keep your current scheduler (%s): %s.", d.Current, d.Reason)
}

// Comment is the XML comment emit puts at the head of a YARN file that is
// not the one to deploy ("" for the file to deploy, or without a record):
// with keep, both files are written for inspection (the verdict's file
// the best candidate found, the other the best of its kind); with deploy,
// the other file is.
func (d *DeployRecord) Comment(file string) string {
	var c string
	switch {
	case d == nil || d.Verdict == VerdictDeploy && file == d.File:
		return ""
	case d.Verdict == VerdictDeploy:
		c = fmt.Sprintf("schedplan verdict: deploy %s, not this file; this %s is the best candidate of its kind, written for inspection (see schedplan.yaml deploy: and report.html)", d.File, file)
	default:
		best := "the best candidate found"
		switch {
		case d.File == "":
			best = "the best candidate of its kind"
		case file != d.File:
			best = "the best candidate of its kind (the best found was " + d.File + ")"
		}
		c = fmt.Sprintf("schedplan verdict: KEEP your current scheduler (%s); this %s is %s, written for inspection, not to deploy (see schedplan.yaml deploy: and report.html)", d.Current, file, best)
	}
	for strings.Contains(c, "--") {
		c = strings.ReplaceAll(c, "--", "- -")
	}
	return "<!-- " + c + " -->\n"
}
