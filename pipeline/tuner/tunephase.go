package tuner

import (
	"log/slog"
	"time"

	"github.com/schedplan/schedplan/internal/cputime"
)

// phaseLogger returns a function that logs, at debug level, the seconds
// since its previous call (or since phaseLogger) under the phase's name,
// and the process's CPU seconds over the same span: where a stage's time
// goes and how many cores it keeps busy (`--log-level debug`), for
// profiling at scale. The CPU seconds count the whole process, so stages
// computed in the background count in them too.
func phaseLogger(stage string) func(phase string) {
	last, lastCPU := time.Now(), cputime.Self()
	return func(phase string) {
		now, cpu := time.Now(), cputime.Self()
		slog.Debug("stage phase", "stage", stage, "phase", phase, "seconds", now.Sub(last).Seconds(), "cpu_seconds", (cpu - lastCPU).Seconds())
		last, lastCPU = now, cpu
	}
}
