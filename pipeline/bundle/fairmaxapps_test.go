package bundle_test

import (
	"math"
	"testing"

	"github.com/schedplan/schedplan/cluster/yarn"
	"github.com/schedplan/schedplan/pipeline/bundle"
)

// No fair-scheduler.xml the tuner can emit writes a maxRunningApps,
// queueMaxAppsDefault or userMaxAppsDefault of 0 or below, which Hadoop
// reads as no application running (MaxRunningAppsEnforcer.
// canAppBeRunnable), for "no limit": a pool without a limit has no
// element, and the smallest multiple of a peak rounds up to 1. Marshal
// now writes a default of 0 (it used to drop it), so a file built from a
// FairScheduler literal instead of yarn.NewFairScheduler would fail here.
func TestFairFilesNeverWriteZeroApps(t *testing.T) {
	b := nestedBundle()
	b.Users[0].PeakApps = 1 // bob.smith has no peak: his pool gets no limit
	knobs := append(bundle.FairTunedKnobs(true), bundle.FairKnobs{}, bundle.FairKnobs{AppsPerPeak: 1e-9})
	for _, k := range knobs {
		out, err := bundle.FairSchedulerXML(b, bundle.FairSchedulerOptions{Knobs: &k})
		if err != nil {
			t.Fatalf("%v: %v", k.String(), err)
		}
		fs, err := yarn.ParseFairScheduler(out)
		if err != nil {
			t.Fatal(err)
		}
		if fs.QueueMaxAppsDefault != math.MaxInt32 || fs.UserMaxAppsDefault != math.MaxInt32 || len(fs.UserMaxApps) != 0 {
			t.Errorf("%v: queueMaxAppsDefault %d, userMaxAppsDefault %d, users %v: want Hadoop's defaults (no limit)", k.String(), fs.QueueMaxAppsDefault, fs.UserMaxAppsDefault, fs.UserMaxApps)
		}
		for _, q := range fs.Queues {
			if q.MaxRunningApps == 0 || q.MaxRunningApps < -1 {
				t.Errorf("%v: %s has maxRunningApps %d", k.String(), q.Path, q.MaxRunningApps)
			}
		}
		if k.AppsPerPeak > 0 {
			if got := fs.Queue("root.alice").MaxRunningApps; got < 1 {
				t.Errorf("%v: alice (peak 1) gets maxRunningApps %d, want ≥ 1", k.String(), got)
			}
			if got := fs.Queue("root.bob_dot_smith").MaxRunningApps; got != -1 {
				t.Errorf("%v: bob.smith (no peak) gets maxRunningApps %d, want none", k.String(), got)
			}
		}
	}
}

// A queue's maxRunningApps 0 is a warning (yarn: fs-max-apps-zero), so
// CheckFairSchedulerXML refuses the file; the replay's check lets it
// through, as the replay refuses the jobs placed under the queue itself
// (a drained queue is a real configuration). A user's 0 is refused by
// both: none of that user's applications would run.
func TestFairReplayAcceptsDrainedQueue(t *testing.T) {
	for _, tc := range []struct {
		name, file         string
		strictOK, replayOK bool
	}{
		{"queue 0", `<allocations><queue name="default"/><queue name="off"><maxRunningApps>0</maxRunningApps></queue></allocations>`, false, true},
		{"user 0", `<allocations><user name="bob"><maxRunningApps>0</maxRunningApps></user><queue name="default"/></allocations>`, false, false},
		{"queue 1", `<allocations><queue name="default"><maxRunningApps>1</maxRunningApps></queue></allocations>`, true, true},
	} {
		data := []byte(tc.file)
		if err := bundle.CheckFairSchedulerXML(data); (err == nil) != tc.strictOK {
			t.Errorf("%s: CheckFairSchedulerXML: %v, want ok %v", tc.name, err, tc.strictOK)
		}
		if err := bundle.CheckFairSchedulerReplay(data); (err == nil) != tc.replayOK {
			t.Errorf("%s: CheckFairSchedulerReplay: %v, want ok %v", tc.name, err, tc.replayOK)
		}
	}
}
