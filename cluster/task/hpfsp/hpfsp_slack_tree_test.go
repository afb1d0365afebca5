package hpfsp

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"testing"
)

// slkCheckTree checks the treap behind x node by node, on a copy with
// every lazy tag pushed down: each node's aggregates are those pull
// computes from its children (u less the w up to each job: minS to 1e-9
// of the tags' and w's scale), a node whose melts are known has children whose melts are known,
// and its melts are at most those melt computes (a melt above the true
// one would let a ±T tag pass a change of minimum unseen); the front it
// remembers is the first node. It reports whether all hold.
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
		if l, r := &y.nodes[got.l], &y.nodes[got.r]; (got.l != 0 && l.prio > got.prio) || (got.r != 0 && r.prio > got.prio) {
			t.Errorf("%s: node %d (job %d): priority %d below a child's (%d, %d)", where, n, got.job, got.prio, l.prio, r.prio)
			ok = false
			return
		}
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
	if f := x.root; ok && x.first != 0 {
		for x.nodes[f].l != 0 {
			f = x.nodes[f].l
		}
		if x.first != f {
			t.Errorf("%s: front remembered as node %d, it is %d", where, x.first, f)
			ok = false
		}
	}
	return ok
}

// slkDepth is the number of levels of subtree n.
func slkDepth(x *SlackSystem, n int32) int {
	if n == 0 {
		return 0
	}
	return 1 + max(slkDepth(x, x.nodes[n].l), slkDepth(x, x.nodes[n].r))
}

// A rebuild leaves a balanced treap (⌈log2(m+1)⌉ levels, priorities
// still a heap) with the same slacks, order and picks; jobs added after it
// still find their places.
func TestSlackSystemRebuildBalances(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 30))
	const n = 1000
	x, err := NewSlackSystem(SlackConfig{FairLimit: 1, Fallback: true}, n+100)
	if err != nil {
		t.Fatal(err)
	}
	for j := 0; j < n; j++ {
		slkMust(t, x.AddJob(j, 1+rng.Float64()*100, 2))
		slkMust(t, x.SetRunnable(j, rng.IntN(2) == 0))
		if j%3 == 0 {
			slkMust(t, x.Serve(j, rng.Float64()))
		}
	}
	slkMust(t, x.AdvanceVirtual(50))
	before := make([]float64, n)
	for j := range before {
		before[j] = x.Slack(j)
	}
	bj, _ := x.BestCompletable()
	nj, nr := x.Next()
	deep := slkDepth(x, x.root)
	x.rebuild()
	if d, m := slkDepth(x, x.root), x.Len(); d > bits.Len(uint(m)) || d >= deep {
		t.Errorf("rebuild of %d jobs: %d levels (before %d), want ⌈log2(m+1)⌉ = %d", m, d, deep, bits.Len(uint(m)))
	}
	if !slkCheckTree(t, x, "after the rebuild") {
		return
	}
	for j, s := range before {
		if got := x.Slack(j); !(got == s || math.Abs(got-s) <= 1e-9*math.Max(1, math.Abs(s))) {
			t.Fatalf("job %d: slack %v after the rebuild, %v before", j, got, s)
		}
	}
	if b, _ := x.BestCompletable(); b != bj {
		t.Errorf("best completable %d after the rebuild, %d before", b, bj)
	}
	if j, r := x.Next(); j != nj || r != nr {
		t.Errorf("next %d (%v) after the rebuild, %d (%v) before", j, r, nj, nr)
	}
	for j := n; j < n+100; j++ {
		slkMust(t, x.AddJob(j, rng.Float64()*100, 1))
	}
	slkCheckTree(t, x, "after adding jobs")
}
