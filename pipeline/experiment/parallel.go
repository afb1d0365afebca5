package experiment

import (
	"context"
	"sync"

	"github.com/schedplan/schedplan/data"
)

// ParallelFor calls f(w, i) for every i in [0, n) on up to workers
// goroutines; w is the worker's number (0 ≤ w < workers), so f can keep
// per-worker buffers. Results must be stored by i, so that they do not depend
// on the number of workers. It returns the error of the smallest i that
// failed; once an f has failed, or ctx is cancelled, no further i is started
// (a cancellation returns ctx.Err()).
func ParallelFor(ctx context.Context, n, workers int, f func(w, i int) error) error {
	workers = max(1, min(workers, n))
	errs := make([]error, n)
	next := make(chan int)
	stop := make(chan struct{})
	var once sync.Once
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if errs[i] = catching(f, w, i); errs[i] != nil {
					once.Do(func() { close(stop) })
				}
			}
		}()
	}
feed:
	for i := 0; i < n; i++ {
		select {
		case next <- i:
		case <-stop:
			break feed
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return err
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// catching is f(w, i), a read past a column's release (a
// data.DroppedRowError panic) returned as its error.
func catching(f func(w, i int) error, w, i int) (err error) {
	defer data.CatchDroppedRow(&err)
	return f(w, i)
}
