package sim

import "github.com/schedplan/schedplan/internal/treap"

// sumTree is a B+ tree of jobs keyed by (key, index) that answers "how
// many jobs, and what sum of keys, are below a given key" in O(log n).
// PFSP keeps in it the jobs that finished for real but not in the virtual
// PS; with estimation errors they can be most of the virtual PS (at σ = 1
// the estimates' mean is e^{1/2} times the sizes', and the virtual PS
// overloads), so the structure is built for cache misses: leaves hold up
// to sumLeafCap keys in sorted arrays and inner nodes up to sumFan
// children with each child's count, key sum and least key side by side,
// so a query touches a handful of cache lines per level and there are
// about log_32 n levels (a treap has about 2 ln n, one miss each).
// Jobs leave only from the front (popMin), so nodes are never merged:
// only the leftmost path holds nodes below half full, and they empty. A
// leaf's jobs fill a window of its slots (from lo), so that popMin moves
// none (the window shrinks from the front) and an insert shifts the
// shorter side of the window; sums over a leaf run over the window in
// ascending order, as they always did (the same additions, the same bits).
// An insert adds its key to the sums on its way down and popMin
// subtracts it on the leftmost path (O(1) a level); a node that splits,
// and its new sibling, are summed afresh from the node below, so a sum
// meets as many additions and subtractions as its subtree takes jobs
// between splits and its rounding stays that of a few hundred operations
// (TestSumTreeMatchesSorted's churn). Nodes live in pools
// of slots reused through free lists (memory in proportion to the most
// jobs in the tree at once).
type sumTree struct {
	key    []float64 // per job (shared with the owner)
	lf     []sumLeaf
	in     []sumInner
	freeL  []int32
	freeI  []int32
	root   int32 // a leaf if height is 0, else an inner node; −1 if empty
	height int
	first  int32 // the leftmost leaf (−1 if empty)
	count  int
	// minJ and minK are the least job (−1 if empty) and its key: PFSP
	// asks for them at every event.
	minJ int32
	minK float64
	path []sumStep // insert's walk down
}

const (
	sumLeafCap = 64 // keys per leaf; a full leaf splits
	sumFan     = 32 // children per inner node; a full node splits
)

// sumLeaf is a leaf of a sumTree: its jobs in (key, index) order, in
// slots lo to lo+n−1.
type sumLeaf struct {
	lo, n int32
	key   [sumLeafCap]float64
	job   [sumLeafCap]int32
}

// sumInner is an inner node of a sumTree: per child its slot, its
// subtree's job count and key sum, and its least (key, index) (unused for
// child 0), for routing.
type sumInner struct {
	n     int32
	child [sumFan]int32
	cnt   [sumFan]int32
	sum   [sumFan]float64
	loK   [sumFan]float64
	loJ   [sumFan]int32
}

// sumStep is one step of a walk down: an inner node and the child taken.
type sumStep struct{ x, i int32 }

func (t *sumTree) reset(_ int, key []float64) {
	t.key = key
	t.lf, t.in = t.lf[:0], t.in[:0]
	t.freeL, t.freeI = t.freeL[:0], t.freeI[:0]
	t.root, t.height, t.first, t.count = -1, 0, -1, 0
	t.minJ = -1
}

func (t *sumTree) size() int { return t.count }

// sumLess reports whether (k1, j1) comes before (k2, j2).
func sumLess(k1 float64, j1 int32, k2 float64, j2 int32) bool {
	return k1 < k2 || (k1 == k2 && j1 < j2)
}

// route returns the child of inner node n whose range holds (k, j): the
// last child whose least key is not after it (child 0 if none).
func (n *sumInner) route(k float64, j int32) int32 {
	// The least keys are sorted: first those below k (one comparison
	// each), then those equal to k, whose index decides.
	i := int32(1)
	for i < n.n && n.loK[i] < k {
		i++
	}
	for i < n.n && n.loK[i] == k && n.loJ[i] <= j {
		i++
	}
	return i - 1
}

// tot returns the job count and key sum of the subtree of slot x, a leaf
// if leaf, else an inner node.
func (t *sumTree) tot(x int32, leaf bool) (int32, float64) {
	if leaf {
		l := &t.lf[x]
		s := 0.0
		for _, k := range l.key[l.lo : l.lo+l.n] {
			s += k
		}
		return l.n, s
	}
	n := &t.in[x]
	c, s := int32(0), 0.0
	for i := range n.n {
		c += n.cnt[i]
		s += n.sum[i]
	}
	return c, s
}

// put inserts child y (least key k, j) into inner node x at position i.
func (t *sumTree) put(x, i, y int32, k float64, j int32, leaf bool) {
	n := &t.in[x]
	copy(n.child[i+1:n.n+1], n.child[i:n.n])
	copy(n.cnt[i+1:n.n+1], n.cnt[i:n.n])
	copy(n.sum[i+1:n.n+1], n.sum[i:n.n])
	copy(n.loK[i+1:n.n+1], n.loK[i:n.n])
	copy(n.loJ[i+1:n.n+1], n.loJ[i:n.n])
	n.n++
	n.child[i], n.loK[i], n.loJ[i] = y, k, j
	n.cnt[i], n.sum[i] = t.tot(y, leaf)
}

func (t *sumTree) insert(j int) {
	k, jj := t.key[j], int32(j)
	if t.count == 0 || sumLess(k, jj, t.minK, t.minJ) {
		t.minK, t.minJ = k, jj
	}
	t.count++
	if t.root < 0 {
		x := treap.Take(&t.lf, &t.freeL)
		t.lf[x].lo, t.lf[x].n = 0, 0
		t.root, t.height, t.first = x, 0, x
	}
	// On the way down every child taken gains the key (its count and sum
	// grow by one job and k).
	t.path = t.path[:0]
	x := t.root
	for range t.height {
		n := &t.in[x]
		i := n.route(k, jj)
		n.cnt[i]++
		n.sum[i] += k
		t.path = append(t.path, sumStep{x, i})
		x = n.child[i]
	}
	l := &t.lf[x]
	// p: past the jobs before (k, jj), scanning down from the last:
	// first the keys above k (one comparison each), then those equal to
	// k with a greater index.
	lo, hi := l.lo, l.lo+l.n
	p := hi
	for p > lo && k < l.key[p-1] {
		p--
	}
	for p > lo && k == l.key[p-1] && jj < l.job[p-1] {
		p--
	}
	// Open slot p by shifting the jobs after it up, or those before it
	// down when there is room below and they are fewer (or no room above).
	if lo > 0 && (hi == sumLeafCap || p-lo < hi-p) {
		copy(l.key[lo-1:p-1], l.key[lo:p])
		copy(l.job[lo-1:p-1], l.job[lo:p])
		l.lo--
		p--
	} else {
		copy(l.key[p+1:hi+1], l.key[p:hi])
		copy(l.job[p+1:hi+1], l.job[p:hi])
	}
	l.key[p], l.job[p] = k, jj
	l.n++
	if l.n < sumLeafCap {
		return
	}
	// Split full nodes on the way up; y is x's new right sibling with
	// least key (yk, yj). The sums of a node that splits, and of its new
	// sibling, are summed afresh from the node below. A full leaf's
	// window is all its slots (lo is 0).
	y := treap.Take(&t.lf, &t.freeL)
	{
		l, r := &t.lf[x], &t.lf[y]
		h := int32(sumLeafCap / 2)
		r.lo, r.n = 0, l.n-h
		copy(r.key[:r.n], l.key[h:l.n])
		copy(r.job[:r.n], l.job[h:l.n])
		l.n = h
	}
	yk, yj := t.lf[y].key[0], t.lf[y].job[0]
	leaf := true
	for s := len(t.path) - 1; s >= 0; s-- {
		px, i := t.path[s].x, t.path[s].i
		n := &t.in[px]
		n.cnt[i], n.sum[i] = t.tot(x, leaf)
		t.put(px, i+1, y, yk, yj, leaf)
		x, leaf = px, false
		if n := &t.in[px]; n.n < sumFan {
			return
		}
		y = treap.Take(&t.in, &t.freeI)
		n, r := &t.in[px], &t.in[y]
		h := int32(sumFan / 2)
		r.n = n.n - h
		copy(r.child[:r.n], n.child[h:n.n])
		copy(r.cnt[:r.n], n.cnt[h:n.n])
		copy(r.sum[:r.n], n.sum[h:n.n])
		copy(r.loK[:r.n], n.loK[h:n.n])
		copy(r.loJ[:r.n], n.loJ[h:n.n])
		n.n = h
		yk, yj = r.loK[0], r.loJ[0]
	}
	// The root split: a new root above it.
	r := treap.Take(&t.in, &t.freeI)
	t.in[r].n = 0
	t.put(r, 0, x, 0, 0, leaf)
	t.put(r, 1, y, yk, yj, leaf)
	t.root = r
	t.height++
}

// min returns the job with the least key (−1 if empty).
func (t *sumTree) min() int32 { return t.minJ }

// minKey returns the least key (the tree must not be empty).
func (t *sumTree) minKey() float64 { return t.minK }

// popMin removes the job with the least key.
func (t *sumTree) popMin() {
	l := &t.lf[t.first]
	k := l.key[l.lo]
	l.lo++
	l.n--
	t.count--
	if t.count == 0 {
		t.reset(0, t.key)
		return
	}
	// The leftmost path loses the key, bottom up, dropping the nodes that
	// empty.
	t.path = t.path[:0]
	x := t.root
	for range t.height {
		t.path = append(t.path, sumStep{x, 0})
		x = t.in[x].child[0]
	}
	empty := l.n == 0
	if empty {
		t.freeL = append(t.freeL, x)
	}
	for s := len(t.path) - 1; s >= 0; s-- {
		px := t.path[s].x
		n := &t.in[px]
		if empty {
			copy(n.child[:n.n-1], n.child[1:n.n])
			copy(n.cnt[:n.n-1], n.cnt[1:n.n])
			copy(n.sum[:n.n-1], n.sum[1:n.n])
			copy(n.loK[:n.n-1], n.loK[1:n.n])
			copy(n.loJ[:n.n-1], n.loJ[1:n.n])
			n.n--
			empty = n.n == 0
			if empty {
				t.freeI = append(t.freeI, px)
			}
		} else {
			n.cnt[0]--
			n.sum[0] -= k
		}
	}
	if l.n > 0 {
		// The leftmost leaf stays, and no node emptied.
		t.minK, t.minJ = l.key[l.lo], l.job[l.lo]
		return
	}
	// A root with one child gives way to it.
	for t.height > 0 && t.in[t.root].n == 1 {
		t.freeI = append(t.freeI, t.root)
		t.root = t.in[t.root].child[0]
		t.height--
	}
	x = t.root
	for range t.height {
		x = t.in[x].child[0]
	}
	t.first = x
	l = &t.lf[x]
	t.minK, t.minJ = l.key[l.lo], l.job[l.lo]
}

// below returns the number and key sum of the jobs ordered before job j
// (by key, then index); j need not be in the tree.
func (t *sumTree) below(j int32) (int, float64) {
	if t.root < 0 {
		return 0, 0
	}
	k := t.key[j]
	c, s := 0, 0.0
	x := t.root
	for range t.height {
		// route's scan, summing the children it passes (one loop, not
		// two: the same additions in the same order).
		n := &t.in[x]
		i := int32(0)
		for i+1 < n.n && n.loK[i+1] < k {
			c += int(n.cnt[i])
			s += n.sum[i]
			i++
		}
		for i+1 < n.n && n.loK[i+1] == k && n.loJ[i+1] <= j {
			c += int(n.cnt[i])
			s += n.sum[i]
			i++
		}
		x = n.child[i]
	}
	l := &t.lf[x]
	for m := l.lo; m < l.lo+l.n; m++ {
		if !sumLess(l.key[m], l.job[m], k, j) {
			break
		}
		c++
		s += l.key[m]
	}
	return c, s
}
