package experiment

// pool is the order and bookkeeping of RunExperiments' units beyond the
// units themselves.
type pool struct {
	// order is the order the units start in (referencesFirst).
	order []int
	// publishes[i] is the Reference unit i's completions give, if any.
	publishes []*Reference
	// sinkSeq[i] is unit i's turn at its experiment's Sink (−1: none);
	// units of experiments with a Sink pass their results through one
	// gate in the order they start (ParallelFor starts them in order, so
	// every earlier unit is under way when a later one waits: no deadlock).
	sinkSeq []int
	// The UnitHook numbers the units of the experiments that are not
	// Local: hookIdx[i] (−1: Local), hookN of them.
	hook    *UnitHook
	hookIdx []int
	hookN   int
}

// planPool orders the units and checks the experiments' references.
func planPool(xs []*Experiment, units []unit, hook *UnitHook) (*pool, error) {
	refAt, err := references(xs, units, hook != nil)
	if err != nil {
		return nil, err
	}
	n := len(units)
	p := &pool{order: referencesFirst(n, refAt), publishes: make([]*Reference, n), sinkSeq: make([]int, n), hook: hook, hookIdx: make([]int, n)}
	for xi, i := range refAt {
		if i >= 0 {
			p.publishes[i] = xs[xi].Reference
		}
	}
	for i, u := range units {
		p.hookIdx[i] = -1
		if !xs[u.x].Local {
			p.hookIdx[i], p.hookN = p.hookN, p.hookN+1
		}
	}
	nsink := 0
	for _, i := range p.order {
		p.sinkSeq[i] = -1
		if xs[units[i].x].Sink != nil {
			p.sinkSeq[i], nsink = nsink, nsink+1
		}
	}
	return p, nil
}

// known returns unit i's result when the hook gives it, or (zero, true)
// when it is another shard's; a Local unit is never known.
func (p *pool) known(i int) (UnitResult, bool) {
	if p.hookIdx[i] < 0 {
		return UnitResult{}, false
	}
	return p.hook.known(p.hookIdx[i], p.hookN)
}

// done records a unit simulated here with the hook (not a Local one).
func (p *pool) done(i int, r UnitResult) {
	if p.hookIdx[i] >= 0 {
		p.hook.done(p.hookIdx[i], p.hookN, r)
	}
}
