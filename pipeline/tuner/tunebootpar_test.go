package tuner

import (
	"context"
	"sync"
	"testing"
	"time"
)

// The bootstrap's simulations (the chosen configuration and the current
// scheduler on every scored fold, the only scores that keep per-job
// results) run side by side on the workers, and the interval is the same
// on one worker as on two.
func TestBootstrapSimulatesInParallel(t *testing.T) {
	jobs := poissonJobs(5, 3000, 1.2, 8)
	inner := SimulateWindows(nil, 1)
	var ivs []Interval
	for _, workers := range []int{1, 2} {
		var mu sync.Mutex
		inFlight, most := 0, 0
		score := func(ctx context.Context, spec string, w *ScoreWindow, keep bool) (Score, []float64, error) {
			if keep {
				mu.Lock()
				inFlight++
				most = max(most, inFlight)
				mu.Unlock()
				time.Sleep(20 * time.Millisecond) // overlap with the next one when they run together
				defer func() {
					mu.Lock()
					inFlight--
					mu.Unlock()
				}()
			}
			return inner(ctx, spec, w, keep)
		}
		res, err := TuneCV(context.Background(), jobs, 1, TuneOptions{Budget: 40, Folds: 3, Workers: workers}, score)
		if err != nil {
			t.Fatal(err)
		}
		if res.Chosen == res.CurrentIdx {
			t.Fatal("the choice is the current scheduler: no bootstrap simulation to check")
		}
		if want := min(workers, 2); most != want {
			t.Errorf("%d workers: %d bootstrap simulations at once, want %d", workers, most, want)
		}
		ivs = append(ivs, res.CI)
	}
	if ivs[0] != ivs[1] {
		t.Errorf("interval on one worker %+v, on two %+v", ivs[0], ivs[1])
	}
}
