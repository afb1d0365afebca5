package tuner

import (
	"errors"
)

// ErrShardDone ends a shard's stage once its units are computed.
var ErrShardDone = errors.New("shard done")

// TuneTask is one scoring task of the tuner: a candidate on one chunk under
// one σ (an index in TuneOptions.Sigmas), on the sampled or whole folds.
type TuneTask struct {
	Spec  string
	Chunk int
	Sigma int
	Whole bool
}

// TuneShard shards the tuner's scoring. With Count > 0 the tuner scores,
// of the first batch of tasks that are not Known, the tasks q with q mod
// Count = Index (q numbering the batch's unknown tasks in the tuner's
// order), records them in Scored and stops (errShardDone). With Count 0
// the tuner takes Known scores as given and scores the rest itself.
type TuneShard struct {
	Index, Count int
	Known        map[TuneTask]Score
	// Scored are this shard's tasks (Unit numbers them among Units).
	Scored []ScoredTask

	stop  bool
	units int
}

// ScoredTask is a scored task and its unit number.
type ScoredTask struct {
	Unit, Units int
	Task        TuneTask
	Score       Score
}

// plan fills the known scores (set(k) is task k's slot) and returns the
// tasks to score here.
func (sh *TuneShard) plan(keys []TuneTask, set func(k int) *Score) ([]int, error) {
	if sh == nil {
		return allIndices(len(keys)), nil
	}
	var missing []int
	for k, key := range keys {
		if s, ok := sh.Known[key]; ok {
			*set(k) = s
		} else {
			missing = append(missing, k)
		}
	}
	if sh.Count == 0 || len(missing) == 0 {
		return missing, nil
	}
	sh.stop, sh.units = true, len(missing)
	var mine []int
	for q := sh.Index; q < len(missing); q += sh.Count {
		mine = append(mine, missing[q])
	}
	return mine, nil
}

// finish records a shard's scored tasks and stops the tuner.
func (sh *TuneShard) finish(keys []TuneTask, todo []int, get func(k int) Score) error {
	if sh == nil || !sh.stop {
		return nil
	}
	for q, k := range todo {
		sh.Scored = append(sh.Scored, ScoredTask{Unit: sh.Index + q*sh.Count, Units: sh.units, Task: keys[k], Score: get(k)})
	}
	return ErrShardDone
}
