package task

import (
	"math/rand/v2"
	"testing"
)

// bitSet against a map: next is the least member ≥ x.
func TestBitSetNext(t *testing.T) {
	for _, n := range []int{1, 63, 64, 65, 4095, 4097, 300000} {
		var b bitSet
		b.reset(n)
		in := make([]bool, n)
		rng := rand.New(rand.NewPCG(uint64(n), 1))
		for step := range 3000 {
			x := rng.IntN(n)
			if rng.IntN(3) == 0 {
				b.remove(x)
				in[x] = false
			} else {
				b.add(x)
				in[x] = true
			}
			q := rng.IntN(n + 1)
			want := -1
			for y := q; y < n; y++ {
				if in[y] {
					want = y
					break
				}
			}
			if got := b.next(q); got != want {
				t.Fatalf("n %d, step %d: next(%d) = %d, want %d", n, step, q, got, want)
			}
			if b.has(x) != in[x] {
				t.Fatalf("n %d, step %d: has(%d) = %v", n, step, x, b.has(x))
			}
		}
	}
}
