package sim

import (
	"math"

	"github.com/schedplan/schedplan/internal/treap"
)

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
// minimum changes hands). This is the "heaten" operation of ko_osaga's
// kinetic segment tree (codeforces.com/blog/entry/130415), amortised
// polylogarithmic when heaten is the only update; mixed with the constant
// additions to prefixes and suffixes, which can reorder lines, no bound is
// proven here (measured: at most 0.03 recursions per PFSP event). The
// other operations are O(log n) expected. Subtrees also keep job counts and sums of tags and of w (for a
// new job's slack) and the least positive w and the number of jobs with
// w = 0 (for PFSP's choice, see PFSP.choose).
//
// Nodes live in a pool of slots reused through a free list, so memory is
// proportional to the most jobs running at once, not to the jobs of the
// run.
type slackTree struct {
	tag    []float64 // per job (shared with the owner): the order and slopes
	nd     []stNode  // per slot
	free   []int32
	root   int32
	firstJ int32   // the job first in virtual order (−1 if empty)
	firstT float64 // its tag (a copy, for locality)
	firstS int32   // its slot
	rng    treap.Rand
	path   []int32 // arrive's walk down, for finish
	// off is added to every slack the nodes hold: addAll adds to it in
	// O(1) instead of leaving at the root a pending addition that every
	// later walk must push down the whole of its path (PFSP's virtual PS
	// lowers every slack at every event). settle folds it into the nodes
	// when it grows past the slacks' scale, so that the stored slacks do
	// not lose precision.
	off float64
}

// stNode is one slot of a slackTree: a job and its subtree's aggregates.
// It takes two cache lines: the first holds what pull reads of a child
// (the links, counts, sums and the envelope), the second the job's own
// values and the pending additions.
type stNode struct {
	left, right int32
	cnt, zeros  int32   // subtree jobs; subtree jobs with w = 0
	sumTag      float64 // subtree Σ tag
	sumW        float64 // subtree Σ w
	minPosW     float64 // subtree least w > 0 (+Inf if none)
	mn, sl      float64 // subtree least slack; the tag (slope) of its job
	melt        float64 // own-tag additions the subtree's argmin survives

	job      int32
	prio     uint32
	tag      float64 // the job's tag (a copy, for locality)
	s, w     float64 // the job's own slack and w
	lzC, lzA float64 // pending for the children: s_k += lzC·tag_k + lzA
	_        [2]float64
}

func (t *slackTree) reset(tag []float64) {
	t.tag = tag
	t.nd = t.nd[:0]
	t.free = t.free[:0]
	t.root, t.firstJ = -1, -1
	t.rng = treap.Seed
	t.off = 0
}

func (t *slackTree) size() int {
	if t.root < 0 {
		return 0
	}
	return int(t.nd[t.root].cnt)
}

// node makes a node of job j with estimated remaining work w and returns
// its slot. Its aggregates are not set: finish gives it its slack and
// children and pulls it, and nothing reads it before.
func (t *slackTree) node(j int32, w float64) int32 {
	x := treap.Take(&t.nd, &t.free)
	t.nd[x] = stNode{left: -1, right: -1, job: j, prio: t.rng.Next(), tag: t.tag[j], w: w}
	return x
}

// before reports whether slot x's job comes before job j in virtual order.
func (t *slackTree) before(x, j int32) bool {
	n := &t.nd[x]
	return n.tag < t.tag[j] || (n.tag == t.tag[j] && n.job < j)
}

// pull recomputes slot x's subtree aggregates from its own job and its
// children (left, then right). x must have no pending additions (push
// first): the children's minima do not include them. The aggregates are
// built in locals and stored once (the same operations in the same order
// as on the node's fields, without a load and a store each).
func (t *slackTree) pull(x int32) {
	n := &t.nd[x]
	cnt, zeros := int32(1), int32(0)
	sumTag, sumW := n.tag, n.w
	minPosW := math.Inf(1)
	if n.w == 0 {
		zeros = 1
	} else {
		minPosW = n.w
	}
	mn, sl, melt := n.s, n.tag, math.Inf(1)
	for _, y := range [2]int32{n.left, n.right} {
		if y < 0 {
			continue
		}
		c := &t.nd[y]
		cnt += c.cnt
		zeros += c.zeros
		sumTag += c.sumTag
		sumW += c.sumW
		if c.minPosW < minPosW {
			minPosW = c.minPosW
		}
		// Merge the lower envelopes: the lesser minimum wins (ties: the
		// lesser slope, which stays least longer as c grows), and the melt
		// shrinks to when the loser's line crosses the winner's, if it
		// ever does.
		m1, s1, m2, s2 := mn, sl, c.mn, c.sl
		if m2 < m1 || (m2 == m1 && s2 < s1) {
			m1, s1, m2, s2 = m2, s2, m1, s1
		}
		if c.melt < melt {
			melt = c.melt
		}
		if s2 < s1 {
			if x := (m2 - m1) / (s1 - s2); x < melt {
				melt = x
			}
		}
		mn, sl = m1, s1
	}
	n.cnt, n.zeros, n.sumTag, n.sumW, n.minPosW = cnt, zeros, sumTag, sumW, minPosW
	n.mn, n.sl, n.melt = mn, sl, melt
}

// apply adds dc·tag_k + da to the slack of every job k in x's subtree
// (none if x < 0: a call is saved, apply being inlined).
func (t *slackTree) apply(x int32, dc, da float64) {
	if x >= 0 {
		t.applyAt(x, dc, da)
	}
}

// applyAt is apply for a slot x ≥ 0.
func (t *slackTree) applyAt(x int32, dc, da float64) {
	n := &t.nd[x]
	n.s += dc*n.tag + da
	if dc != 0 && !(dc < n.melt) {
		// The minimum may change hands: go down.
		t.push(x)
		t.apply(n.left, dc, da)
		t.apply(n.right, dc, da)
		t.pull(x)
		return
	}
	n.mn += dc*n.sl + da
	n.melt -= dc
	n.lzC += dc
	n.lzA += da
}

// push hands x's pending additions to its children (inlined: most nodes
// have none).
func (t *slackTree) push(x int32) {
	if n := &t.nd[x]; n.lzC != 0 || n.lzA != 0 {
		t.pushDown(n)
	}
}

// pushDown is push for a node with pending additions.
func (t *slackTree) pushDown(n *stNode) {
	c, a := n.lzC, n.lzA
	n.lzC, n.lzA = 0, 0
	t.apply(n.left, c, a)
	t.apply(n.right, c, a)
}

// addAll adds da to every slack.
func (t *slackTree) addAll(da float64) {
	t.off += da
}

// settle folds off into the nodes if it is above scale in magnitude.
func (t *slackTree) settle(scale float64) {
	if math.Abs(t.off) > scale {
		t.apply(t.root, 0, t.off)
		t.off = 0
	}
}

// serve sets job j's w to w and adds da to the slack of j and of every
// job after it.
func (t *slackTree) serve(j int32, w, da float64) {
	t.serveIn(t.root, j, w, da)
}

func (t *slackTree) serveIn(x, j int32, w, da float64) {
	if x < 0 {
		panic("sim: pfsp slack tree: job not found")
	}
	t.push(x)
	n := &t.nd[x]
	switch {
	case n.job == j:
		n.w = w
		n.s += da
		t.apply(n.right, 0, da)
	case t.before(x, j):
		t.serveIn(n.right, j, w, da)
	default:
		n.s += da
		t.apply(n.right, 0, da)
		t.serveIn(n.left, j, w, da)
	}
	t.pull(x)
}

// serveFirst is serve for the job first in virtual order (the one PFSP
// serves in nearly every event): every slack gains da, which goes to the
// offset, and the first job's w changes, which only the w aggregates of
// the leftmost path see (no slack, hence no lazy addition, moves).
func (t *slackTree) serveFirst(w, da float64) {
	t.off += da
	t.path = t.path[:0]
	x := t.root
	for t.nd[x].left >= 0 {
		t.path = append(t.path, x)
		x = t.nd[x].left
	}
	t.nd[x].w = w
	t.pullW(x)
	for i := len(t.path) - 1; i >= 0; i-- {
		t.pullW(t.path[i])
	}
}

// pullW recomputes slot x's aggregates of w (pull's, in pull's order)
// from its own job and its children.
func (t *slackTree) pullW(x int32) {
	n := &t.nd[x]
	n.zeros, n.sumW, n.minPosW = 0, n.w, math.Inf(1)
	if n.w == 0 {
		n.zeros = 1
	} else {
		n.minPosW = n.w
	}
	for _, c := range [2]int32{n.left, n.right} {
		if c >= 0 {
			ch := &t.nd[c]
			n.zeros += ch.zeros
			n.sumW += ch.sumW
			n.minPosW = min(n.minPosW, ch.minPosW)
		}
	}
}

// split splits x's subtree into the jobs before job j and the others.
func (t *slackTree) split(x, j int32) (int32, int32) {
	if x < 0 {
		return -1, -1
	}
	t.push(x)
	n := &t.nd[x]
	if t.before(x, j) {
		a, b := t.split(n.right, j)
		n.right = a
		t.pull(x)
		return x, b
	}
	a, b := t.split(n.left, j)
	n.left = b
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
	if t.nd[a].prio > t.nd[b].prio {
		t.push(a)
		r := t.merge(t.nd[a].right, b)
		t.nd[a].right = r
		t.pull(a)
		return a
	}
	t.push(b)
	l := t.merge(a, t.nd[b].left)
	t.nd[b].left = l
	t.pull(b)
	return b
}

// remove takes job j out of the tree and returns its w.
func (t *slackTree) remove(j int32) float64 {
	return t.removeAdd(j, 0)
}

// removeAdd takes job j out of the tree, adds da to the slacks of the jobs
// after it, and returns j's w.
func (t *slackTree) removeAdd(j int32, da float64) float64 {
	var w float64
	t.root = t.removeIn(t.root, j, da, &w)
	if j == t.firstJ {
		t.firstJ = -1
		if x := t.root; x >= 0 {
			for t.nd[x].left >= 0 {
				x = t.nd[x].left
			}
			t.firstJ, t.firstT, t.firstS = t.nd[x].job, t.nd[x].tag, x
		}
	}
	return w
}

func (t *slackTree) removeIn(x, j int32, da float64, w *float64) int32 {
	if x < 0 {
		panic("sim: pfsp slack tree: job not found")
	}
	t.push(x)
	n := &t.nd[x]
	if n.job == j {
		*w = n.w
		t.free = append(t.free, x)
		t.apply(n.right, 0, da)
		return t.merge(n.left, n.right)
	}
	if t.before(x, j) {
		r := t.removeIn(n.right, j, da, w)
		t.nd[x].right = r
	} else {
		n.s += da
		t.apply(n.right, 0, da)
		l := t.removeIn(n.left, j, da, w)
		t.nd[x].left = l
	}
	t.pull(x)
	return x
}

// first returns the job first in virtual order (−1 if empty) and its tag.
func (t *slackTree) first() (int32, float64) { return t.firstJ, t.firstT }

// arrive starts inserting job j (estimated remaining work w): on its way
// down it adds to every job k before j its own tag minus vt and to every
// job after j the constant d, and returns the new slot and the number of
// jobs before j and their sums of tags and of w. finish must follow, with
// j's slack. The walk goes down while the nodes outrank the new one and
// splits only the subtree below that point (O(1) nodes expected).
func (t *slackTree) arrive(j int32, w, vt, d float64) (x int32, rc int, rs, rw float64) {
	x = t.node(j, w)
	pr := t.nd[x].prio
	t.path = t.path[:0]
	y := t.root
	for y >= 0 && t.nd[y].prio > pr {
		t.push(y)
		t.path = append(t.path, y)
		n := &t.nd[y]
		if t.before(y, j) {
			rc++
			rs += n.tag
			rw += n.w
			if l := n.left; l >= 0 {
				rc += int(t.nd[l].cnt)
				rs += t.nd[l].sumTag
				rw += t.nd[l].sumW
			}
			n.s += n.tag - vt
			t.apply(n.left, 1, -vt)
			y = n.right
		} else {
			n.s += d
			t.apply(n.right, 0, d)
			y = n.left
		}
	}
	a, b := t.split(y, j)
	if a >= 0 {
		rc += int(t.nd[a].cnt)
		rs += t.nd[a].sumTag
		rw += t.nd[a].sumW
		t.apply(a, 1, -vt)
	}
	t.apply(b, 0, d)
	t.nd[x].left, t.nd[x].right = a, b
	return x, rc, rs, rw
}

// finish ends the insertion arrive started: slot x gets slack s and takes
// its place below the walk's path, whose sums are then recomputed.
func (t *slackTree) finish(x int32, s float64) {
	t.nd[x].s = s - t.off
	t.pull(x)
	j := t.nd[x].job
	if k := len(t.path); k == 0 {
		t.root = x
	} else if p := t.path[k-1]; t.before(p, j) {
		t.nd[p].right = x
	} else {
		t.nd[p].left = x
	}
	for i := len(t.path) - 1; i >= 0; i-- {
		t.pull(t.path[i])
	}
	if f := t.firstJ; f < 0 || t.tag[j] < t.tag[f] || (t.tag[j] == t.tag[f] && j < f) {
		t.firstJ, t.firstT, t.firstS = j, t.tag[j], x
	}
}

// firstW returns the slot of the first job in x's subtree whose w is
// target (0, or the subtree's least positive w).
func (t *slackTree) firstW(x int32, target float64) int32 {
	for {
		n := &t.nd[x]
		if l := n.left; l >= 0 && ((target == 0 && t.nd[l].zeros > 0) || (target > 0 && t.nd[l].minPosW == target)) {
			x = l
			continue
		}
		if n.w == target {
			return x
		}
		x = n.right
	}
}
