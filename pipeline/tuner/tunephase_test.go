package tuner

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"testing"
)

// The tune phase log gives each phase's process CPU seconds beside its
// wall seconds: how many cores the phase kept busy.
func TestPhaseLoggerGivesCPUSeconds(t *testing.T) {
	var buf bytes.Buffer
	defer slog.SetDefault(slog.Default())
	slog.SetDefault(slog.New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	lap := phaseLogger("tune")
	s := 0.0
	for i := 0; i < 2_000_000; i++ { // some CPU to count
		s += float64(i)
	}
	lap("work")
	var rec struct {
		Phase   string   `json:"phase"`
		Seconds *float64 `json:"seconds"`
		CPU     *float64 `json:"cpu_seconds"`
	}
	if err := json.Unmarshal(buf.Bytes(), &rec); err != nil {
		t.Fatalf("%v: %s", err, buf.String())
	}
	if rec.Phase != "work" || rec.Seconds == nil || rec.CPU == nil || *rec.CPU < 0 {
		t.Errorf("phase record %s (sum %v): want the phase, its seconds and its CPU seconds", buf.String(), s)
	}
}
