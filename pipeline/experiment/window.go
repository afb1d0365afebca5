package experiment

import (
	"fmt"
	"math"

	"github.com/schedplan/schedplan/cluster/sim"
)

// Split divides jobs (sorted by arrival) by time: the first frac of the jobs
// tune, the rest validate. Jobs that arrive at the same instant as the split
// job go to the validation window, so the split is a point in time. Both
// windows must be non-empty.
type Split struct {
	Fraction  float64    `json:"fraction"`
	Time      float64    `json:"split_time_s"` // first validation arrival
	TuneJobs  int        `json:"tune_jobs"`
	TuneSpan  [2]float64 `json:"tune_span_s"`
	ValidJobs int        `json:"validate_jobs"`
	ValidSpan [2]float64 `json:"validate_span_s"`
}

// SplitByTime computes the split of jobs at fraction frac ∈ (0, 1).
func SplitByTime(jobs []sim.Job, frac float64) (Split, error) {
	return splitAt(len(jobs), func(i int) float64 { return jobs[i].Arrival }, frac)
}

// SplitByArrivals is SplitByTime of the jobs whose arrivals are the column
// given (the log's submit times), without the jobs: the same split.
func SplitByArrivals(arrival []float64, frac float64) (Split, error) {
	return splitAt(len(arrival), func(i int) float64 { return arrival[i] }, frac)
}

// splitAt is SplitByTime of n jobs, job i arriving at arrival(i).
func splitAt(n int, arrival func(i int) float64, frac float64) (Split, error) {
	if !(frac > 0 && frac < 1) {
		return Split{}, fmt.Errorf("split fraction %v: need a number strictly between 0 and 1", frac)
	}
	k := int(math.Round(frac * float64(n)))
	if k < 1 || k >= n {
		return Split{}, fmt.Errorf("cannot split %d jobs at %v: a window would be empty", n, frac)
	}
	for k > 0 && arrival(k-1) == arrival(k) {
		k--
	}
	if k == 0 {
		return Split{}, fmt.Errorf("cannot split %d jobs at %v: they all arrive at once", n, frac)
	}
	return Split{
		Fraction: frac, Time: arrival(k),
		TuneJobs: k, TuneSpan: [2]float64{arrival(0), arrival(k - 1)},
		ValidJobs: n - k, ValidSpan: [2]float64{arrival(k), arrival(n - 1)},
	}, nil
}

// Windows returns the two windows' jobs (sharing jobs' backing array). Each
// window is simulated from an empty system at its first arrival.
func (s Split) Windows(jobs []sim.Job) (tune, validate []sim.Job) {
	return jobs[:s.TuneJobs], jobs[s.TuneJobs:]
}

// MinWindowJobs is the fewest jobs a tuning or validation window needs for
// its mean response time to mean anything: with fewer, one long job moves
// the mean by more than the differences between policies, so a ranking of
// policies on it is noise. 100 jobs put the standard error of a mean of
// heavy-tailed responses (coefficient of variation 2–5, as in the SWIM
// traces) at 20–50% of the mean; the warning does not stop the run.
const MinWindowJobs = 100

// SmallWindowWarning says, when either window of s holds fewer than
// MinWindowJobs jobs, that its results are not to be trusted ("" otherwise).
func SmallWindowWarning(s Split) string {
	if s.TuneJobs >= MinWindowJobs && s.ValidJobs >= MinWindowJobs {
		return ""
	}
	return fmt.Sprintf("SMALL WINDOWS: the tuning window holds %d jobs and the validation window %d; with fewer than %d jobs in a window, one long job outweighs the differences between policies, so the tuned configuration and its validation are not to be trusted; use a longer log (or --split to balance the windows)", s.TuneJobs, s.ValidJobs, MinWindowJobs)
}
