package hpfsp

import (
	"math"
	"slices"
	"testing"
)

// slkCheckTree checks the treap behind x node by node, on a copy with
// every lazy tag pushed down: each node's aggregates are those pull
// computes from its children (u less the w up to each job: minS to 1e-9
// of the tags' and w's scale), a node whose melts are known has children whose melts are known,
// and its melts are at most those melt computes (a melt above the true
// one would let a ±T tag pass a change of minimum unseen). It reports
// whether all hold.
func slkCheckTree(t *testing.T, x *SlackSystem, where string) bool {
	t.Helper()
	y := *x
	y.nodes = slices.Clone(x.nodes)
	rt := &x.nodes[x.root]
	tol := 1e-9 * (1 + math.Abs(rt.sumT) + float64(rt.cnt)*(math.Abs(x.v)+math.Abs(x.off)) + rt.sumW)
	ok := true
	var walk func(n int32)
	walk = func(n int32) {
		if n == 0 || !ok {
			return
		}
		y.push(n)
		walk(y.nodes[n].l)
		walk(y.nodes[n].r)
		if !ok {
			return
		}
		got := y.nodes[n]
		y.pull(n)
		want := y.nodes[n]
		y.nodes[n] = got
		switch {
		case got.cnt != want.cnt || got.nElig != want.nElig || got.sumT != want.sumT || got.sumW != want.sumW || got.minW != want.minW:
			t.Errorf("%s: node %d (job %d): sums %+v, recomputed %+v", where, n, got.job, got, want)
			ok = false
		case !(got.minS == want.minS || math.Abs(got.minS-want.minS) <= tol):
			t.Errorf("%s: node %d (job %d): least u − W %v, recomputed %v", where, n, got.job, got.minS, want.minS)
			ok = false
		}
		if !ok || got.up == slkStale {
			return
		}
		l, r := &y.nodes[got.l], &y.nodes[got.r]
		if l.up == slkStale || r.up == slkStale {
			t.Errorf("%s: node %d (job %d): melts known, a child's stale", where, n, got.job)
			ok = false
			return
		}
		y.melt(n)
		fresh := y.nodes[n]
		y.nodes[n] = got
		eps := func(m float64) float64 { return m + 1e-9*(1+math.Abs(m)) }
		if got.up > eps(fresh.up) || got.down > eps(fresh.down) {
			t.Errorf("%s: node %d (job %d): melts up %v down %v, above the true %v %v", where, n, got.job, got.up, got.down, fresh.up, fresh.down)
			ok = false
		}
	}
	walk(y.root)
	return ok
}
