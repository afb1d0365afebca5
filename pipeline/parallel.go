package pipeline

import "sync"

// ParallelFor calls f(w, i) for every i in [0, n) on up to workers
// goroutines; w is the worker's number (0 ≤ w < workers), so f can keep
// per-worker buffers. Results must be stored by i, so that they do not depend
// on the number of workers. It returns the error of the smallest i that
// failed.
func ParallelFor(n, workers int, f func(w, i int) error) error {
	workers = max(1, min(workers, n))
	errs := make([]error, n)
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				errs[i] = f(w, i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
