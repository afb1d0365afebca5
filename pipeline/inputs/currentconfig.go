package inputs

import (
	"fmt"
	"strings"

	"github.com/schedplan/schedplan/cluster/yarn"
	"github.com/schedplan/schedplan/internal/configfile"
	"github.com/schedplan/schedplan/pipeline/bundle"
)

// CurrentConfigSpec returns the task-level policy of a user's own YARN
// scheduler file: capacity:file= for a capacity-scheduler.xml (a Hadoop
// configuration), fair:file= for a fair-scheduler.xml (an allocations
// file).
func CurrentConfigSpec(path string) (string, error) {
	_, spec, err := ReadCurrentConfig(path)
	return spec, err
}

// ReadCurrentConfig reads the user's own scheduler file (--current-config
// path) once and returns its bytes and its task-level policy
// (CurrentConfigSpec).
func ReadCurrentConfig(path string) ([]byte, string, error) {
	b, err := configfile.Read(path)
	if err != nil {
		return nil, "", fmt.Errorf("--current-config: %w", err)
	}
	spec, err := currentConfigSpecOf(path, b)
	return b, spec, err
}

// currentConfigSpecOf is CurrentConfigSpec on b, the bytes of the file at
// path.
func currentConfigSpecOf(path string, b []byte) (string, error) {
	s := string(b)
	switch {
	case strings.Contains(s, "<allocations"):
		if err := bundle.CheckFairSchedulerReplay(b); err != nil {
			return "", fmt.Errorf("--current-config %s: %w", path, err)
		}
		return "fair:file=" + path, nil
	case strings.Contains(s, "<configuration"):
		if err := bundle.CheckCapacitySchedulerXML(b); err != nil {
			return "", fmt.Errorf("--current-config %s: %w", path, err)
		}
		// Its LAS_MQ demotions as the task level reads them (an older
		// schedplan's thresholds in work, not held time, are refused).
		if cs, err := yarn.ParseCapacityScheduler(b); err == nil {
			if _, err := cs.Demotions(); err != nil {
				return "", fmt.Errorf("--current-config %s: %w", path, err)
			}
		}
		return "capacity:file=" + path, nil
	}
	return "", fmt.Errorf("--current-config %s: neither a fair-scheduler.xml (<allocations>) nor a capacity-scheduler.xml (<configuration>)", path)
}
