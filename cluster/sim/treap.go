package sim

// sumTreap is a treap of jobs keyed by (key, index) that answers "how many
// jobs, and what sum of keys, are below a given key" in O(log n) expected.
// PFSP keeps in it the jobs that finished for real but not in the virtual
// PS. Nodes live in arrays indexed by job.
type sumTreap struct {
	key         []float64 // per job (shared with the owner)
	left, right []int32
	prio        []uint32
	cnt         []int32
	sum         []float64
	root        int32
	rng         uint64
}

func (t *sumTreap) reset(n int, key []float64) {
	t.key = key
	if cap(t.left) < n {
		t.left = make([]int32, n)
		t.right = make([]int32, n)
		t.prio = make([]uint32, n)
		t.cnt = make([]int32, n)
		t.sum = make([]float64, n)
	}
	t.left, t.right, t.prio, t.cnt, t.sum = t.left[:n], t.right[:n], t.prio[:n], t.cnt[:n], t.sum[:n]
	t.root = -1
	t.rng = 0x9e3779b97f4a7c15
}

func (t *sumTreap) size() int {
	if t.root < 0 {
		return 0
	}
	return int(t.cnt[t.root])
}

func (t *sumTreap) less(a, b int32) bool {
	return t.key[a] < t.key[b] || (t.key[a] == t.key[b] && a < b)
}

func (t *sumTreap) pull(x int32) {
	c, s := int32(1), t.key[x]
	if l := t.left[x]; l >= 0 {
		c += t.cnt[l]
		s += t.sum[l]
	}
	if r := t.right[x]; r >= 0 {
		c += t.cnt[r]
		s += t.sum[r]
	}
	t.cnt[x], t.sum[x] = c, s
}

// split splits x into (< j) and (≥ j) by (key, index).
func (t *sumTreap) split(x, j int32) (int32, int32) {
	if x < 0 {
		return -1, -1
	}
	if t.less(x, j) {
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

func (t *sumTreap) merge(a, b int32) int32 {
	if a < 0 {
		return b
	}
	if b < 0 {
		return a
	}
	if t.prio[a] > t.prio[b] {
		t.right[a] = t.merge(t.right[a], b)
		t.pull(a)
		return a
	}
	t.left[b] = t.merge(a, t.left[b])
	t.pull(b)
	return b
}

func (t *sumTreap) insert(j int) {
	t.rng ^= t.rng << 13
	t.rng ^= t.rng >> 7
	t.rng ^= t.rng << 17
	x := int32(j)
	t.left[x], t.right[x], t.prio[x] = -1, -1, uint32(t.rng>>32)
	t.pull(x)
	a, b := t.split(t.root, x)
	t.root = t.merge(t.merge(a, x), b)
}

// min returns the job with the least key (−1 if empty).
func (t *sumTreap) min() int32 {
	x := t.root
	if x < 0 {
		return -1
	}
	for t.left[x] >= 0 {
		x = t.left[x]
	}
	return x
}

// popMin removes the job with the least key.
func (t *sumTreap) popMin() {
	t.root = t.popMinFrom(t.root)
}

func (t *sumTreap) popMinFrom(x int32) int32 {
	if t.left[x] < 0 {
		return t.right[x]
	}
	t.left[x] = t.popMinFrom(t.left[x])
	t.pull(x)
	return x
}

// below returns the number and key sum of the jobs ordered before job j
// (by key, then index); j need not be in the treap.
func (t *sumTreap) below(j int32) (int, float64) {
	c, s := 0, 0.0
	for x := t.root; x >= 0; {
		if t.less(x, j) {
			c++
			s += t.key[x]
			if l := t.left[x]; l >= 0 {
				c += int(t.cnt[l])
				s += t.sum[l]
			}
			x = t.right[x]
		} else {
			x = t.left[x]
		}
	}
	return c, s
}
