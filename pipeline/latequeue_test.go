package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunQueueNamedAfterSplit runs the pipeline on a log whose last jobs
// name a queue no job of the tuning window names (a queue created after
// the split): the emitted files must list it, since the validation
// replays every application in the queue it named, and
// capacity-scheduler.xml rejects one that names an unknown queue (the run
// failed at validate: "submitted to unknown queue: late").
func TestRunQueueNamedAfterSplit(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("job_id,submit_time,user,queue,size\n")
	for i := range 80 {
		q := "early"
		if i >= 70 {
			q = "late"
		}
		fmt.Fprintf(&b, "j%d,%d,u%d,%s,%d\n", i, 10*i, i%3, q, 5+i%7*4)
	}
	log := filepath.Join(dir, "log.csv")
	if err := os.WriteFile(log, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig()
	cfg.Trace = log
	out := filepath.Join(dir, "out")
	if _, _, err := runInto(t, out, cfg, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := os.ReadFile(filepath.Join(out, "capacity-scheduler.xml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(cs), "root.late.capacity") {
		t.Errorf("capacity-scheduler.xml has no queue late")
	}
}
