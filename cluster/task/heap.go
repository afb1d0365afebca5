package task

import "github.com/schedplan/schedplan/internal/treap"

// key orders the items of an indexed heap: by a, then b, then the item's
// rank (heapKeys.rank), else its index (for jobs, the earlier arrival).
type key struct{ a, b float64 }

// heapKeys holds the keys and heap positions of a set of items (jobs or
// queues) that live in at most one heap of the set at a time. The policies
// keep one heapKeys per kind of item and one iheap per queue or ordering.
type heapKeys struct {
	k   []key
	pos []int32 // index in the item's heap, −1 when in none
	// rank, when set, breaks ties of equal keys (the lower first) instead
	// of the index: Fair's queues by name.
	rank []int32
}

func (kk *heapKeys) reset(n int) {
	if cap(kk.k) < n {
		kk.k = make([]key, n)
		kk.pos = make([]int32, n)
	}
	kk.k, kk.pos = kk.k[:n], kk.pos[:n]
	for i := range kk.pos {
		kk.pos[i] = -1
	}
}

func (kk *heapKeys) in(i int32) bool { return kk.pos[i] >= 0 }

func (kk *heapKeys) less(x, y int32) bool {
	a, b := kk.k[x], kk.k[y]
	if a.a != b.a {
		return a.a < b.a
	}
	if a.b != b.b {
		return a.b < b.b
	}
	if kk.rank != nil {
		return kk.rank[x] < kk.rank[y]
	}
	return x < y
}

// iheap is an indexed binary min-heap of items whose keys live in a
// shared heapKeys: push, remove and fix after a key change are O(log n).
type iheap struct {
	kk *heapKeys
	e  []int32
}

func (h *iheap) init(kk *heapKeys) { h.kk, h.e = kk, h.e[:0] }
func (h *iheap) len() int          { return len(h.e) }
func (h *iheap) min() int32        { return h.e[0] }

func (h *iheap) push(i int32) {
	h.e = append(h.e, i)
	h.kk.pos[i] = int32(len(h.e) - 1)
	h.up(len(h.e) - 1)
}

// remove takes item i (which must be in h) out.
func (h *iheap) remove(i int32) {
	p := int(h.kk.pos[i])
	last := len(h.e) - 1
	h.kk.pos[i] = -1
	if p != last {
		x := h.e[last]
		h.e[p] = x
		h.kk.pos[x] = int32(p)
		h.e = h.e[:last]
		if !h.up(p) {
			h.down(p)
		}
		return
	}
	h.e = h.e[:last]
}

// pop removes and returns the minimum.
func (h *iheap) pop() int32 {
	i := h.e[0]
	h.remove(i)
	return i
}

// fix restores the heap after item i's key changed.
func (h *iheap) fix(i int32) {
	p := int(h.kk.pos[i])
	if !h.up(p) {
		h.down(p)
	}
}

// set gives item i key k and puts it in h (or moves it within h).
func (h *iheap) set(i int32, k key) {
	h.kk.k[i] = k
	if h.kk.pos[i] >= 0 {
		h.fix(i)
	} else {
		h.push(i)
	}
}

func (h *iheap) up(p int) bool {
	e, kk := h.e, h.kk
	x := e[p]
	moved := false
	for p > 0 {
		q := (p - 1) / 2
		if !kk.less(x, e[q]) {
			break
		}
		e[p] = e[q]
		kk.pos[e[p]] = int32(p)
		p = q
		moved = true
	}
	e[p] = x
	kk.pos[x] = int32(p)
	return moved
}

func (h *iheap) down(p int) {
	e, kk := h.e, h.kk
	n := len(e)
	x := e[p]
	for {
		l := 2*p + 1
		if l >= n {
			break
		}
		c := l
		if r := l + 1; r < n && kk.less(e[r], e[l]) {
			c = r
		}
		if !kk.less(e[c], x) {
			break
		}
		e[p] = e[c]
		kk.pos[e[p]] = int32(p)
		p = c
	}
	e[p] = x
	kk.pos[x] = int32(p)
}

// first returns the first item in heap order for which ok is true, or −1:
// the items that fail are set aside (in aside, which nested calls may
// share) and put back. O((1 + failures) log n).
func (h *iheap) first(aside *[]int32, ok func(i int32) bool) int32 {
	base := len(*aside)
	found := int32(-1)
	for h.len() > 0 {
		i := h.min()
		if ok(i) {
			found = i
			break
		}
		h.remove(i)
		*aside = append(*aside, i)
	}
	for _, x := range (*aside)[base:] {
		h.push(x)
	}
	*aside = (*aside)[:base]
	return found
}

// takeSlot is treap.Take for the engine's runs: the slot pool of the
// H-PFSP slack system's treap, which PRISM's tasks use too.
func takeSlot[T any](items *[]T, free *[]int32) int32 { return treap.Take(items, free) }

// resize returns s with length n, reusing its array when it is large
// enough (the contents are not cleared).
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
