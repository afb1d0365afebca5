package sim

// keyHeap is a binary min-heap of jobs keyed by a float64 that does not
// change while the job is in the heap; ties go to the lower job index
// (the earlier arrival). An entry may carry a payload the heap never
// reads (pushEntry): LAS_MQ's slot of the job, whose number does not
// follow arrival order (freed slots are taken again) and so cannot stand
// for the index.
type keyHeap struct {
	e []heapEntry
}

type heapEntry struct {
	key float64
	j   int32 // the job's index: ties go to the lower one
	s   int32 // the payload (LAS_MQ's slot), in the padding: 16 B either way
}

func (a heapEntry) less(b heapEntry) bool {
	return a.key < b.key || (a.key == b.key && a.j < b.j)
}

func (h *keyHeap) reset()         { h.e = h.e[:0] }
func (h *keyHeap) len() int       { return len(h.e) }
func (h *keyHeap) min() heapEntry { return h.e[0] }

func (h *keyHeap) push(key float64, j int) { h.pushEntry(heapEntry{key: key, j: int32(j)}) }

func (h *keyHeap) pushEntry(x heapEntry) {
	h.e = append(h.e, x)
	e := h.e
	i := len(e) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !x.less(e[p]) {
			break
		}
		e[i] = e[p]
		i = p
	}
	e[i] = x
}

func (h *keyHeap) pop() heapEntry {
	e := h.e
	top := e[0]
	last := len(e) - 1
	x := e[last]
	e = e[:last]
	h.e = e
	if last == 0 {
		return top
	}
	i := 0
	for {
		l := 2*i + 1
		if l >= last {
			break
		}
		c := l
		if r := l + 1; r < last && e[r].less(e[l]) {
			c = r
		}
		if !e[c].less(x) {
			break
		}
		e[i] = e[c]
		i = c
	}
	e[i] = x
	return top
}

// pairing is a set of pairing heaps over job indices keyed by key[j] (ties
// to the lower index); a heap is named by its root (−1: empty). Meld is
// O(1), pop O(log n) amortised. LAS uses it to merge whole groups of jobs
// in O(1).
type pairing struct {
	key         []float64
	child, next []int32
}

// reset sizes the heaps for n jobs, in sc's int32 slots when it lends
// them.
func (p *pairing) reset(n int, sc *scratch) {
	p.child, p.next = sc.int32s(0, p.child, n), sc.int32s(1, p.next, n)
}

func (p *pairing) less(a, b int32) bool {
	return p.key[a] < p.key[b] || (p.key[a] == p.key[b] && a < b)
}

// single makes j a one-node heap.
func (p *pairing) single(j int) int32 {
	p.child[j], p.next[j] = -1, -1
	return int32(j)
}

// meld merges two heaps whose roots have no siblings.
func (p *pairing) meld(a, b int32) int32 {
	if a < 0 {
		return b
	}
	if b < 0 {
		return a
	}
	if p.less(b, a) {
		a, b = b, a
	}
	p.next[b] = p.child[a]
	p.child[a] = b
	return a
}

// pop removes the root and returns the new root (two-pass pairing).
func (p *pairing) pop(root int32) int32 {
	c := p.child[root]
	p.child[root] = -1
	list := int32(-1)
	for c >= 0 {
		a := c
		b := p.next[a]
		if b < 0 {
			p.next[a] = list
			list = a
			break
		}
		c = p.next[b]
		p.next[a], p.next[b] = -1, -1
		m := p.meld(a, b)
		p.next[m] = list
		list = m
	}
	r := int32(-1)
	for list >= 0 {
		nx := p.next[list]
		p.next[list] = -1
		r = p.meld(r, list)
		list = nx
	}
	return r
}
