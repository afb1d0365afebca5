package sim

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSumTreeMatchesSorted drives a sumTree with random inserts (keys with
// ties), popMins and below queries, and compares every answer with a
// sorted slice: counts exactly, sums within 1e-12 relative. The cases
// cover one leaf, a few levels, the tree emptying and growing again, and a
// long churn.
func TestSumTreeMatchesSorted(t *testing.T) {
	for _, tc := range []struct {
		name      string
		n, levels int     // jobs; distinct key levels (ties when few)
		pPop      float64 // chance that a step pops the least
	}{
		{"one leaf", 50, 1000, 0.3},
		{"ties", 5000, 7, 0.3},
		{"grows", 50_000, 1 << 30, 0.2},
		{"drains", 20_000, 1 << 30, 0.55},
		// A long churn at a steady size: the sums, kept by adding and
		// subtracting, must not drift.
		{"churn", 300_000, 1 << 30, 0.499},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tc.n), 7))
			key := make([]float64, tc.n+1)
			var tr sumTree
			tr.reset(tc.n, key)
			type item struct {
				k float64
				j int32
			}
			var ref []item
			cmp := func(a, b item) int {
				if sumLess(a.k, a.j, b.k, b.j) {
					return -1
				}
				if sumLess(b.k, b.j, a.k, a.j) {
					return 1
				}
				return 0
			}
			next := 0
			for step := 0; next < tc.n; step++ {
				if len(ref) > 0 && rng.Float64() < tc.pPop {
					if got, want := tr.min(), ref[0].j; got != want {
						t.Fatalf("step %d: min = %d, want %d", step, got, want)
					}
					tr.popMin()
					ref = ref[1:]
				} else {
					key[next] = float64(rng.IntN(tc.levels)) * 0.37
					it := item{key[next], int32(next)}
					p, _ := slices.BinarySearchFunc(ref, it, cmp)
					ref = slices.Insert(ref, p, it)
					tr.insert(next)
					next++
				}
				if tr.size() != len(ref) {
					t.Fatalf("step %d: size = %d, want %d", step, tr.size(), len(ref))
				}
				if step%97 != 0 && len(ref) > 5000 {
					continue // the slow reference sum: sampled on big trees
				}
				// A query for a job not in the tree (index n), at a
				// random key.
				key[tc.n] = float64(rng.IntN(tc.levels)) * 0.37
				q := item{key[tc.n], int32(tc.n)}
				wc, ws := 0, 0.0
				for _, it := range ref {
					if cmp(it, q) >= 0 {
						break
					}
					wc++
					ws += it.k
				}
				c, s := tr.below(int32(tc.n))
				if c != wc || math.Abs(s-ws) > 1e-12*math.Max(1, math.Abs(ws)) {
					t.Fatalf("step %d: below(%g) = %d, %g; want %d, %g", step, q.k, c, s, wc, ws)
				}
			}
		})
	}
}
