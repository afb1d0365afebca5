package tasklevel

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/internal/bundletest"
)

// The replay places an application of the log's root.dev.adhoc in
// root.dev.adhoc of the emitted capacity-scheduler.xml, as Hadoop would
// (CSQueueStore.get: full path, or the one leaf of a short name). It used
// to fall back to the short name "adhoc" and land in the flattened
// root.adhoc, which a real cluster refuses the application for.
func TestReplayRoutesNestedLogQueues(t *testing.T) {
	path := filepath.Join(t.TempDir(), "capacity-scheduler.xml")
	writeFile(t, path, nestedQueuesXML(t))
	named := []string{"root.dev.adhoc", "adhoc", "dev.adhoc", "root.prod", ""}
	r := &TaskLevel{Named: named}
	for i := range named {
		r.Jobs = append(r.Jobs, task.Job{ID: i, User: "carol"})
	}
	_, queue, _, err := r.loadCapacity(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"root.dev.adhoc", "root.dev.adhoc", "root.dev.adhoc", "root.prod", "root.default"}
	if !slices.Equal(queue, want) {
		t.Errorf("placed in %q, want %q", queue, want)
	}
}

// nestedQueuesXML is the sample bundle's capacity-scheduler.xml with the
// log queues root.dev.adhoc and root.prod.
func nestedQueuesXML(t *testing.T) []byte {
	t.Helper()
	b := bundletest.Sample()
	b.Queues = []bundle.QueueConfig{{Name: "root.dev.adhoc", Jobs: 2, Work: 0.4}, {Name: "root.prod", Jobs: 1, Work: 0.6}}
	out, err := bundle.CapacitySchedulerXML(b)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// writeFile writes data to path or fails the test.
func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
