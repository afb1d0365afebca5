package tuner

import (
	"reflect"
	"runtime"
	"testing"
)

// TestCVWindowsSameOnAnyProcs builds sampled and whole (check) windows
// with σ runs on one core and on four: the chunks are built side by side,
// and the windows (blocks, weights, deadlines, estimates) and folds must be
// the same.
func TestCVWindowsSameOnAnyProcs(t *testing.T) {
	jobs := poissonJobs(7, 6000, 1.2, 50)
	bounds := []int{0, 1000, 2500, 4000, 6000}
	sigmas := []float64{0, 0.5, 1}
	for _, tc := range []struct{ sample, check int }{{400, 0}, {1e6, 0}, {400, 700}, {400, 1e6}} {
		build := func(procs int) ([][]*ScoreWindow, []FoldInfo) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			w, f, err := CVWindows(jobs, 1, bounds, sigmas, tc.sample, 3, tc.check)
			if err != nil {
				t.Fatal(err)
			}
			return w, f
		}
		w1, f1 := build(1)
		w4, f4 := build(4)
		if !reflect.DeepEqual(f1, f4) {
			t.Errorf("sample %d, check %d: folds differ on 1 and 4 cores:\n%+v\n%+v", tc.sample, tc.check, f1, f4)
		}
		if !reflect.DeepEqual(w1, w4) {
			t.Errorf("sample %d, check %d: windows differ on 1 and 4 cores", tc.sample, tc.check)
		}
	}
}
