package pipeline

import (
	"math"
	"slices"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/pipeline/experiment"
	"github.com/schedplan/schedplan/pipeline/inputs"
)

// peakReplayChunkJobs is the jobs the peak applications' fluid replay
// (peakReplay) simulates at once: 2^17 jobs and their simulation state
// hold about 20 MB, where the 10 M log's 7 M-job tuning window replayed at
// once held 0.7 GB.
const peakReplayChunkJobs = 1 << 17

// peakReplay is the fluid replay of a LAS_MQ over simulation jobs [0, n)
// whose finishes give every user's peak applications (fluidPeaks), run a
// chunk of whole busy periods at a time, each from a fresh start, with the
// finishes of the one-pass run to the bit.
//
// Why the bits are the same: the Simulator restarts its clock at the first
// arrival after the system empties (Run: base, now = that arrival, 0), and
// an empty LAS_MQ keeps nothing a fresh Start would not give it — its
// queues are empty, a PS queue's virtual time is reset when it empties,
// Next is +Inf, the shares are recomputed from the same set of queues to
// the same bits, and heap ties go to the lower job index, which a chunk's
// numbering keeps in the same order. Until the system empties, jobs that
// arrive later change nothing either (an event before an arrival is
// processed as if there were none). So a run of jobs [lo, hi) from an
// empty instant gives the one-pass finishes of its jobs up to any later
// instant at which it is empty again: the replay simulates chunk jobs,
// keeps the finishes up to the last job k after which the system is empty
// when job k arrives — its completions before that arrival by more than
// the rounding of the Simulator's clock, and every application finished
// before it in the sweep of peaks, which then has nothing to carry over —
// and starts again at k (twice the jobs when there is no such k: one
// long busy period). What Start reads from all its jobs is kept as the
// one-pass run reads it: with rate caps there is one chunk, and with the
// containers order (which falls back to FIFO when no job has a container
// count) a chunk simulated holds a job with a count and the last one is in
// the last chunk, when the window has one.
type peakReplay struct {
	// window builds jobs [lo, hi) (inputs.Inputs.Window).
	window func(lo, hi int) ([]sim.Job, error)
	n      int
	// arrival is the applications' arrivals in the sweep of peaks (the
	// log's submit times, which the jobs are built from).
	arrival []float64
	c       float64
	// policy returns a fresh LAS_MQ for each chunk (so that the last
	// chunk's jobs, which a policy holds, are dropped).
	policy func() *sim.LASMQ
	// last is the last job with a container count when the containers
	// order reads them (no cut after it), else n.
	last int
	// chunk is the jobs simulated at once (n: one chunk).
	chunk int
}

// newPeakReplay is the replay of policy's LAS_MQ over in's simulation jobs
// [0, n) at in's capacity, chunk jobs at a time.
func newPeakReplay(in *inputs.Inputs, n int, policy func() *sim.LASMQ, chunk int) *peakReplay {
	r := &peakReplay{window: in.Window, n: n, arrival: in.Jobs.Submit[:n], c: in.Capacity, policy: policy, last: n, chunk: max(chunk, 2)}
	var held []sim.Job // the jobs a caller holds, which Window gives
	if in.SimJobs != nil {
		held = in.SimJobs[:n]
	}
	if held != nil && sim.HasCaps(held) || !slices.IsSorted(r.arrival) {
		r.chunk = n // Start reads the caps of all; the sweep sorts
		return r
	}
	if o, _ := sim.ParseLevelOrder(string(policy().Order)); o == sim.OrderContainers {
		has := func(i int) bool { return experiment.HasContainersRange(in.Jobs, i, i+1) }
		if held != nil {
			has = func(i int) bool { return held[i].Containers > 0 }
		}
		for r.last = n - 1; r.last >= 0 && !has(r.last); r.last-- {
		}
		if r.last < 0 {
			r.last = n // no count anywhere: every chunk orders alike
		}
	}
	return r
}

// run replays the jobs and calls each, in order, with every chunk's first
// job and its jobs' finishes (arrival + response, as the one-pass replay
// computes them), which it may keep only until it returns.
func (r *peakReplay) run(each func(lo int, finish []float64)) error {
	var s sim.Simulator
	for lo, hi := 0, min(r.n, r.chunk); lo < r.n; hi = min(r.n, lo+2*(hi-lo)) {
		jobs, err := r.window(lo, hi)
		if err != nil {
			return err
		}
		if r.last < r.n && hi < r.n && !sim.HasContainers(jobs) {
			continue // the one-pass run orders by the counts: take more jobs
		}
		res, err := s.Run(jobs, r.c, r.policy())
		if err != nil {
			return err
		}
		finish := res.Response // the Simulator's: rewritten by its next run
		for k := range finish {
			finish[k] += r.arrival[lo+k]
		}
		if k := r.cut(lo, hi, jobs, res.Completion, finish); k > lo {
			each(lo, finish[:k-lo])
			lo, hi = k, k+r.chunk/2 // the loop doubles it
		}
	}
	return nil
}

// cut returns the last job k of (lo, hi] at or after the chunk's middle,
// and not after the last container count the run orders by, before which
// the one-pass replay of chunk [lo, hi) would be empty (lo: none): hi when
// it is the last job, else a k whose jobs before it all complete before it
// arrives by more than the rounding of the Simulator's clock (so that the
// last event, at most that completion less the clock's base, comes before
// the arrival on that clock) and whose applications before it all finish
// before it arrives.
func (r *peakReplay) cut(lo, hi int, jobs []sim.Job, completion, finish []float64) int {
	if hi == r.n {
		return hi
	}
	k := lo
	done, end := math.Inf(-1), math.Inf(-1) // the last completion and finish before job i
	for i := lo; i < min(hi, r.last+1); i++ {
		at := jobs[i-lo].Arrival
		// The clock's base is an arrival of the chunk, so at most the
		// larger of the first one and this one in magnitude: a few units
		// in the last place of it bound the rounding of base + clock and
		// of arrival − base.
		if i-lo >= r.chunk/2 && at-done > 0x1p-50*max(math.Abs(jobs[0].Arrival), math.Abs(at)) && end < r.arrival[i] {
			k = i
		}
		done, end = max(done, completion[i-lo]), max(end, finish[i-lo], r.arrival[i])
	}
	return k
}
