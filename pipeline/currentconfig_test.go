package pipeline

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/inputs"
)

// --current-config with an older schedplan's capacity-scheduler.xml (its
// thresholds in reference-container-seconds of work, a property the
// controller and the task level refuse) is refused by Prepare, before the
// first stage, not by the validate stage after every stage before it ran.
func TestCurrentConfigOldThresholdsRefusedByPrepare(t *testing.T) {
	out, err := bundle.CapacitySchedulerXML(heteroBundle())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	good := filepath.Join(dir, "capacity-scheduler.xml")
	old := filepath.Join(dir, "old-capacity-scheduler.xml")
	if err := os.WriteFile(good, out, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(old, []byte(strings.ReplaceAll(string(out), "demote-after-held-container-seconds", "demote-after-container-seconds")), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := inputs.CurrentConfigSpec(good); err != nil {
		t.Fatalf("an emitted capacity-scheduler.xml as --current-config: %v", err)
	}
	cfg := inputs.DefaultRunConfig()
	cfg.CurrentConfig = old
	if _, err := Prepare(cfg); err == nil || !strings.Contains(err.Error(), "--current-config") || !strings.Contains(err.Error(), "demote-after-container-seconds") {
		t.Errorf("Prepare with an old-format --current-config: %v, want it refused naming the flag and the property", err)
	}
}
