// Package par runs the iterations of a loop on several goroutines: the one
// worker pool of the packages whose work splits into independent items
// (k-means restarts and chunks, silhouette rows, Parquet column chunks,
// the buckets of a parallel radix sort).
package par

import (
	"sync"
	"sync/atomic"
)

// For calls do(i) for every i in [0, n) on up to workers goroutines, each
// taking the next i as it finishes one; with one worker (or one item) it
// runs the loop on the calling goroutine. do must store its results by i.
func For(n, workers int, do func(i int)) {
	workers = min(workers, n)
	if workers <= 1 {
		for i := 0; i < n; i++ {
			do(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	wg.Add(workers)
	for w := 0; w < workers; w++ {
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				do(i)
			}
		}()
	}
	wg.Wait()
}
