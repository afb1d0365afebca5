package tuner

import (
	"fmt"
	"slices"
)

// RaceInfo records how the space-filling sequence was raced (successive
// halving): every point scored on a few folds first, and only the better
// part of them on the rest.
type RaceInfo struct {
	// Chunks are the folds (chunk indices) every point was scored on
	// first.
	Chunks []int `json:"chunks"`
	// Points is how many points were raced, Kept how many of them went on
	// to every chunk; the others are not candidates of the result, but
	// count in the budget.
	Points int `json:"points"`
	Kept   int `json:"kept"`
}

// raceKeep is the share of the raced points that go on to every chunk.
const raceKeep = 1.0 / 3

// raceChunks are the chunks a raced point is scored on first: the middle
// scored fold and the last one (the nearest the validation window); nil
// (no race) with fewer than three scored folds, where two folds would be
// most of the cost anyway.
func raceChunks(scored []int) []int {
	if len(scored) < 3 {
		return nil
	}
	return []int{scored[len(scored)/2], scored[len(scored)-1]}
}

// addRaced scores fixed on every chunk and races the points of raced (the
// space-filling sequence), in one batch (the one tune shards split): each
// point is scored on raceChunks first and ranked there by the coordinate
// search's value (the mean fold score when it meets the constraints on
// those folds, else after every point that does, by its excess); the best
// third (at least twice the shortlist) is then scored on the other chunks
// and added, in the sequence's order. A point that scores in the worst
// two thirds on two folds is seldom among the few best on all of them,
// where the shortlist and the coordinate search's starts are taken: a
// heuristic, not a guarantee (the choice was the same on a 1 M-job
// synthetic log and on FB-2009 with seeds 1–3, BenchmarkTuneQuality), at
// a bit more than half the cost (successive halving:
// Jamieson and Talwalkar, "Non-stochastic best arm identification and
// hyperparameter optimization", AISTATS 2016). With TuneOptions.NoRace,
// or too few folds, every point is scored on every chunk.
func (t *tuneCV) addRaced(fixed, raced []candidate, whole bool) error {
	rc := raceChunks(t.scored)
	if t.opt.NoRace || rc == nil || len(raced) == 0 {
		return t.add(append(fixed, raced...), whole)
	}
	fixed, err := t.fresh(fixed, nil)
	if err != nil {
		return err
	}
	if raced, err = t.fresh(raced, fixed); err != nil {
		return err
	}
	batch := slices.Clone(fixed)
	for _, c := range raced {
		c.chunks = rc
		batch = append(batch, c)
	}
	// The first round counts in the progress for the points it drops.
	t.weight = len(fixed) + len(raced) - t.raceKept(len(raced))
	scores, err := t.scoreAll(batch, t.wins)
	t.weight = 0
	if err != nil {
		return err
	}
	t.appendScored(fixed, scores[:len(fixed)], whole)
	cur, ok := t.bySpec[t.opt.Current]
	if !ok {
		return fmt.Errorf("the current scheduler %s is not among the first candidates", t.opt.Current)
	}
	first := scores[len(fixed):]
	keep := t.raceWinners(first, t.res[cur].Chunks, rc)
	t.dropped += len(raced) - len(keep)
	t.done += len(raced) - len(keep)
	var rest []int
	for ch := range t.wins {
		if !slices.Contains(rc, ch) {
			rest = append(rest, ch)
		}
	}
	next := make([]candidate, len(keep))
	for k, i := range keep {
		next[k] = raced[i]
		next[k].chunks = rest
	}
	more, err := t.scoreAll(next, t.wins)
	if err != nil {
		return err
	}
	kept := make([][][]Score, len(keep))
	for k, i := range keep {
		kept[k] = first[i]
		for s := range kept[k] {
			for _, ch := range rest {
				kept[k][s][ch] = more[k][s][ch]
			}
		}
	}
	t.appendScored(next, kept, whole)
	t.race = &RaceInfo{Chunks: rc, Points: len(raced), Kept: len(keep)}
	return nil
}

// raceWinners returns the indices, in order, of the raced points (scores
// [point][σ][chunk] on the chunks rc) that go on: the best raceKeep of
// them by the coordinate search's value against ref, at least twice the
// shortlist; ties at the cut go on too.
func (t *tuneCV) raceWinners(scores [][][]Score, ref []Score, rc []int) []int {
	vals := make([]float64, len(scores))
	for i, sc := range scores {
		var cs CandidateScore
		cs.setScores(sc)
		vals[i] = t.valueOn(cs.Chunks, ref, rc)
	}
	n := t.raceKept(len(scores))
	if n >= len(scores) {
		return allIndices(len(scores))
	}
	sorted := slices.Clone(vals)
	slices.Sort(sorted)
	cut := sorted[n-1]
	var keep []int
	for i, v := range vals {
		if v <= cut {
			keep = append(keep, i)
		}
	}
	return keep
}

// raceKept is how many of n raced points go on, ties at the cut aside.
func (t *tuneCV) raceKept(n int) int {
	return min(n, max(int(float64(n)*raceKeep+0.999), 2*t.opt.Shortlist))
}

// spent is how much of the budget the search has used: its candidates and
// the raced points it dropped.
func (t *tuneCV) spent() int { return len(t.res) + t.dropped }
