package experiment

import (
	"sync"

	"github.com/schedplan/schedplan/cluster/sim"
)

// UnitResult is one simulation's output: its summary and, when the
// experiment keeps rows, its per-job rows.
type UnitResult struct {
	Summary sim.Summary
	Rows    *JobRows
}

// UnitHook shards RunExperiments' simulations (numbered as RunExperiments
// lists them). With Count > 0 only the units u with u mod Count = Index are
// simulated (the others are left zero) and their results collected; units in Known are taken as given.
type UnitHook struct {
	Index, Count int
	Known        map[int]UnitResult

	mu    sync.Mutex
	Units int
	Mine  map[int]UnitResult
}

// known returns unit i's result when it is given, or (zero, true) when it
// is another shard's.
func (h *UnitHook) known(i, n int) (UnitResult, bool) {
	if h == nil {
		return UnitResult{}, false
	}
	if r, ok := h.Known[i]; ok {
		return r, true
	}
	return UnitResult{}, h.Count > 0 && i%h.Count != h.Index
}

// done records a unit this shard simulated.
func (h *UnitHook) done(i, n int, r UnitResult) {
	if h == nil || h.Count == 0 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.Mine == nil {
		h.Mine = map[int]UnitResult{}
	}
	h.Units = n
	h.Mine[i] = r
}

// Sharding reports whether the hook computes a shard's part.
func (h *UnitHook) Sharding() bool { return h != nil && h.Count > 0 }
