package tunedeploy

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/schedplan/schedplan/pipeline/report"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// Decision returns the verdict's first screen. dir is the output directory
// the steps name the files in.
func (v *DeployVerdict) Decision(dir string) *report.Decision {
	if v == nil {
		return nil
	}
	d := &report.Decision{Steps: v.NextSteps(dir)}
	if v.Deploy() {
		d.Headline = fmt.Sprintf("Deploy %s: %.1f%% lower %s than your current scheduler (%s)", v.File, 100*v.Improvement, tuner.ObjectiveLabel(v.Objective), v.CurrentName)
	} else {
		d.Headline = fmt.Sprintf("Keep your current scheduler (%s)", v.CurrentName)
	}
	if v.Candidate != "" {
		d.Facts = append(d.Facts,
			[2]string{"best candidate", v.Candidate},
			[2]string{"its difference", fmt.Sprintf("%+.1f%% in %s (negative: better), %.0f%% interval %s", 100*v.Mean, tuner.ObjectiveLabel(v.Objective), 100*v.Interval.Level, bounds(v.Interval))},
			[2]string{"trade-off", fmt.Sprintf("p99 slowdown %.3g against %.3g today; %.1f%% of jobs finish later than under the current scheduler (by more than a tenth of their response + 1 s)", v.Score.P99Slowdown, v.CurrentScore.P99Slowdown, 100*v.Score.Missed)})
	}
	d.Facts = append(d.Facts,
		[2]string{"how it was judged", fmt.Sprintf("task level: the rendered file replayed as deployed against %s on %d chunks × %d task seeds of the validation window (jobs the tuner never saw), paired; constraints %s", v.CurrentName, len(v.Chunks), len(v.Seeds), v.Constraints)},
		[2]string{"why", v.Reason})
	return d
}

// pctPrecise prints a relative difference as a percentage with two
// decimals, or with as many significant digits as keep it from reading
// +0.00% when it is not zero (an interval's end just above 0 decides a
// verdict).
func pctPrecise(x float64) string {
	s := fmt.Sprintf("%+.2f%%", 100*x)
	if x != 0 && strings.Trim(s, "+-0.%") == "" {
		s = fmt.Sprintf("%+.2g%%", 100*x)
	}
	return s
}

// NextSteps says what to do after the run: for a deploy verdict, put the
// file in place, start what it needs, and how to roll back
// (docs/yarn.md); for keep, what would give a verdict that can change.
func (v *DeployVerdict) NextSteps(dir string) []string {
	if v == nil {
		return nil
	}
	file := filepath.Join(dir, v.File)
	switch {
	case v.Deploy() && v.Family == FamilyCapacity:
		return []string{
			"Save your $HADOOP_CONF_DIR/capacity-scheduler.xml, copy " + file + " in its place and run `yarn rmadmin -refreshQueues`.",
			"Start the controller that moves applications between the LAS_MQ levels: `schedplan yarn-controller " + file + " --rm http://RM:8088 --user USER` (or deploy/yarn-controller.yaml on Kubernetes; the user must be allowed to move applications). Without it applications stay in the queue they land in.",
			"To roll back: stop the controller, put the saved file back and run `yarn rmadmin -refreshQueues` (docs/yarn.md).",
		}
	case v.Deploy() && v.Family == FamilyFair && !strings.HasPrefix(v.Current, "fair:"):
		return []string{
			"Save yarn-site.xml and put " + file + " in $HADOOP_CONF_DIR.",
			"Set yarn.resourcemanager.scheduler.class to org.apache.hadoop.yarn.server.resourcemanager.scheduler.fair.FairScheduler and restart the ResourceManager.",
			"To roll back: restore the saved yarn-site.xml and restart the ResourceManager (docs/yarn.md).",
		}
	case v.Deploy():
		return []string{
			"Save your allocation file (yarn.scheduler.fair.allocation.file, default fair-scheduler.xml).",
			"Copy " + file + " in its place: the Fair Scheduler reloads it within 10 s, no restart.",
			"To roll back: put the saved file back; it is reloaded the same way (docs/yarn.md).",
		}
	}
	return []string{
		"Nothing to change: no candidate beat your scheduler with its whole interval below 0 (the run's files are written anyway, headed KEEP).",
		"Judge against what you run: pass --current-config with your live capacity-scheduler.xml or fair-scheduler.xml, and --cluster with your machines (docs/cluster.md).",
		"Re-run on a longer or busier log (a week, a peak day): a gain that is real narrows its interval as the log grows (docs/tuning.md).",
	}
}
