package sim

import "math"

// slackTree holds PFSP's running (not late) jobs in virtual order, by
// (virtual finish tag, index), with each job's slack s and estimated
// remaining work w. It is a treap with lazy updates (a kinetic segment
// tree in treap form): every subtree keeps the least slack in it and the
// tag of the job that has it, and the updates PFSP makes are
//
//   - add a constant to the slacks of a prefix, a suffix or all jobs;
//   - add to every slack in a prefix its own tag minus a constant
//     (s_k += tag_k − vt: an arrival behind job k adds k's own remaining
//     virtual work to k's slack).
//
// A slack is then a line in the number c of such "own tag" additions, with
// slope tag_k, and a subtree's minimum is the lower envelope of its lines.
// Each subtree keeps, beside its least slack, its melt: how much c can grow
// before another line of the subtree goes below the current minimum. An
// own-tag addition to a whole subtree whose melt it does not reach is
// applied lazily in O(1); otherwise it recurses into the children (the
// minimum changes hands). This is the kinetic segment tree's "heaten"
// operation, amortised polylogarithmic (each recursion is paid for by a
// change of the minimum's owner); the other operations are O(log n)
// expected. Subtrees also keep job counts and sums of tags and of w (for a
// new job's slack) and the least positive w and the number of jobs with
// w = 0 (for PFSP's choice, see PFSP.choose).
//
// Nodes live in a pool of slots reused through a free list, so memory is
// proportional to the most jobs running at once, not to the jobs of the
// run.
type slackTree struct {
	tag []float64 // per job (shared with the owner): the order and slopes

	job         []int32 // per slot: its job
	left, right []int32
	prio        []uint32
	cnt, zeros  []int32   // subtree jobs; subtree jobs with w = 0
	s, w        []float64 // the slot's own slack and w
	sumTag      []float64 // subtree Σ tag
	sumW        []float64 // subtree Σ w
	minPosW     []float64 // subtree least w > 0 (+Inf if none)
	mn, sl      []float64 // subtree least slack; the tag (slope) of its job
	melt        []float64 // own-tag additions the subtree's argmin survives
	lzC, lzA    []float64 // pending for the children: s_k += lzC·tag_k + lzA

	free []int32
	root int32
	rng  uint64
}

func (t *slackTree) reset(tag []float64) {
	t.tag = tag
	t.job, t.left, t.right, t.prio = t.job[:0], t.left[:0], t.right[:0], t.prio[:0]
	t.cnt, t.zeros, t.s, t.w = t.cnt[:0], t.zeros[:0], t.s[:0], t.w[:0]
	t.sumTag, t.sumW, t.minPosW = t.sumTag[:0], t.sumW[:0], t.minPosW[:0]
	t.mn, t.sl, t.melt, t.lzC, t.lzA = t.mn[:0], t.sl[:0], t.melt[:0], t.lzC[:0], t.lzA[:0]
	t.free = t.free[:0]
	t.root = -1
	t.rng = 0x9e3779b97f4a7c15
}

func (t *slackTree) size() int {
	if t.root < 0 {
		return 0
	}
	return int(t.cnt[t.root])
}

// alloc returns a free slot for job j.
func (t *slackTree) alloc(j int32) int32 {
	if n := len(t.free); n > 0 {
		x := t.free[n-1]
		t.free = t.free[:n-1]
		t.job[x] = j
		return x
	}
	t.job = append(t.job, j)
	t.left = append(t.left, -1)
	t.right = append(t.right, -1)
	t.prio = append(t.prio, 0)
	t.cnt = append(t.cnt, 0)
	t.zeros = append(t.zeros, 0)
	t.s = append(t.s, 0)
	t.w = append(t.w, 0)
	t.sumTag = append(t.sumTag, 0)
	t.sumW = append(t.sumW, 0)
	t.minPosW = append(t.minPosW, 0)
	t.mn = append(t.mn, 0)
	t.sl = append(t.sl, 0)
	t.melt = append(t.melt, 0)
	t.lzC = append(t.lzC, 0)
	t.lzA = append(t.lzA, 0)
	return int32(len(t.job) - 1)
}

// before reports whether job a comes before job b in virtual order.
func (t *slackTree) before(a, b int32) bool {
	return t.tag[a] < t.tag[b] || (t.tag[a] == t.tag[b] && a < b)
}

// pull recomputes slot x's subtree aggregates from its own job and its
// children. x must have no pending additions (push first): the children's
// minima do not include them.
func (t *slackTree) pull(x int32) {
	c, z := int32(1), int32(0)
	tg := t.tag[t.job[x]]
	st, sw := tg, t.w[x]
	mpw := math.Inf(1)
	if t.w[x] == 0 {
		z = 1
	} else {
		mpw = t.w[x]
	}
	m, sl, melt := t.s[x], tg, math.Inf(1)
	for _, ch := range [2]int32{t.left[x], t.right[x]} {
		if ch < 0 {
			continue
		}
		c += t.cnt[ch]
		z += t.zeros[ch]
		st += t.sumTag[ch]
		sw += t.sumW[ch]
		mpw = math.Min(mpw, t.minPosW[ch])
		m, sl, melt = combineLines(m, sl, melt, t.mn[ch], t.sl[ch], t.melt[ch])
	}
	t.cnt[x], t.zeros[x], t.sumTag[x], t.sumW[x], t.minPosW[x] = c, z, st, sw, mpw
	t.mn[x], t.sl[x], t.melt[x] = m, sl, melt
}

// combineLines merges two lower envelopes given by their current minimum,
// its slope and its melt: the lesser minimum wins (ties: the lesser slope,
// which stays least longer as c grows), and the melt shrinks to when the
// loser's line crosses the winner's, if it ever does.
func combineLines(m1, s1, t1, m2, s2, t2 float64) (float64, float64, float64) {
	if m2 < m1 || (m2 == m1 && s2 < s1) {
		m1, s1, t1, m2, s2, t2 = m2, s2, t2, m1, s1, t1
	}
	melt := math.Min(t1, t2)
	if s2 < s1 {
		melt = math.Min(melt, (m2-m1)/(s1-s2))
	}
	return m1, s1, melt
}

// apply adds dc·tag_k + da to the slack of every job k in x's subtree.
func (t *slackTree) apply(x int32, dc, da float64) {
	if x < 0 {
		return
	}
	if dc != 0 && !(dc < t.melt[x]) {
		// The minimum may change hands: go down.
		t.push(x)
		t.s[x] += dc*t.tag[t.job[x]] + da
		t.apply(t.left[x], dc, da)
		t.apply(t.right[x], dc, da)
		t.pull(x)
		return
	}
	t.s[x] += dc*t.tag[t.job[x]] + da
	t.mn[x] += dc*t.sl[x] + da
	t.melt[x] -= dc
	t.lzC[x] += dc
	t.lzA[x] += da
}

// push hands x's pending additions to its children.
func (t *slackTree) push(x int32) {
	if c, a := t.lzC[x], t.lzA[x]; c != 0 || a != 0 {
		t.lzC[x], t.lzA[x] = 0, 0
		t.apply(t.left[x], c, a)
		t.apply(t.right[x], c, a)
	}
}

// addAll adds da to every slack.
func (t *slackTree) addAll(da float64) {
	if da != 0 {
		t.apply(t.root, 0, da)
	}
}

// addBefore adds dc·tag_k + da to the slack of every job k before job j
// (j need not be in the tree).
func (t *slackTree) addBefore(j int32, dc, da float64) {
	t.addBeforeIn(t.root, j, dc, da)
}

func (t *slackTree) addBeforeIn(x, j int32, dc, da float64) {
	if x < 0 {
		return
	}
	t.push(x)
	if t.before(t.job[x], j) {
		t.apply(t.left[x], dc, da)
		t.s[x] += dc*t.tag[t.job[x]] + da
		t.addBeforeIn(t.right[x], j, dc, da)
	} else {
		t.addBeforeIn(t.left[x], j, dc, da)
	}
	t.pull(x)
}

// addFrom adds da to the slack of job j and every job after it.
func (t *slackTree) addFrom(j int32, da float64) {
	if da != 0 {
		t.addFromIn(t.root, j, da)
	}
}

func (t *slackTree) addFromIn(x, j int32, da float64) {
	if x < 0 {
		return
	}
	t.push(x)
	if t.before(t.job[x], j) {
		t.addFromIn(t.right[x], j, da)
	} else {
		t.apply(t.right[x], 0, da)
		t.s[x] += da
		t.addFromIn(t.left[x], j, da)
	}
	t.pull(x)
}

// below returns the number of jobs before job j and their sums of tags and
// of w.
func (t *slackTree) below(j int32) (int, float64, float64) {
	c, st, sw := 0, 0.0, 0.0
	for x := t.root; x >= 0; {
		if t.before(t.job[x], j) {
			c++
			st += t.tag[t.job[x]]
			sw += t.w[x]
			if l := t.left[x]; l >= 0 {
				c += int(t.cnt[l])
				st += t.sumTag[l]
				sw += t.sumW[l]
			}
			x = t.right[x]
		} else {
			x = t.left[x]
		}
	}
	return c, st, sw
}

func (t *slackTree) split(x, j int32) (int32, int32) {
	if x < 0 {
		return -1, -1
	}
	t.push(x)
	if t.before(t.job[x], j) {
		a, b := t.split(t.right[x], j)
		t.right[x] = a
		t.pull(x)
		return x, b
	}
	a, b := t.split(t.left[x], j)
	t.left[x] = b
	t.pull(x)
	return a, x
}

func (t *slackTree) merge(a, b int32) int32 {
	if a < 0 {
		return b
	}
	if b < 0 {
		return a
	}
	if t.prio[a] > t.prio[b] {
		t.push(a)
		t.right[a] = t.merge(t.right[a], b)
		t.pull(a)
		return a
	}
	t.push(b)
	t.left[b] = t.merge(a, t.left[b])
	t.pull(b)
	return b
}

// insert adds job j with slack s and estimated remaining work w.
func (t *slackTree) insert(j int32, s, w float64) {
	t.rng ^= t.rng << 13
	t.rng ^= t.rng >> 7
	t.rng ^= t.rng << 17
	x := t.alloc(j)
	t.left[x], t.right[x], t.prio[x] = -1, -1, uint32(t.rng>>32)
	t.s[x], t.w[x], t.lzC[x], t.lzA[x] = s, w, 0, 0
	t.pull(x)
	a, b := t.split(t.root, j)
	t.root = t.merge(t.merge(a, x), b)
}

// remove takes job j out of the tree and returns its w.
func (t *slackTree) remove(j int32) float64 {
	var w float64
	t.root = t.removeIn(t.root, j, &w)
	return w
}

func (t *slackTree) removeIn(x, j int32, w *float64) int32 {
	if x < 0 {
		panic("sim: pfsp slack tree: job not found")
	}
	t.push(x)
	if t.job[x] == j {
		*w = t.w[x]
		t.free = append(t.free, x)
		return t.merge(t.left[x], t.right[x])
	}
	if t.before(j, t.job[x]) {
		t.left[x] = t.removeIn(t.left[x], j, w)
	} else {
		t.right[x] = t.removeIn(t.right[x], j, w)
	}
	t.pull(x)
	return x
}

// setW sets job j's w and returns the old one.
func (t *slackTree) setW(j int32, w float64) float64 {
	var old float64
	t.setWIn(t.root, j, w, &old)
	return old
}

func (t *slackTree) setWIn(x, j int32, w float64, old *float64) {
	if x < 0 {
		panic("sim: pfsp slack tree: job not found")
	}
	if t.job[x] == j {
		*old = t.w[x]
		t.w[x] = w
	} else if t.before(j, t.job[x]) {
		t.setWIn(t.left[x], j, w, old)
	} else {
		t.setWIn(t.right[x], j, w, old)
	}
	// w enters no slack aggregate: no push needed, only the w sums.
	t.pullW(x)
}

// pullW recomputes only the w aggregates of slot x.
func (t *slackTree) pullW(x int32) {
	z := int32(0)
	sw, mpw := t.w[x], math.Inf(1)
	if t.w[x] == 0 {
		z = 1
	} else {
		mpw = t.w[x]
	}
	for _, ch := range [2]int32{t.left[x], t.right[x]} {
		if ch >= 0 {
			z += t.zeros[ch]
			sw += t.sumW[ch]
			mpw = math.Min(mpw, t.minPosW[ch])
		}
	}
	t.zeros[x], t.sumW[x], t.minPosW[x] = z, sw, mpw
}

// first returns the job first in virtual order (−1 if empty).
func (t *slackTree) first() int32 {
	x := t.root
	if x < 0 {
		return -1
	}
	for t.left[x] >= 0 {
		x = t.left[x]
	}
	return t.job[x]
}

// firstW returns the slot of the first job in x's subtree whose w is
// target (0, or the subtree's least positive w).
func (t *slackTree) firstW(x int32, target float64) int32 {
	for {
		if l := t.left[x]; l >= 0 && ((target == 0 && t.zeros[l] > 0) || (target > 0 && t.minPosW[l] == target)) {
			x = l
			continue
		}
		if t.w[x] == target {
			return x
		}
		x = t.right[x]
	}
}
