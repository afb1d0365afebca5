package tasklevel

import (
	"context"

	"github.com/schedplan/schedplan/pipeline/bundle"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// TuneWindow is TuneLASMQWindows on a window (the log's split, at the
// window's capacity), its report stating the thresholds in held
// container-seconds of the window's cluster spec too.
func TuneWindow(ctx context.Context, w *Window, opt tuner.TuneOptions) (*tuner.TuneReport, error) {
	rep, err := tuner.TuneLASMQWindows(ctx, w.Jobs, w.Capacity, w.Split, opt)
	if err != nil {
		return nil, err
	}
	rep.HeldPerUnit, _ = bundle.HeldPerUnit(w.Capacity, w.Spec.Containers()) // 0 (size units only) without machines
	return rep, nil
}
