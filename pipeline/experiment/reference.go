package experiment

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/schedplan/schedplan/cluster/sim"
)

// Reference gives experiments their deadlines from one of their own runs:
// the first run of policy Policy of experiment Of, whose completions
// Deadlines turns into the deadlines of every experiment that names this
// Reference (Of included; their Deadlines field is then ignored).
// Deadlines must return a slice of its own: completion is the worker's
// simulator's buffer, which its next run overwrites. The
// task level's deadlines are its current scheduler's completions: with a
// Reference that scheduler's run is one of the pool's, not a simulation
// that has to finish before the pool starts.
//
// RunExperiments starts the reference run before every other, and a run
// that needs the deadlines waits for them only after its own simulation.
// Of must be among the experiments run, without a Sink, and Local when a
// UnitHook shards the pool (a merged or another shard's unit is not
// simulated here and would give no completions).
type Reference struct {
	Of        *Experiment
	Policy    int
	Deadlines func(completion []float64) []float64

	once  sync.Once
	ready chan struct{}
	dl    []float64
	err   error
}

// errNoReference stands for the deadlines of a reference run that failed
// (the pool then returns that run's error, not this one).
var errNoReference = errors.New("the reference run of the deadlines did not finish")

// reset readies the reference for one RunExperiments.
func (r *Reference) reset() {
	r.once, r.ready, r.dl, r.err = sync.Once{}, make(chan struct{}), nil, nil
}

// publish hands the deadlines (or the reference run's failure) to the
// runs waiting for them; only its first call counts.
func (r *Reference) publish(dl []float64, err error) {
	r.once.Do(func() {
		r.dl, r.err = dl, err
		close(r.ready)
	})
}

// wait returns the deadlines once the reference run has published them.
func (r *Reference) wait(ctx context.Context) ([]float64, error) {
	select {
	case <-r.ready:
		return r.dl, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// references checks the experiments' references and returns, for each
// experiment, the unit index (into units) of its reference run, −1 for
// none, after readying every reference.
func references(xs []*Experiment, units []unit, hooked bool) ([]int, error) {
	at := make([]int, len(xs))
	for xi, x := range xs {
		at[xi] = -1
		r := x.Reference
		if r == nil {
			continue
		}
		of := -1
		for k, y := range xs {
			if y == r.Of {
				of = k
			}
		}
		switch {
		case of < 0:
			return nil, errors.New("a reference run's experiment is not among those run")
		case r.Policy < 0 || r.Policy >= len(r.Of.Policies):
			return nil, fmt.Errorf("reference policy %d of %d", r.Policy, len(r.Of.Policies))
		case r.Of.Reference != r:
			return nil, errors.New("a reference run's experiment takes its deadlines elsewhere")
		case hooked && !r.Of.Local:
			return nil, errors.New("a reference run's experiment is sharded (not Local)")
		case r.Of.Sink != nil:
			return nil, errors.New("a reference run's experiment has a Sink (its rows would leave their order)")
		case r.Deadlines == nil:
			return nil, errors.New("a reference has no Deadlines function")
		}
		for i, u := range units {
			if u.x == of && u.p == r.Policy && u.k == 0 {
				at[xi] = i
			}
		}
	}
	for xi, x := range xs {
		if at[xi] >= 0 && x.Reference.Of == x { // each reference once
			x.Reference.reset()
		}
	}
	return at, nil
}

// referencesFirst returns the order RunExperiments starts the units in:
// every reference run first (in unit order), then the rest in unit order.
// Since the pool starts units in this order, a run that waits for
// deadlines waits for a run already under way (no deadlock on any number
// of workers).
func referencesFirst(n int, refAt []int) []int {
	first := make([]bool, n)
	for _, i := range refAt {
		if i >= 0 {
			first[i] = true
		}
	}
	order := make([]int, 0, n)
	for pass := 0; pass < 2; pass++ {
		for i := 0; i < n; i++ {
			if first[i] == (pass == 0) {
				order = append(order, i)
			}
		}
	}
	return order
}

// deadlinesFor returns how a run of x finds its deadlines once simulated:
// x.Deadlines; those its reference publishes; or, for the reference run
// itself (publishes not nil), those it computes from its completions and
// publishes.
func deadlinesFor(ctx context.Context, x *Experiment, publishes *Reference) func(*sim.Result) ([]float64, error) {
	switch {
	case publishes != nil:
		return func(r *sim.Result) ([]float64, error) {
			dl := publishes.Deadlines(r.Completion)
			publishes.publish(dl, nil)
			return dl, nil
		}
	case x.Reference != nil:
		return func(*sim.Result) ([]float64, error) { return x.Reference.wait(ctx) }
	}
	return func(*sim.Result) ([]float64, error) { return x.Deadlines, nil }
}
