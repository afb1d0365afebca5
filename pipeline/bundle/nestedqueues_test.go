package bundle_test

import (
	"strings"
	"testing"

	"github.com/schedplan/schedplan/cluster/yarn"
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/internal/bundletest"
)

// nestedBundle is the sample bundle with the log queues root.dev.adhoc,
// root.dev.etl and root.prod (and LAS_MQ levels beside each).
func nestedBundle() *bundle.Bundle {
	b := bundletest.Sample()
	b.Queues = []bundle.QueueConfig{
		{Name: "root.dev.adhoc", Jobs: 3, Work: 0.2},
		{Name: "root.prod", Jobs: 2, Work: 0.5},
		{Name: "root.dev.etl", Jobs: 1, Work: 0.3},
	}
	return b
}

// A log queue root.dev.adhoc was emitted as root.adhoc, so that an
// application submitted to root.dev.adhoc was refused (unknown queue) and
// the replay, falling back to the short name, judged a file routing it
// elsewhere. The queues now keep their paths: each lands where it names,
// by full path or by a short name only one leaf has (CSQueueStore.get),
// and every parent's children sum to 100 (Check).
func TestCapacityXMLKeepsLogQueuePaths(t *testing.T) {
	for _, lasmq := range []bool{true, false} {
		b := nestedBundle()
		if !lasmq {
			b.LASMQ = nil
		}
		out, err := bundle.CapacitySchedulerXML(b)
		if err != nil {
			t.Fatal(err)
		}
		if err := bundle.CheckCapacitySchedulerXML(out); err != nil {
			t.Fatalf("LAS_MQ %v: %v", lasmq, err)
		}
		cs, err := yarn.ParseCapacityScheduler(out)
		if err != nil {
			t.Fatal(err)
		}
		for requested, want := range map[string]string{
			"root.dev.adhoc": "root.dev.adhoc", "adhoc": "root.dev.adhoc", "root.dev.etl": "root.dev.etl",
			"etl": "root.dev.etl", "root.prod": "root.prod", "": "root.default",
		} {
			q, err := cs.Place("alice", nil, requested)
			if err != nil {
				t.Errorf("LAS_MQ %v: %q: %v", lasmq, requested, err)
				continue
			}
			if q.Path != want {
				t.Errorf("LAS_MQ %v: %q lands in %s, want %s", lasmq, requested, q.Path, want)
			}
		}
		if _, err := cs.Place("alice", nil, "root.dev"); err == nil {
			t.Errorf("LAS_MQ %v: root.dev accepts applications; it is a parent", lasmq)
		}
		dev := cs.Queue("root.dev")
		if dev == nil || dev.IsLeaf() {
			t.Fatalf("LAS_MQ %v: root.dev is not a parent: %+v", lasmq, dev)
		}
		// root.dev holds the work of its leaves: 0.5 of the offered work,
		// less its share of the floors.
		if c := dev.Partition(yarn.NoLabel).AbsoluteCapacity; c < 0.45 || c > 0.5 {
			t.Errorf("LAS_MQ %v: root.dev capacity %v, want about 0.5", lasmq, c)
		}
	}
}

// The Fair Scheduler's log-queue layout nests the pools the same way: the
// specified rule finds root.dev.adhoc (it looked for a pool by the full
// path, and the flattened file had root.adhoc only, so the application
// fell through to root.default).
func TestFairXMLKeepsLogQueuePaths(t *testing.T) {
	b := nestedBundle()
	for _, w := range bundle.FairTunedWeights {
		out, err := bundle.FairSchedulerXML(b, bundle.FairSchedulerOptions{Knobs: &bundle.FairKnobs{Layout: bundle.FairLayoutQueues, Weights: w}})
		if err != nil {
			t.Fatal(err)
		}
		if err := bundle.CheckFairSchedulerXML(out); err != nil {
			t.Fatal(err)
		}
		fs, err := yarn.ParseFairScheduler(out)
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{"root.dev.adhoc", "root.dev.etl", "root.prod"} {
			if got, err := fs.Place("alice", nil, path); err != nil || got != path {
				t.Errorf("weights %q: %s lands in %q (%v)", w, path, got, err)
			}
		}
	}
}

// A queue the log's applications ran in that is also another's parent,
// and two leaves of one name, are refused with the queues named.
func TestLogQueueTreeConflicts(t *testing.T) {
	for _, tc := range []struct {
		queues []string
		want   string
	}{
		{[]string{"root.dev", "root.dev.adhoc"}, "root.dev: applications ran in it and in its child queues"},
		{[]string{"root.dev.adhoc", "root.dev"}, "root.dev: applications ran in it and in its child queues"},
		{[]string{"root.dev.adhoc", "root.prod.adhoc"}, "two leaves named adhoc"},
	} {
		b := nestedBundle()
		b.Queues = nil
		for _, q := range tc.queues {
			b.Queues = append(b.Queues, bundle.QueueConfig{Name: q, Jobs: 1, Work: 0.5})
		}
		_, err := bundle.CapacitySchedulerXML(b)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want one saying %q", tc.queues, err, tc.want)
		}
	}
}

func TestLogQueuePath(t *testing.T) {
	for in, want := range map[string]string{
		"root.dev.adhoc": "root.dev.adhoc", "dev.adhoc": "root.dev.adhoc", "adhoc": "root.adhoc", "": "root.default",
		" root.a..b ": "root.a.b", "root.": "root.default", "my queue": "root.my_queue", "root": "root.default",
	} {
		if got := bundle.LogQueuePath(in); got != want {
			t.Errorf("LogQueuePath(%q) = %q, want %q", in, got, want)
		}
	}
}
