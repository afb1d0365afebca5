package sim

import (
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

// TestSlackTreeMatchesBruteForce applies random sequences of the slack
// tree's updates (insert, own-tag additions to a prefix,
// constant additions to a suffix or all, service, of the first job too
// (serveFirst), removal) and checks every job's slack, w and the subtree
// minima and sums of w against plain arrays.
func TestSlackTreeMatchesBruteForce(t *testing.T) {
	for seed := uint64(0); seed < 200; seed++ {
		rng := rand.New(rand.NewPCG(seed, 3))
		const n = 300
		tag := make([]float64, n)
		for i := range tag {
			tag[i] = float64(rng.IntN(50)) // ties on purpose
		}
		var tr slackTree
		tr.reset(tag)
		s, w := map[int32]float64{}, map[int32]float64{}
		next := int32(0)
		before := func(a, b int32) bool { return tag[a] < tag[b] || (tag[a] == tag[b] && a < b) }
		for step := 0; step < 400; step++ {
			switch op := rng.IntN(6); {
			case op <= 1 && next < n:
				j := next
				next++
				vt := rng.Float64() * 10
				d := rng.NormFloat64()
				rc, rs, rw := 0, 0.0, 0.0
				for k := range s {
					if before(k, j) {
						rc++
						rs += tag[k]
						rw += w[k]
						s[k] += tag[k] - vt
					} else {
						s[k] += d
					}
				}
				sj, wj := rng.NormFloat64()*100, 0.0
				if rng.IntN(3) > 0 {
					wj = float64(rng.IntN(20)) // ties and zeros
				}
				x, c, ts, tw := tr.arrive(j, wj, vt, d)
				if c != rc || !close(ts, rs, 1e-12) || !close(tw, rw, 1e-12) {
					t.Fatalf("seed %d: %d jobs before %d with Σ tag %v, Σ w %v; want %d, %v, %v", seed, c, j, ts, tw, rc, rs, rw)
				}
				tr.finish(x, sj)
				s[j], w[j] = sj, wj
			case op == 2:
				d := rng.NormFloat64()
				tr.addAll(d)
				if rng.IntN(3) == 0 {
					tr.settle(0) // fold the offset into the nodes
				}
				for k := range s {
					s[k] += d
				}
			case op == 3 && len(s) > 0:
				j := anyKey(rng, s)
				if rng.IntN(2) == 0 {
					j, _ = tr.first()
				}
				nw, d := float64(rng.IntN(20)), rng.NormFloat64()
				if f, _ := tr.first(); j == f && rng.IntN(4) > 0 {
					tr.serveFirst(nw, d)
				} else {
					tr.serve(j, nw, d)
				}
				w[j] = nw
				for k := range s {
					if !before(k, j) {
						s[k] += d
					}
				}
			case op == 4 && len(s) > 0:
				j := anyKey(rng, s)
				d := rng.NormFloat64()
				if got := tr.removeAdd(j, d); got != w[j] {
					t.Fatalf("seed %d: removeAdd returned w %v, want %v", seed, got, w[j])
				}
				delete(s, j)
				delete(w, j)
				for k := range s {
					if before(j, k) {
						s[k] += d
					}
				}
			}
			checkSlackTree(t, seed, step, &tr, s, w, before)
		}
	}
}

func anyKey(rng *rand.Rand, m map[int32]float64) int32 {
	keys := make([]int32, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(a, b int) bool { return keys[a] < keys[b] })
	return keys[rng.IntN(len(keys))]
}

// checkSlackTree pushes every pending addition down and compares.
func checkSlackTree(t *testing.T, seed uint64, step int, tr *slackTree, s, w map[int32]float64, before func(a, b int32) bool) {
	t.Helper()
	var order []int32
	var walk func(x int32) (float64, float64, int32, float64)
	walk = func(x int32) (float64, float64, int32, float64) {
		if x < 0 {
			return math.Inf(1), math.Inf(1), 0, 0
		}
		tr.push(x)
		n := &tr.nd[x]
		lm, lw, lz, ls := walk(n.left)
		order = append(order, n.job)
		if !close(n.s+tr.off, s[n.job], 1e-9) || n.w != w[n.job] {
			t.Fatalf("seed %d step %d: job %d has s %v w %v, want %v %v", seed, step, n.job, n.s+tr.off, n.w, s[n.job], w[n.job])
		}
		rm, rw, rz, rs := walk(n.right)
		if sw := ls + n.w + rs; !close(n.sumW, sw, 1e-12) {
			t.Fatalf("seed %d step %d: subtree of job %d has Σ w %v, want %v", seed, step, n.job, n.sumW, sw)
		}
		mn := math.Min(n.s+tr.off, math.Min(lm, rm))
		mw, z := math.Min(lw, rw), lz+rz
		if n.w > 0 {
			mw = math.Min(mw, n.w)
		} else {
			z++
		}
		if !close(n.mn+tr.off, mn, 1e-9) || n.minPosW != mw || n.zeros != z {
			t.Fatalf("seed %d step %d: subtree of job %d has min s %v, least w>0 %v, zeros %d; want %v %v %d", seed, step, n.job, n.mn+tr.off, n.minPosW, n.zeros, mn, mw, z)
		}
		return mn, mw, z, n.sumW
	}
	walk(tr.root)
	if len(order) != len(s) || tr.size() != len(s) {
		t.Fatalf("seed %d step %d: %d jobs in the tree, want %d", seed, step, len(order), len(s))
	}
	for i := 1; i < len(order); i++ {
		if !before(order[i-1], order[i]) {
			t.Fatalf("seed %d step %d: jobs %d, %d out of order", seed, step, order[i-1], order[i])
		}
	}
	if f, ft := tr.first(); len(order) > 0 && (f != order[0] || ft != tr.tag[f]) {
		t.Fatalf("seed %d step %d: first() = %d (tag %g), want %d", seed, step, f, ft, order[0])
	}
}
