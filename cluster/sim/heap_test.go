package sim

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestKeyHeapMatchesSortedSet pushes and pops random keys (many ties, so
// the index decides), lowering the root's key now and then as LAS_MQ
// does, and checks every minimum against a sorted reference set.
func TestKeyHeapMatchesSortedSet(t *testing.T) {
	rng := rand.New(rand.NewPCG(30, 4))
	for inst := range 200 {
		var h keyHeap
		var ref []heapEntry
		next := 0
		for range 1 + rng.IntN(2000) {
			switch op := rng.IntN(10); {
			case op < 5 || len(ref) == 0:
				k := float64(rng.IntN(1 + inst%50))
				h.push(k, next)
				ref = append(ref, heapEntry{k, int32(next)})
				next++
			case op < 9:
				got := h.pop()
				if want := ref[0]; got != want {
					t.Fatalf("instance %d: pop %+v, want %+v", inst, got, want)
				}
				ref = ref[1:]
				continue
			default:
				h.e[0].key -= float64(rng.IntN(3))
				ref[0].key = h.e[0].key
			}
			slices.SortFunc(ref, func(a, b heapEntry) int {
				if a.less(b) {
					return -1
				}
				if b.less(a) {
					return 1
				}
				return 0
			})
			if h.len() != len(ref) || h.min() != ref[0] {
				t.Fatalf("instance %d: min %+v of %d, want %+v of %d", inst, h.min(), h.len(), ref[0], len(ref))
			}
		}
	}
}
