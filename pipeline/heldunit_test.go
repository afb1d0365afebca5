package pipeline

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/task"
	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/capacity"
	"github.com/schedplan/schedplan/pipeline/inputs"
	"github.com/schedplan/schedplan/pipeline/internal/bundletest"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// HeldPerUnit by hand: the whole cluster (all its containers) held for the
// time the fluid server takes to serve one unit.
func TestHeldPerUnit(t *testing.T) {
	for _, tc := range []struct {
		name       string
		capacity   float64
		containers int
		want       float64
	}{
		// The default spec: 48 containers at exec_rate 1 and 6 at 0.01.
		{"default spec, container-seconds of work", 48.06, 54, 54 / 48.06},
		{"default spec, cluster-seconds (sizes from bytes)", 1, 54, 54},
		// 4 containers at exec_rate 1 and 2 at 0.5: 5 reference containers.
		{"heterogeneous 4×1 + 2×0.5", 5, 6, 1.2},
		{"homogeneous exec_rate 0.5", 5, 10, 2},
		{"homogeneous exec_rate 1", 16, 16, 1},
	} {
		got, err := bundle.HeldPerUnit(tc.capacity, tc.containers)
		if err != nil || math.Abs(got-tc.want) > 1e-12*tc.want {
			t.Errorf("%s: %v, %v; want %v", tc.name, got, err, tc.want)
		}
	}
	for _, tc := range []struct {
		capacity   float64
		containers int
	}{{0, 1}, {-1, 1}, {math.NaN(), 1}, {math.Inf(1), 1}, {1, 0}, {1e-320, 1 << 40}} {
		if h, err := bundle.HeldPerUnit(tc.capacity, tc.containers); err == nil {
			t.Errorf("capacity %v, %d containers: %v, want an error", tc.capacity, tc.containers, h)
		}
	}
}

// heteroBundle is a bundle of a cluster of one machine of 4 containers at
// exec_rate 1 and one of 2 at 0.5 (5 reference containers, 6 containers),
// with LAS_MQ thresholds 10 and 100 container-seconds of work.
func heteroBundle() *bundle.Bundle {
	b := bundletest.Sample()
	b.Trace.SizeSource = "size"
	b.Cluster = bundle.ClusterInfo{Capacity: 5, Resources: []bundle.ResourceInfo{
		{Name: "fast", Count: 1, Slots: 4, ExecRate: 1}, {Name: "slow", Count: 1, Slots: 2, ExecRate: 0.5}}}
	b.Capacity = nil
	return b
}

// Every consumer of a bundle's thresholds gets them in held
// container-seconds through the one conversion: 10 container-seconds of
// work on 4×1 + 2×0.5 are 10 × 6/5 = 12 held container-seconds in
// capacity-scheduler.xml and in the task-level LAS_MQ of a what-if, and
// the bundle written says so.
func TestHeldThresholdsEverywhere(t *testing.T) {
	b := heteroBundle()
	h, err := b.HeldPerUnit()
	if err != nil || math.Abs(h-1.2) > 1e-12 {
		t.Fatalf("HeldPerUnit = %v, %v; want 1.2", h, err)
	}
	out, err := bundle.CapacitySchedulerXML(b)
	if err != nil {
		t.Fatal(err)
	}
	got := props(t, out)
	for k, want := range map[string]string{"root.c0": "12", "root.c0_l1": "120", "root.default_l1": "120"} {
		if v := got["schedplan.las-mq."+k+".demote-after-held-container-seconds"]; v != want {
			t.Errorf("%s: demote after %q held container-seconds, want %s", k, v, want)
		}
	}
	if !strings.Contains(string(out), "× 1.2 held container-seconds per container-second") {
		t.Errorf("the property's description does not state the conversion:\n%s", out)
	}
	y, err := bundle.MarshalBundle(b)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(y), "held_container_seconds_per_unit: 1.2\n") {
		t.Errorf("schedplan.yaml does not carry the conversion:\n%s", y)
	}
	bad := strings.Replace(string(y), "held_container_seconds_per_unit: 1.2", "held_container_seconds_per_unit: -1.2", 1)
	if _, err := bundle.ParseBundle([]byte(bad), "bad.yaml"); err == nil || !strings.Contains(err.Error(), "held_container_seconds_per_unit") {
		t.Errorf("a negative held_container_seconds_per_unit loaded: %v", err)
	}
	path := filepath.Join(t.TempDir(), "schedplan.yaml")
	if err := os.WriteFile(path, y, 0o644); err != nil {
		t.Fatal(err)
	}
	_, specs, err := capacity.TaskConfigs(path, "")
	if err != nil {
		t.Fatal(err)
	}
	p, err := task.ParsePolicy(specs[1])
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := p.(*task.LASMQ); !ok || math.Abs(m.Alpha0-12) > 1e-9 {
		t.Errorf("what-if's tuned LAS_MQ %s: want alpha0 12 held container-seconds", specs[1])
	}
}

// run records the conversion of the capacity it tuned at: with --capacity
// 10 on Table 3's 54 containers, one unit of the sizes is 5.4
// held container-seconds, whatever the size source suggests.
func TestRunBundleRecordsHeldPerUnit(t *testing.T) {
	cfg := inputs.DefaultRunConfig()
	cfg.Capacity, cfg.Cluster = 10, cluster.Table3Name
	in, err := Prepare(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if n := cluster.DefaultSpec().Containers(); n != 54 {
		t.Fatalf("default spec: %d containers, want 54", n)
	}
	b, _ := emitFor(t, in, 2, tuner.LASMQParams{K: 2, Alpha0: 1, P: 2})
	if b.LASMQ.HeldPerUnit != 5.4 {
		t.Errorf("held_container_seconds_per_unit %v, want 5.4 (54 containers / capacity 10)", b.LASMQ.HeldPerUnit)
	}
}

// A one-level LAS_MQ (k = 1, as tune may deploy) has no thresholds: no
// sentence states an empty list of them in either unit.
func TestThresholdsTextNone(t *testing.T) {
	if s := tuner.ThresholdsText(nil, 54); s != "" {
		t.Errorf("no thresholds: %q, want nothing", s)
	}
	b := heteroBundle()
	b.LASMQ = &tuner.LASMQConfig{K: 1, Alpha0: 1, P: 10, Weights: []float64{1}}
	if s := b.DeployedText(); strings.Contains(s, "[]") {
		t.Errorf("k = 1: %q states an empty threshold list", s)
	}
	if s := tuner.ThresholdsText([]float64{2, 4}, 1.5); !strings.Contains(s, "[3 6] held container-seconds") {
		t.Errorf("thresholds 2, 4 × 1.5: %q", s)
	}
}
