package lp

import (
	"sync"
	"testing"
)

// Separate models may be solved from several goroutines at once (each CLP
// model is its own C object; the gonum backend shares nothing).
func TestConcurrentSolves(t *testing.T) {
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 50; k++ {
				for _, s := range backends() {
					sol, err := SolveCOSHH(seedExample(), COSHHOptions{Solver: s})
					if err != nil || !near(sol.Lambda, 2.5/2.45, 1e-9) {
						t.Errorf("%s: %v %v", s, sol, err)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
}
