package task

// coshhUserHeap is an indexed binary min-heap of users keyed by a shared
// key slice (key[u]); ties go to the lower user index, so equal users are
// served in a fixed order (seed 003 Alg. 2 breaks ties at random; a fixed
// order keeps runs reproducible, and the share a pick adds moves the
// picked user behind its equals). pos[u] is u's place in e, −1 outside.
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

func (h *coshhUserHeap) less(a, b int32) bool {
	ka, kb := h.key[a], h.key[b]
	return ka < kb || (ka == kb && a < b)
}

func (h *coshhUserHeap) push(u int32) {
	h.pos[u] = int32(len(h.e))
	h.e = append(h.e, u)
	h.up(len(h.e) - 1)
}

func (h *coshhUserHeap) remove(u int32) {
	i := int(h.pos[u])
	last := len(h.e) - 1
	h.swap(i, last)
	h.e = h.e[:last]
	h.pos[u] = -1
	if i < last {
		h.fixAt(i)
	}
}

// fix restores the order after key[u] changed.
func (h *coshhUserHeap) fix(u int32) {
	if h.pos[u] >= 0 {
		h.fixAt(int(h.pos[u]))
	}
}

func (h *coshhUserHeap) fixAt(i int) {
	if !h.up(i) {
		h.down(i)
	}
}

func (h *coshhUserHeap) swap(i, j int) {
	h.e[i], h.e[j] = h.e[j], h.e[i]
	h.pos[h.e[i]] = int32(i)
	h.pos[h.e[j]] = int32(j)
}

func (h *coshhUserHeap) up(i int) bool {
	moved := false
	for i > 0 {
		p := (i - 1) / 2
		if !h.less(h.e[i], h.e[p]) {
			break
		}
		h.swap(i, p)
		i = p
		moved = true
	}
	return moved
}

func (h *coshhUserHeap) down(i int) {
	n := len(h.e)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		c := l
		if r := l + 1; r < n && h.less(h.e[r], h.e[l]) {
			c = r
		}
		if !h.less(h.e[c], h.e[i]) {
			return
		}
		h.swap(i, c)
		i = c
	}
}

// coshhSeqHeap is a min-heap of jobs by arrival sequence: one user's
// waiting jobs of one class. Jobs that stopped waiting are dropped lazily
// when they reach the top (see coshhRouter's queues).
type coshhSeqHeap []coshhSeqEntry

type coshhSeqEntry struct {
	seq int64
	job int32
}

func (h *coshhSeqHeap) push(x coshhSeqEntry) {
	*h = append(*h, x)
	e := *h
	i := len(e) - 1
	for i > 0 {
		p := (i - 1) / 2
		if e[p].seq <= x.seq {
			break
		}
		e[i] = e[p]
		i = p
	}
	e[i] = x
}

func (h *coshhSeqHeap) pop() {
	e := *h
	last := len(e) - 1
	x := e[last]
	e = e[:last]
	*h = e
	if last == 0 {
		return
	}
	i := 0
	for {
		l := 2*i + 1
		if l >= last {
			break
		}
		c := l
		if r := l + 1; r < last && e[r].seq < e[l].seq {
			c = r
		}
		if x.seq <= e[c].seq {
			break
		}
		e[i] = e[c]
		i = c
	}
	e[i] = x
}
