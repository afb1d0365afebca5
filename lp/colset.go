package lp

import "math/bits"

// colSet is a set of COSHH column indices idx = k*nt+t (active class k,
// type t): one bit per column, so that pricing's "is it in the master?"
// look-up, made for most candidate columns of every round, is a load and
// a mask instead of a hash-map probe (at 20,000 × 5,000 the bits take
// 12.5 MB).
type colSet struct {
	words []uint64
	n     int
}

func newColSet(size int) colSet { return colSet{words: make([]uint64, (size+63)/64)} }

// has reports whether idx is in the set.
func (s *colSet) has(idx int) bool { return s.words[idx>>6]&(1<<(idx&63)) != 0 }

// add puts idx in the set and reports whether it was not there before.
func (s *colSet) add(idx int) bool {
	w, m := idx>>6, uint64(1)<<(idx&63)
	if s.words[w]&m != 0 {
		return false
	}
	s.words[w] |= m
	s.n++
	return true
}

// remove takes idx out of the set.
func (s *colSet) remove(idx int) {
	w, m := idx>>6, uint64(1)<<(idx&63)
	if s.words[w]&m != 0 {
		s.words[w] &^= m
		s.n--
	}
}

// len is the number of columns in the set.
func (s *colSet) len() int { return s.n }

// appendAll appends the set's columns to out in ascending order.
func (s *colSet) appendAll(out []int) []int {
	for w, word := range s.words {
		for word != 0 {
			out = append(out, w<<6+bits.TrailingZeros64(word))
			word &= word - 1
		}
	}
	return out
}
