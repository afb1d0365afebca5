package hpfsp

import "math"

// A re-estimate moves a job's tag T by Δ = w_new − w_old. Most moves are
// small: the job keeps its place among its neighbours in the virtual PS
// (between the job ahead of it and the one behind), so no job is passed
// and eq. 14–17 touch nobody but the job and, by rounding only, the jobs
// behind it. moveInPlace does such a move in two descents of the treap
// (one reading the neighbours and the sums ahead, one writing) instead of
// move's three splits and two merges; the result is eq. 6 as move computes
// it, up to the rounding of the sums' association.

// moveInPlace re-estimates job (in the virtual PS) to tag t2 and remaining
// time w2 without restructuring the treap, if its new key (t2, seq) stays
// strictly between the keys of the jobs before and after it; it reports
// whether it did.
func (x *SlackSystem) moveInPlace(job int32, t2, w2 float64) bool {
	a, ok := x.inPlace(job, t2)
	if !ok {
		return false
	}
	j := &x.js[job]
	t1 := j.t
	x.pointMove(x.root, j.node, t1, j.seq, t2, w2, x.slackU(a.k, x.cnt(x.root), a.sumT, t2), t2-t1)
	j.t, j.w = t2, w2
	return true
}

// slkAhead is what eq. 6 needs of the jobs ahead of one: their number and
// the sum of their T.
type slkAhead struct {
	k    int32
	sumT float64
}

// inPlace returns the jobs ahead of job (in the virtual PS) and whether
// tag t2 keeps it strictly between the jobs before and after it (unless
// noInPlace). One descent; the fields it reads (t, cnt, sumT) are not
// lazy, so it pushes nothing.
func (x *SlackSystem) inPlace(job int32, t2 float64) (slkAhead, bool) {
	var a slkAhead
	if x.noInPlace {
		return a, false
	}
	j := &x.js[job]
	var pred, succ int32
	n := x.root
	for n != j.node {
		nd := &x.nodes[n]
		if x.keyLess(j.t, j.seq, n) {
			succ = n
			n = nd.l
			continue
		}
		pred = n
		l := &x.nodes[nd.l]
		a.k += l.cnt + 1
		a.sumT += l.sumT + nd.t
		n = nd.r
	}
	nd := &x.nodes[n]
	if nd.l != 0 {
		l := &x.nodes[nd.l]
		a.k += l.cnt
		a.sumT += l.sumT
		pred = nd.l
		for x.nodes[pred].r != 0 {
			pred = x.nodes[pred].r
		}
	}
	if nd.r != 0 {
		succ = nd.r
		for x.nodes[succ].l != 0 {
			succ = x.nodes[succ].l
		}
	}
	ok := (pred == 0 || !x.keyLess(t2, j.seq, pred)) && (succ == 0 || x.keyLess(t2, j.seq, succ))
	return a, ok
}

// pointMove sets the tag, w and u of node target (key (t, seq)) in
// subtree n to t2, w2 and u, and adds d to the u of the jobs behind it, in
// one descent. The caller has checked that the new key keeps the node's
// place in the order.
func (x *SlackSystem) pointMove(n, target int32, t float64, seq int32, t2, w2, u, d float64) {
	x.descend(n, target, t, seq, d)
	nd := &x.nodes[target]
	nd.t, nd.w, nd.s = t2, w2, u
	x.applyTag(nd.r, 0, d)
	x.pullPath()
}

// reestimates reports whether an update re-estimates job j, served to ws,
// to w. A re-estimate by no more than the job's tolerance (sim.Tol of its
// size, the work that counts as none) is not made: w stays ws. It is
// rounding when w is the job's estimate less its service (every one of
// the 3.3 M re-estimates of BenchmarkTaskEvents/hpfsp), and skipping it
// never lets w stray further than that from the estimator's.
func reestimates(j *slkJob, ws, w float64) bool {
	return w != ws && !(ws > 0 && math.Abs(w-ws) <= j.tol())
}

// UpdateInPlace is Alg. 1's update of a running job in the virtual PS in
// one descent: Serve(job, work), then, if advance, AdvanceVirtual(work)
// (eq. 8), then Reestimate(job, w). It does it only when no job leaves the
// virtual PS on the way and the re-estimate keeps the job between its
// neighbours (the common case: a report moves a job by a little); it
// reports whether it did, and when it did not it has changed nothing (the
// caller makes the three calls). The slacks are those of the three calls
// up to rounding, but that a re-estimate within the job's tolerance
// (sim.Tol of its size) from its served w is not made.
func (x *SlackSystem) UpdateInPlace(job int, work, w float64, advance bool) (bool, error) {
	j, err := x.job(job, "update")
	if err != nil {
		return false, err
	}
	if err := slkCheckWork("serve", job, "work", work); err != nil {
		return false, err
	}
	if err := slkCheckWork("re-estimate", job, "remaining time", w); err != nil {
		return false, err
	}
	if j.state != slkPS {
		return false, nil
	}
	if work == 0 && w == j.w && x.snapW(j, w) == w {
		// No service and no re-estimate (a task start): nothing moves,
		// and the system is settled (the front's check below would pass).
		x.tick()
		return true, nil
	}
	m := x.cnt(x.root)
	share := 0.0
	if advance {
		share = work / float64(m)
		f := &x.js[x.nodes[x.front()].job]
		if !(share < f.t-x.v && f.t-(x.v+share) > f.tol()) {
			return false, nil // a job leaves the virtual PS
		}
	}
	ws := x.snapW(j, j.w-work)
	ds := j.w - ws // Serve (eq. 7): the job and those behind gain it
	moved := reestimates(j, ws, w)
	switch {
	case !moved: // no re-estimate: Serve alone
		if ds > 0 {
			x.setW(int32(job), ws)
		}
	default:
		t1 := j.t
		t2 := t1 + (w - ws)
		a, ok := x.inPlace(int32(job), t2)
		if !ok {
			return false, nil
		}
		j.size = max(j.size+(w-ws), 0)
		// The jobs behind gain ds + (t2 − t1) − (w − ws) of slack and
		// w − w_old of w ahead: t2 − t1 of u.
		x.pointMove(x.root, j.node, t1, j.seq, t2, w, x.slackU(a.k, m, a.sumT, t2), t2-t1)
		j.t, j.w = t2, w
		x.tick()
	}
	if share > 0 {
		x.v += share
		x.addOff(work)
	}
	if moved {
		x.settle()
	}
	// Else settle would find nothing to do: Serve changes no tag and no
	// tolerance, and the check above kept the front in the virtual PS at
	// the new V (settle's own test).
	x.tick()
	return true, nil
}
