package tuner

import (
	"slices"
	"testing"
)

// TestInitialShortlistTwins checks that the shortlist's n best skip
// candidates that scored exactly as a better one on every sampled chunk
// and σ (twins), so that its places go to candidates that behave
// differently; the named baselines are always in. (One kind of candidate
// here: no best-of-another-kind is added.)
func TestInitialShortlistTwins(t *testing.T) {
	s := func(m float64) []Score { return []Score{{Mean: m}, {Mean: m + 1}} }
	tc := &tuneCV{res: []CandidateScore{
		{Policy: "gps", Origin: originBaseline, Chunks: s(10)},
		{Policy: "p", Origin: originSearch, Chunks: s(5)},
		{Policy: "p", Origin: originSearch, Chunks: s(5)},
		{Policy: "p", Origin: originSearch, Chunks: s(6)},
		{Policy: "p", Origin: originSearch, Chunks: s(5), BySigma: [][]Score{s(5), s(7)}}, // differs under a σ
		{Policy: "p", Origin: originSearch, Chunks: s(7)},
	}}
	ranked := []int{1, 2, 4, 3, 5}
	if got, want := tc.initialShortlist(ranked, 3), []int{1, 4, 3, 0}; !slices.Equal(got, want) {
		t.Errorf("shortlist %v, want %v (the twin 2 skipped, baseline 0 added)", got, want)
	}
	if !tc.twin(2, []int{1}) || tc.twin(4, []int{1}) || tc.twin(1, []int{1}) {
		t.Error("twin: 2 is 1's twin; 4 differs under a σ; a candidate is not its own twin")
	}
}
