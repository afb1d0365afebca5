package par

import (
	"sync/atomic"
	"testing"
)

func TestForCallsEachOnce(t *testing.T) {
	for _, tc := range []struct{ n, workers int }{{0, 4}, {1, 4}, {5, 1}, {5, 0}, {100, 3}, {3, 100}} {
		counts := make([]atomic.Int32, tc.n)
		For(tc.n, tc.workers, func(i int) { counts[i].Add(1) })
		for i := range counts {
			if c := counts[i].Load(); c != 1 {
				t.Errorf("n=%d workers=%d: item %d called %d times, want 1", tc.n, tc.workers, i, c)
			}
		}
	}
}
