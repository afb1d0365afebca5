package tasktest

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/schedplan/schedplan/internal/cputime"
)

// CancelAfter runs run with a context cancelled after d and returns how
// long it went on after the cancel and its error.
func CancelAfter(d time.Duration, run func(ctx context.Context) error) (CancelStop, error) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var cancelled atomic.Int64 // UnixNano
	var cpuAt atomic.Int64     // cputime.Self at the cancel
	timer := time.AfterFunc(d, func() {
		cpuAt.Store(int64(cputime.Self()))
		cancelled.Store(time.Now().UnixNano())
		cancel()
	})
	err := run(ctx)
	timer.Stop()
	if at := cancelled.Load(); at != 0 {
		return CancelStop{Wall: time.Since(time.Unix(0, at)), CPU: cputime.Self() - time.Duration(cpuAt.Load())}, err
	}
	return CancelStop{}, err
}

// CancelStop is how long a run went on after its cancel: the CPU time it
// spent (what the code controls: how much it does before it looks at its
// context) and the wall time (which a busy machine stretches).
type CancelStop struct{ Wall, CPU time.Duration }

func (c CancelStop) String() string { return fmt.Sprintf("%v (%v of CPU)", c.Wall, c.CPU) }

// Check fails t when the run spent more than 0.5 s of CPU after its
// cancel, or hung (30 s of wall time: a generous bound, since other
// processes may hold both cores).
func (c CancelStop) Check(t *testing.T, what string) {
	t.Helper()
	t.Logf("%s: stopped %v after the cancel", what, c)
	if c.CPU > 500*time.Millisecond || c.Wall > 30*time.Second {
		t.Errorf("%s: stopped %v after the cancel, want within 0.5 s of CPU", what, c)
	}
}
