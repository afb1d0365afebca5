package inputs

import (
	"fmt"
	"slices"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/pipeline/experiment"
)

// simHold is what Inputs keeps of its simulation jobs besides SimJobs: the
// slice BuildSimJobs built (so that a SimJobs a caller replaced is never
// dropped, as it could not be rebuilt), and after ReleaseSimJobs the
// window kept and the job count.
type simHold struct {
	built  []sim.Job
	kept   []sim.Job
	keptLo int
	n      int
	// rng builds the windows that are not kept (set by BuildSimJobs).
	rng *experiment.JobRange
}

// BuildSimJobs sets SimJobs to the log's simulation jobs
// (experiment.JobsOf of Jobs, Sizes and Spec), which ReleaseSimJobs may
// later drop and HoldSimJobs rebuild bit for bit.
func (in *Inputs) BuildSimJobs() error {
	if err := in.PlanSimJobs(); err != nil {
		return err
	}
	jobs, err := in.sim.rng.Jobs(0, in.sim.n)
	if err != nil {
		return err
	}
	in.SimJobs, in.sim.built = jobs, jobs
	return nil
}

// PlanSimJobs readies the log's simulation jobs without building them:
// SimJobs stays nil, as after ReleaseSimJobs with no window kept, so that
// Window builds any window from the log's columns and HoldSimJobs the
// whole jobs (the same bits as BuildSimJobs's). Prepare reads everything
// it checks from the columns (the split, the clock, the windows' work, the
// offered load, JobsKey): the whole log's jobs, 48 B each (0.48 GB at 10 M),
// are never built by a run.
func (in *Inputs) PlanSimJobs() error {
	rng, err := experiment.NewJobRange(in.Jobs, in.Sizes, in.Spec)
	if err != nil {
		return err
	}
	in.SimJobs, in.sim = nil, simHold{n: len(in.Sizes), rng: rng}
	return nil
}

// NumSimJobs is the number of simulation jobs, held or not.
func (in *Inputs) NumSimJobs() int {
	if in.SimJobs != nil {
		return len(in.SimJobs)
	}
	return in.sim.n
}

// released reports whether ReleaseSimJobs dropped SimJobs.
func (in *Inputs) released() bool { return in.SimJobs == nil && in.sim.n > 0 }

// ReleaseSimJobs drops SimJobs but for jobs [lo, hi), which it keeps in a
// slice of their own: the last stages simulate the validation window
// alone, and the whole log's jobs (48 B each, 0.48 GB at 10 M) need not
// stay live beside their simulations. Window gives the kept jobs, and
// builds any others afresh; HoldSimJobs makes SimJobs whole again. A
// SimJobs that BuildSimJobs did not build (a caller set its own) is kept.
func (in *Inputs) ReleaseSimJobs(lo, hi int) {
	if in.released() || len(in.SimJobs) == 0 || len(in.SimJobs) != len(in.sim.built) || &in.SimJobs[0] != &in.sim.built[0] {
		return
	}
	if lo < 0 || lo > hi || hi > len(in.SimJobs) {
		return
	}
	in.sim.kept, in.sim.keptLo = nil, lo
	if hi > lo {
		in.sim.kept = append([]sim.Job(nil), in.SimJobs[lo:hi]...)
	}
	in.SimJobs, in.sim.built = nil, nil
}

// HoldSimJobs rebuilds SimJobs after ReleaseSimJobs (a no-op when held).
func (in *Inputs) HoldSimJobs() error {
	if !in.released() {
		return nil
	}
	if err := in.BuildSimJobs(); err != nil {
		return err
	}
	in.sim.kept = nil
	return nil
}

// KeepWindow builds simulation jobs [lo, hi) and keeps them for Window in
// place of the window kept before, as ReleaseSimJobs keeps its window,
// while SimJobs is released (a no-op while it is held, or when the kept
// window already is [lo, hi); lo = hi keeps none), for a caller that reads
// one window many times. A run keeps none: each stage builds the
// validation window when its runs start (WindowSource, Window) and drops
// it after them, so that it is not live through the stages between (tune's
// search and the stages beside it, tune-deploy).
func (in *Inputs) KeepWindow(lo, hi int) error {
	if err := in.checkRange(lo, hi); err != nil {
		return err
	}
	if !in.released() || in.sim.keptLo == lo && len(in.sim.kept) == hi-lo && (hi == lo || in.sim.kept != nil) {
		return nil
	}
	in.sim.kept, in.sim.keptLo = nil, lo // the last window is garbage first
	if hi == lo {
		return nil
	}
	w, err := in.Window(lo, hi)
	if err != nil {
		return err
	}
	in.sim.kept = w
	return nil
}

// checkRange refuses a range of simulation jobs outside the log's.
func (in *Inputs) checkRange(lo, hi int) error {
	if n := in.NumSimJobs(); lo < 0 || lo > hi || hi > n {
		return fmt.Errorf("simulation jobs [%d, %d) outside the log's %d", lo, hi, n)
	}
	return nil
}

// Window returns simulation jobs [lo, hi): a view of SimJobs while it is
// held, else of the window ReleaseSimJobs kept when it covers them, else
// built afresh (experiment.JobsOfRange, the same bits). A caller must not
// change the jobs.
func (in *Inputs) Window(lo, hi int) ([]sim.Job, error) {
	if err := in.checkRange(lo, hi); err != nil {
		return nil, err
	}
	if !in.released() {
		return in.SimJobs[lo:hi], nil
	}
	if k := in.sim.keptLo; in.holds(lo, hi) {
		return in.sim.kept[lo-k : hi-k], nil
	}
	if in.sim.rng != nil {
		return in.sim.rng.Jobs(lo, hi)
	}
	return experiment.JobsOfRange(in.Jobs, in.Sizes, in.Spec, lo, hi)
}

// WindowSource is simulation jobs [lo, hi) as an experiment.Source: built
// when a pool first needs them, a slice of their own each time (a copy of
// the jobs Window gives when it gives a view of jobs Inputs holds), so
// that a stage's window is live only while its runs are, not kept in
// Inputs from one stage to the next (48 B a job: 0.14 GB for the 10 M
// log's 3 M validation jobs). The same bits as Window's. Its Into builds
// them into a dropped build's array (from the log's columns, as Window
// builds them, or copied from the jobs Inputs holds).
func (in *Inputs) WindowSource(lo, hi int) (*experiment.Source, error) {
	if err := in.checkRange(lo, hi); err != nil {
		return nil, err
	}
	return &experiment.Source{N: hi - lo, Build: func() ([]sim.Job, error) {
		w, err := in.Window(lo, hi)
		if err != nil || !in.holds(lo, hi) {
			return w, err // built afresh
		}
		return slices.Clone(w), nil
	}, Into: func(buf []sim.Job) ([]sim.Job, error) {
		if in.holds(lo, hi) || in.sim.rng == nil {
			w, err := in.Window(lo, hi)
			if err != nil {
				return nil, err
			}
			return append(buf[:0], w...), nil
		}
		return in.sim.rng.JobsInto(buf, lo, hi)
	}}, nil
}

// holds reports whether Window(lo, hi) is a view of jobs Inputs holds
// (SimJobs, or the window kept), not a build of its own.
func (in *Inputs) holds(lo, hi int) bool {
	k := in.sim.keptLo
	return !in.released() || lo >= k && hi <= k+len(in.sim.kept)
}

// WindowLoad is experiment.OfferedLoad of simulation jobs [lo, hi): from
// SimJobs while held, else from the log's columns they are built from
// (submit times and Sizes: the same bits), without building the jobs.
func (in *Inputs) WindowLoad(lo, hi int) float64 {
	if !in.released() {
		return experiment.OfferedLoad(in.SimJobs[lo:hi], in.Capacity)
	}
	return experiment.OfferedLoadColumns(in.Jobs.Submit[lo:hi], in.Sizes[lo:hi], in.Capacity)
}
