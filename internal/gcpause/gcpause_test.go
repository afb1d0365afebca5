package gcpause

import (
	"runtime/debug"
	"testing"
)

// The collector is off from init until Resume, which restores GOGC's
// setting once; setGCPercent is runtime/debug.SetGCPercent's
// implementation (each sees what the other set).
func TestSetGCPercent(t *testing.T) {
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Fatalf("before Resume the collector's setting is %d, want -1 (off)", got)
	}
	if gogc != 100 {
		t.Skipf("GOGC=%d in the environment; the test wants the default, 100", gogc)
	}
	Resume()
	if got := debug.SetGCPercent(37); got != 100 {
		t.Errorf("after Resume the setting is %d, want GOGC's 100", got)
	}
	if got := setGCPercent(55); got != 37 {
		t.Errorf("setGCPercent saw %d after debug.SetGCPercent(37)", got)
	}
	Resume() // a second call changes nothing
	if got := debug.SetGCPercent(100); got != 55 {
		t.Errorf("after a second Resume the setting is %d, want 55 (unchanged)", got)
	}
}
