package task

import "math/bits"

// bitSet is a set of small non-negative integers (job indices) with a
// summary bit per word at each level above, so that add, remove and next
// (the least member ≥ x) are O(log₆₄ n): the ordered sets of FIFO's
// locality index.
type bitSet struct {
	lv [][]uint64 // lv[0]: the members; lv[i+1] bit w: lv[i][w] ≠ 0
}

// reset empties the set and sizes it for members below n.
func (b *bitSet) reset(n int) {
	b.lv = b.lv[:0]
	for {
		w := (n + 63) / 64
		b.lv = append(b.lv, make([]uint64, w))
		if w <= 1 {
			return
		}
		n = w
	}
}

func (b *bitSet) has(x int) bool { return b.lv[0][x>>6]&(1<<(x&63)) != 0 }

func (b *bitSet) add(x int) {
	for _, l := range b.lv {
		w := l[x>>6]
		l[x>>6] = w | 1<<(x&63)
		if w != 0 {
			return
		}
		x >>= 6
	}
}

func (b *bitSet) remove(x int) {
	for _, l := range b.lv {
		l[x>>6] &^= 1 << (x & 63)
		if l[x>>6] != 0 {
			return
		}
		x >>= 6
	}
}

// next returns the least member ≥ x, or −1.
func (b *bitSet) next(x int) int {
	if x < 0 {
		x = 0
	}
	i := 0
	// Climb while the rest of x's word at level i is empty.
	for ; i < len(b.lv); i++ {
		if x>>6 >= len(b.lv[i]) {
			return -1
		}
		if w := b.lv[i][x>>6] >> (x & 63); w != 0 {
			x += bits.TrailingZeros64(w)
			break
		}
		x = x>>6 + 1
	}
	if i == len(b.lv) {
		return -1
	}
	// Descend to the least member below the summary bit found.
	for ; i > 0; i-- {
		i1 := i - 1
		x = x<<6 + bits.TrailingZeros64(b.lv[i1][x])
	}
	return x
}
