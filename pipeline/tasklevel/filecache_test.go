package tasklevel

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/cluster/task"
)

// Replays of one file's bytes share one parse, wherever the bytes live:
// tune-deploy replays every candidate on each chunk and seed. The queues
// each replay places its jobs in are still its own, and an error still
// names the path it was read from, not the first path of those bytes.
func TestReplaySharesOneParsePerFile(t *testing.T) {
	out := nestedQueuesXML(t)
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		writeFile(t, p, data)
		return p
	}
	p1, p2 := write("a.xml", out), write("b.xml", out)
	r1 := &TaskLevel{Named: []string{"root.prod", ""}, Jobs: []task.Job{{ID: 0, User: "carol"}, {ID: 1, User: "carol"}}}
	r2 := &TaskLevel{Named: []string{"adhoc"}, Jobs: []task.Job{{ID: 0, User: "dave"}}}
	root1, q1, _, err := r1.loadCapacity(p1)
	if err != nil {
		t.Fatal(err)
	}
	root2, q2, _, err := r2.loadCapacity(p2)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(root1, root2) {
		t.Error("two replays of one file's bytes built different queue trees")
	}
	if want := []string{"root.prod", "root.default"}; !reflect.DeepEqual(q1, want) {
		t.Errorf("first replay placed in %q, want %q", q1, want)
	}
	if want := []string{"root.dev.adhoc"}; !reflect.DeepEqual(q2, want) {
		t.Errorf("second replay placed in %q, want %q", q2, want)
	}
	f1, _ := capacityFiles.get(out, parseCapacityFile)
	f2, _ := capacityFiles.get(out, parseCapacityFile)
	if f1.cs != f2.cs {
		t.Error("the same bytes were parsed twice")
	}

	bad := []byte(strings.Replace(string(out), "</configuration>", "<property><name>yarn.scheduler.capacity.root.prod.capacity</name><value>250</value></property></configuration>", 1))
	b1, b2 := write("bad1.xml", bad), write("bad2.xml", bad)
	for _, p := range []string{b1, b2} {
		_, _, _, err := r1.loadCapacity(p)
		if err == nil || !strings.HasPrefix(err.Error(), p+": ") {
			t.Errorf("bad file at %s: error %v does not name it first", p, err)
		}
	}
}
