package tuner

import (
	"context"
	"math"
	"slices"
	"sync"
	"testing"
)

// countingScorer wraps a scorer and counts its simulations (keep = false:
// the search's, not the bootstrap's).
func countingScorer(inner WindowScorer) (WindowScorer, func() int) {
	var mu sync.Mutex
	calls := 0
	return func(ctx context.Context, spec string, w *ScoreWindow, keep bool) (Score, []float64, error) {
			if !keep {
				mu.Lock()
				calls++
				mu.Unlock()
			}
			return inner(ctx, spec, w, keep)
		}, func() int {
			mu.Lock()
			defer mu.Unlock()
			return calls
		}
}

// The race of the space-filling sequence (addRaced) spends less than
// scoring every point on every chunk, within the same budget, and
// finds as good a configuration: the same one where every fold scores
// alike (bowl), and one within the noise of the folds on simulated jobs.
// It fails on a tuner that scores every point on every chunk.
func TestTuneCVRaceSpendsLessForTheSameChoice(t *testing.T) {
	bowlJobs := poissonJobs(3, 1000, 1e5, 8)
	for i := range bowlJobs {
		bowlJobs[i].Size = math.Exp(float64(i%100) / 10)
		bowlJobs[i].Estimate = bowlJobs[i].Size
	}
	for _, tc := range []struct {
		name   string
		score  WindowScorer
		budget int
		same   bool // the very same choice is required
	}{
		{name: "bowl", score: bowl, budget: 300, same: true},
		{name: "simulated", score: SimulateWindows(nil, 1), budget: 150},
	} {
		t.Run(tc.name, func(t *testing.T) {
			jobs := bowlJobs
			if !tc.same {
				jobs = poissonJobs(4, 6000, 1.15, 50)
			}
			var res [2]*CVResult
			var calls [2]int
			for k, noRace := range []bool{false, true} {
				score, n := countingScorer(tc.score)
				var shown []int
				opt := TuneOptions{Budget: tc.budget, NoRace: noRace, Progress: func(done, total int) { shown = append(shown, done) }}
				r, err := TuneCV(context.Background(), jobs, 1, opt, score)
				if err != nil {
					t.Fatal(err)
				}
				res[k], calls[k] = r, n()
				if !slices.IsSorted(shown) || len(shown) == 0 || shown[len(shown)-1] != tc.budget {
					t.Errorf("noRace %v: progress %v is not monotone up to the budget %d", noRace, shown, tc.budget)
				}
			}
			raced, all := res[0], res[1]
			if raced.Race == nil || all.Race != nil {
				t.Fatalf("race info %v (raced) and %v (not raced)", raced.Race, all.Race)
			}
			if rc := raced.Race; rc.Kept >= rc.Points || rc.Kept < rc.Points/3 || len(rc.Chunks) != 2 {
				t.Errorf("race %+v: want a third of the points kept after two folds", rc)
			}
			if n := CountScored(raced.Candidates) + raced.Race.Points - raced.Race.Kept; n > tc.budget {
				t.Errorf("raced search spent %d > budget %d", n, tc.budget)
			}
			if float64(calls[0]) > 0.85*float64(calls[1]) {
				t.Errorf("raced search ran %d simulations, not raced %d: want at most 85%%", calls[0], calls[1])
			}
			a, b := &raced.Candidates[raced.Chosen], &all.Candidates[all.Chosen]
			t.Logf("raced: %d simulations, chose %s (%.4f ± %.4f); not raced: %d, chose %s (%.4f ± %.4f)",
				calls[0], a.Label(), a.Improvement, a.SE, calls[1], b.Label(), b.Improvement, b.SE)
			if tc.same && a.Policy != b.Policy {
				t.Errorf("raced search chose %s, not raced %s", a.Policy, b.Policy)
			}
			if a.Improvement < b.Improvement-math.Max(a.SE, b.SE) {
				t.Errorf("raced choice scores %.4f, not raced %.4f ± %.4f", a.Improvement, b.Improvement, b.SE)
			}
		})
	}
}

// raceWinners keeps the best third (at least twice the shortlist) in the
// points' order, and every point tied at the cut.
func TestRaceWinners(t *testing.T) {
	t.Parallel()
	ref := []Score{{Mean: 10, P99: 10}, {Mean: 10, P99: 10}}
	pt := func(mean float64) [][]Score { return [][]Score{{{Mean: mean, P99: mean}, {Mean: mean, P99: mean}}} }
	tc := &tuneCV{opt: TuneOptions{Objective: MinMean, Constraints: []Constraint{}, Shortlist: 1}}
	for _, c := range []struct {
		means []float64
		want  []int
	}{
		{[]float64{9, 5, 8, 7, 6, 4}, []int{1, 5}},
		{[]float64{9, 5, 8, 5, 6, 4}, []int{1, 3, 5}}, // 5 tied at the cut
		{[]float64{9, 5}, []int{0, 1}},                // at least 2 × Shortlist
	} {
		var scores [][][]Score
		for _, m := range c.means {
			scores = append(scores, pt(m))
		}
		if got := tc.raceWinners(scores, ref, []int{0, 1}); !slices.Equal(got, c.want) {
			t.Errorf("means %v: kept %v, want %v", c.means, got, c.want)
		}
	}
}

// Fewer than three scored folds: no race.
func TestRaceChunks(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		scored, want []int
	}{
		{[]int{1, 2, 3, 4, 5}, []int{3, 5}},
		{[]int{1, 2, 3}, []int{2, 3}},
		{[]int{1, 2}, nil},
		{[]int{0}, nil},
	} {
		if got := raceChunks(c.scored); !slices.Equal(got, c.want) {
			t.Errorf("scored %v: race on %v, want %v", c.scored, got, c.want)
		}
	}
}
