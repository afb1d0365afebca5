package hpfsp

import (
	"cmp"
	"math"
	"slices"

	"github.com/schedplan/schedplan/cluster/sim"
)

// A progress report updates every job with running tasks (Alg. 1). One
// by one that is a descent (or a move) per job, O(k log m) for k jobs;
// when k is a fair part of the m jobs of the virtual PS, UpdateAll sets
// every job's w and tag, restores the order by a sort of the (nearly
// sorted) keys, rebuilds the treap from its priorities and recomputes
// every slack from eq. 6, O(m) but for the sort: the slacks of the k
// updates made one by one, up to rounding.

// slkBatchShare: UpdateAll works in one pass when the jobs it updates
// number at least m / slkBatchShare.
const slkBatchShare = 4

// UpdateAll makes, for each i in order, the update UpdateInPlace describes
// of jobs[i] (distinct jobs) with work[i] and w[i] (Serve, then AdvanceVirtual if advance,
// then Reestimate), late jobs included, in one pass over the virtual PS,
// for the longest prefix of jobs in which no job leaves the virtual PS
// (then the order of the updates does not matter but for rounding). It
// returns the length of that prefix, or 0 (having changed nothing) when
// the prefix is under a quarter of the virtual PS: the caller makes the
// next update alone (UpdateInPlace, or Serve, AdvanceVirtual, Reestimate)
// and may call UpdateAll with the rest.
func (x *SlackSystem) UpdateAll(jobs []int32, work, w []float64, advance bool) (int, error) {
	m := x.cnt(x.root)
	if m == 0 || len(jobs)*slkBatchShare < int(m) {
		return 0, nil
	}
	// lim: the least T − tolerance over the virtual PS; a job leaves once V
	// reaches it. An updated job's tag is its old or its new one.
	x.order = x.order[:0]
	x.inorder(x.root)
	lim := math.Inf(1)
	for _, n := range x.order {
		j := &x.js[x.nodes[n].job]
		lim = min(lim, j.t-j.tol())
	}
	vf := x.v
	x.bt = slices.Grow(x.bt[:0], len(jobs))[:len(jobs)]
	p := 0
	for i, job := range jobs {
		j, err := x.job(int(job), "update")
		if err != nil {
			return 0, err
		}
		if err := slkCheckWork("serve", int(job), "work", work[i]); err != nil {
			return 0, err
		}
		if err := slkCheckWork("re-estimate", int(job), "remaining time", w[i]); err != nil {
			return 0, err
		}
		if j.state == slkPSDone || j.state == slkGone {
			break // Serve's error, from the caller's own update
		}
		v := vf
		if advance {
			v += work[i] / float64(m)
		}
		l := lim
		if j.state == slkPS {
			x.bt[i] = j.t
			if ws := x.snapW(j, j.w-work[i]); reestimates(j, ws, w[i]) {
				x.bt[i] += w[i] - ws
			}
			tol := sim.Tol * max(max(j.size, j.size+x.bt[i]-j.t), j.est0)
			l = min(l, min(j.t, x.bt[i])-tol)
		}
		if !(v < l) {
			break
		}
		vf, lim, p = v, l, i+1
	}
	if p*slkBatchShare < int(m) {
		return 0, nil
	}
	for i, job := range jobs[:p] {
		j := &x.js[job]
		ws := x.snapW(j, j.w-work[i])
		switch j.state {
		case slkPS:
			if reestimates(j, ws, w[i]) {
				j.size = max(j.size+(w[i]-ws), 0)
				j.t, ws = x.bt[i], w[i]
			}
			j.w = ws
			nd := &x.nodes[j.node]
			nd.t, nd.w = j.t, j.w
		case slkLate:
			j.size += w[i] - ws
			j.w = w[i]
			x.fixLate(job)
		}
	}
	x.v = vf
	slices.SortFunc(x.order, func(a, b int32) int {
		na, nb := &x.nodes[a], &x.nodes[b]
		if c := cmp.Compare(na.t, nb.t); c != 0 {
			return c
		}
		return cmp.Compare(x.js[na.job].seq, x.js[nb.job].seq)
	})
	x.relink()
	x.settle()
	return p, nil
}

// inorder appends subtree n's nodes to x.order in key order.
func (x *SlackSystem) inorder(n int32) {
	if n == 0 {
		return
	}
	x.inorder(x.nodes[n].l)
	x.order = append(x.order, n)
	x.inorder(x.nodes[n].r)
}

// balance links nodes (in key order) into a balanced tree, gives the
// node i-th in level order the priority (1 − i/(m+1))·2³² (the expected
// i-th largest of m random priorities, so that the jobs added later take
// their random places), and returns its root. Depth is what each descent
// pays for: about 2 ln m levels in a random treap, log2 m here. The
// aggregates are left to rebuildWalk.
func (x *SlackSystem) balance(nodes []int32) int32 {
	root := x.link(nodes)
	step := float64(1<<32) / float64(len(nodes)+1)
	q := append(x.spine[:0], root)
	for i := 0; i < len(q) && q[i] != 0; i++ {
		nd := &x.nodes[q[i]]
		nd.prio = uint32(float64(len(nodes)-i) * step)
		if nd.l != 0 {
			q = append(q, nd.l)
		}
		if nd.r != 0 {
			q = append(q, nd.r)
		}
	}
	x.spine = q
	return root
}

// link links nodes (in key order) into a balanced tree and returns its
// root.
func (x *SlackSystem) link(nodes []int32) int32 {
	if len(nodes) == 0 {
		return 0
	}
	mid := len(nodes) / 2
	n := nodes[mid]
	x.nodes[n].l = x.link(nodes[:mid])
	x.nodes[n].r = x.link(nodes[mid+1:])
	return n
}
