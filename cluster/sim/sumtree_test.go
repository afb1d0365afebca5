package sim

import (
	"fmt"
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

// BenchmarkSumTree measures sumTree's operations at a steady size (PFSP's
// jobs done for real but not virtually: about 1k at σ = 0.5 and 15k at
// σ = 1 on a 300k-job window, 150k on a 3M one): each op is an insert at
// a random key above the least, a below query at another, and a popMin.
func BenchmarkSumTree(b *testing.B) {
	for _, size := range []int{1000, 15_000, 150_000} {
		b.Run(fmt.Sprint(size), func(b *testing.B) {
			const n = 1 << 20
			rng := rand.New(rand.NewPCG(uint64(size), 9))
			key := make([]float64, n+1)
			for i := range key {
				key[i] = rng.Float64()
			}
			var tr sumTree
			tr.reset(n, key)
			base := 0.0
			next := 0
			add := func() {
				j := next % n
				next++
				key[j] = base + rng.Float64()
				tr.insert(j)
			}
			for range size {
				add()
			}
			sink := 0.0
			cpu0 := cpuSeconds()
			for b.Loop() {
				key[n] = base + rng.Float64()
				c, s := tr.below(n)
				sink += s + float64(c)
				base = tr.minKey()
				tr.popMin()
				add()
			}
			b.ReportMetric((cpuSeconds()-cpu0)/float64(b.N)*1e9, "cpu-ns/op")
			if sink == 0 {
				b.Log(sink)
			}
		})
	}
}
