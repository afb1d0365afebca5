package pipeline

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/cluster/yarn"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// checkHeldThresholds checks that the run's emitted demotion thresholds and
// its task-level tuned LAS_MQ (spec) are the deployed thresholds × 54 held
// container-seconds per cluster-second (the default spec's containers;
// the embedded trace's sizes are cluster-seconds).
func checkHeldThresholds(t *testing.T, dir string, best tuner.LASMQParams, spec string, containers int) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "capacity-scheduler.xml"))
	if err != nil {
		t.Fatal(err)
	}
	cs, err := yarn.ParseCapacityScheduler(b)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := cs.Demotions()
	if err != nil || len(ds) == 0 {
		t.Fatalf("demotions %v, %v", ds, err)
	}
	th := best.Thresholds()
	for _, d := range ds {
		// Level 0 is the queue itself (C3), level k its sibling C3_l<k>.
		level, err := 0, error(nil)
		if k := strings.LastIndex(d.From.Name, "_l"); k >= 0 {
			level, err = strconv.Atoi(d.From.Name[k+2:])
		}
		if err != nil || level >= len(th) {
			t.Fatalf("%s: not a level leaf of %d thresholds", d.From.Path, len(th))
		}
		if want := th[level] * float64(containers); math.Abs(d.After-want) > 1e-9*want {
			t.Errorf("%s: demote after %v held container-seconds, want %v (%v cluster-seconds × %d containers)", d.From.Path, d.After, want, th[level], containers)
		}
	}
	p, err := task.ParsePolicy(spec)
	if err != nil {
		t.Fatal(err)
	}
	m, ok := p.(*task.LASMQ)
	if n := float64(containers); !ok || math.Abs(m.Alpha0-best.Alpha0*n) > 1e-6*best.Alpha0*n {
		t.Errorf("task-level tuned LAS_MQ %s: want alpha0 %v × %v held container-seconds", spec, best.Alpha0, n)
	}
}
