// Package treap holds the parts the simulation cores' treaps share: the
// source of node priorities and the pool of node slots. The treaps are the
// fluid PFSP's sum treap and kinetic slack tree (cluster/sim treap.go,
// pfsptree.go) and the H-PFSP slack system (cluster/task/hpfsp,
// hpfsp_slack.go); it imports nothing, so both packages use it. PRISM's
// phase-level simulator (cluster/task/prism) takes slots from its pool.
//
// Each treap keeps its own split, merge and descents. They share a shape,
// not code: each level of a split or merge compares keys and calls the
// tree's push and pull, which read and write that tree's own aggregates
// and lazy tags, and Go compiles a call through a type parameter as an
// indirect call through the instantiation's dictionary, which is not
// inlined. A generic Split and Merge with those hooks (tried: Links
// embedded in the nodes, hooks Link, Push and Pull) made the slack
// system's Reestimate 29% and its Arrive+Leave 16% slower at 100,000 jobs
// (CPU ns/op, medians of 5), so they stay with their trees.
package treap

// Rand is the source of node priorities: a xorshift64 generator (shifts
// 13, 7, 17) whose high 32 bits are a priority. Start it at Seed.
type Rand uint64

// Seed is the state every treap starts from, so that runs are
// reproducible (the high bits of the golden ratio).
const Seed Rand = 0x9e3779b97f4a7c15

// Next advances the generator and returns a priority.
func (r *Rand) Next() uint32 {
	x := uint64(*r)
	x ^= x << 13
	x ^= x >> 7
	x ^= x << 17
	*r = Rand(x)
	return uint32(x >> 32)
}

// Take returns the index of an element of *items for the caller to fill:
// the last slot of the free list *free (taken off it, its old value left
// as it was), or else a zero element appended to *items. With the freed
// slots appended to *free, memory is in proportion to the most elements
// in use at once.
func Take[T any](items *[]T, free *[]int32) int32 {
	if k := len(*free); k > 0 {
		i := (*free)[k-1]
		*free = (*free)[:k-1]
		return i
	}
	var zero T
	*items = append(*items, zero)
	return int32(len(*items) - 1)
}
