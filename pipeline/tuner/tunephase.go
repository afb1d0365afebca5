package tuner

import (
	"log/slog"
	"time"
)

// phaseLogger returns a function that logs, at debug level, the seconds
// since its previous call (or since phaseLogger) under the phase's name:
// where a stage's time goes (`--log-level debug`), for profiling at scale.
func phaseLogger(stage string) func(phase string) {
	last := time.Now()
	return func(phase string) {
		now := time.Now()
		slog.Debug("stage phase", "stage", stage, "phase", phase, "seconds", now.Sub(last).Seconds())
		last = now
	}
}
