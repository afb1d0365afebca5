package coshh

import "container/heap"

// coshhUserHeap is an indexed min-heap of users keyed by a shared key slice
// (key[u]), on container/heap; ties go to the lower user index, so equal
// users are served in a fixed order (seed 003 Alg. 2 breaks ties at
// random; a fixed order keeps runs reproducible, and the share a pick adds
// moves the picked user behind its equals). pos[u] is u's place in e, −1
// outside.
type coshhUserHeap struct {
	e   []int32
	pos []int32
	key []float64
}

func (h *coshhUserHeap) init(users int, key []float64) {
	h.e = h.e[:0]
	h.key = key
	if cap(h.pos) < users {
		h.pos = make([]int32, users)
	}
	h.pos = h.pos[:users]
	for u := range h.pos {
		h.pos[u] = -1
	}
}

// heap.Interface.
func (h *coshhUserHeap) Len() int { return len(h.e) }
func (h *coshhUserHeap) Less(i, j int) bool {
	a, b := h.e[i], h.e[j]
	ka, kb := h.key[a], h.key[b]
	return ka < kb || (ka == kb && a < b)
}
func (h *coshhUserHeap) Swap(i, j int) {
	h.e[i], h.e[j] = h.e[j], h.e[i]
	h.pos[h.e[i]] = int32(i)
	h.pos[h.e[j]] = int32(j)
}
func (h *coshhUserHeap) Push(x any) {
	u := x.(int32)
	h.pos[u] = int32(len(h.e))
	h.e = append(h.e, u)
}
func (h *coshhUserHeap) Pop() any {
	u := h.e[len(h.e)-1]
	h.e = h.e[:len(h.e)-1]
	h.pos[u] = -1
	return u
}

func (h *coshhUserHeap) push(u int32)   { heap.Push(h, u) }
func (h *coshhUserHeap) remove(u int32) { heap.Remove(h, int(h.pos[u])) }

// fix restores the order after key[u] changed.
func (h *coshhUserHeap) fix(u int32) {
	if h.pos[u] >= 0 {
		heap.Fix(h, int(h.pos[u]))
	}
}

// coshhSeqHeap is a min-heap of jobs by arrival sequence, on
// container/heap: one user's waiting jobs of one class. Jobs that stopped
// waiting are dropped lazily when they reach the top (see
// COSHHRouter.earliest).
type coshhSeqHeap []coshhSeqEntry

type coshhSeqEntry struct {
	seq int64
	job int32
}

// heap.Interface.
func (h coshhSeqHeap) Len() int           { return len(h) }
func (h coshhSeqHeap) Less(i, j int) bool { return h[i].seq < h[j].seq }
func (h coshhSeqHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *coshhSeqHeap) Push(x any)        { *h = append(*h, x.(coshhSeqEntry)) }
func (h *coshhSeqHeap) Pop() any {
	x := (*h)[len(*h)-1]
	*h = (*h)[:len(*h)-1]
	return x
}

func (h *coshhSeqHeap) push(x coshhSeqEntry) { heap.Push(h, x) }
func (h *coshhSeqHeap) pop()                 { heap.Pop(h) }
