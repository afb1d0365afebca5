package sim

import "github.com/schedplan/schedplan/internal/treap"

// sumTreap is a treap of jobs keyed by (key, index) that answers "how many
// jobs, and what sum of keys, are below a given key" in O(log n) expected.
// PFSP keeps in it the jobs that finished for real but not in the virtual
// PS. Nodes live in a pool of slots reused through a free list (memory in
// proportion to the most jobs in the treap at once), each slot holding its
// key, so that a search touches one cache line per level; inserting goes
// down from the root and splits only the small subtree below the new node
// (O(1) rotations expected), removing the least node is one walk down.
type sumTreap struct {
	key   []float64 // per job (shared with the owner)
	nd    []sumNode
	free  []int32
	root  int32
	first int32 // slot of the least job (−1 if empty), kept for min
	rng   treap.Rand
	path  []int32 // the nodes above an insertion or removal, to re-sum
}

type sumNode struct {
	key         float64
	sum         float64 // Σ key over the subtree
	left, right int32
	job         int32
	cnt         int32
	prio        uint32
}

func (t *sumTreap) reset(_ int, key []float64) {
	t.key = key
	t.nd = t.nd[:0]
	t.free = t.free[:0]
	t.root, t.first = -1, -1
	t.rng = treap.Seed
}

func (t *sumTreap) size() int {
	if t.root < 0 {
		return 0
	}
	return int(t.nd[t.root].cnt)
}

// less reports whether slot x's job is ordered before job j with key k.
func (t *sumTreap) less(x int32, k float64, j int32) bool {
	n := &t.nd[x]
	return n.key < k || (n.key == k && n.job < j)
}

func (t *sumTreap) pull(x int32) {
	n := &t.nd[x]
	c, s := int32(1), n.key
	if l := n.left; l >= 0 {
		c += t.nd[l].cnt
		s += t.nd[l].sum
	}
	if r := n.right; r >= 0 {
		c += t.nd[r].cnt
		s += t.nd[r].sum
	}
	n.cnt, n.sum = c, s
}

// split splits x's subtree into the jobs before (k, j) and the others.
func (t *sumTreap) split(x int32, k float64, j int32) (int32, int32) {
	if x < 0 {
		return -1, -1
	}
	if t.less(x, k, j) {
		a, b := t.split(t.nd[x].right, k, j)
		t.nd[x].right = a
		t.pull(x)
		return x, b
	}
	a, b := t.split(t.nd[x].left, k, j)
	t.nd[x].left = b
	t.pull(x)
	return a, x
}

func (t *sumTreap) insert(j int) {
	x := treap.Take(&t.nd, &t.free)
	k, jj, pr := t.key[j], int32(j), t.rng.Next()
	t.nd[x] = sumNode{key: k, sum: k, left: -1, right: -1, job: jj, cnt: 1, prio: pr}
	if t.first < 0 || t.less(x, t.nd[t.first].key, t.nd[t.first].job) {
		t.first = x
	}
	// Walk down while the nodes outrank the new one, split the subtree
	// found there around it, and re-sum the nodes above (sums are
	// recomputed, not updated, so that they do not drift).
	link := &t.root
	t.path = t.path[:0]
	for *link >= 0 && t.nd[*link].prio > pr {
		y := *link
		t.path = append(t.path, y)
		if t.less(y, k, jj) {
			link = &t.nd[y].right
		} else {
			link = &t.nd[y].left
		}
	}
	a, b := t.split(*link, k, jj)
	t.nd[x].left, t.nd[x].right = a, b
	t.pull(x)
	*link = x
	t.repull()
}

// repull re-sums the nodes on path, bottom up.
func (t *sumTreap) repull() {
	for i := len(t.path) - 1; i >= 0; i-- {
		t.pull(t.path[i])
	}
}

// min returns the job with the least key (−1 if empty).
func (t *sumTreap) min() int32 {
	if t.first < 0 {
		return -1
	}
	return t.nd[t.first].job
}

// popMin removes the job with the least key.
func (t *sumTreap) popMin() {
	link := &t.root
	t.path = t.path[:0]
	for t.nd[*link].left >= 0 {
		y := *link
		t.path = append(t.path, y)
		link = &t.nd[y].left
	}
	x := *link
	*link = t.nd[x].right
	t.free = append(t.free, x)
	t.repull()
	y := t.root
	if y >= 0 {
		for t.nd[y].left >= 0 {
			y = t.nd[y].left
		}
	}
	t.first = y
}

// below returns the number and key sum of the jobs ordered before job j
// (by key, then index); j need not be in the treap.
func (t *sumTreap) below(j int32) (int, float64) {
	c, s := 0, 0.0
	k := t.key[j]
	for x := t.root; x >= 0; {
		n := &t.nd[x]
		if n.key < k || (n.key == k && n.job < j) {
			c++
			s += n.key
			if l := n.left; l >= 0 {
				c += int(t.nd[l].cnt)
				s += t.nd[l].sum
			}
			x = n.right
		} else {
			x = n.left
		}
	}
	return c, s
}
