package sim

// scratch holds the per-job arrays (8 to 20 B a job) that the policies one
// Simulator runs borrow for the length of a run: one set per Simulator,
// whichever of its policies runs, instead of one per policy.
//
// A caller that keeps one policy per configuration (the experiment pool's
// workers keep one at a time on a 3 M-job window) otherwise allocated a
// policy's arrays afresh at every switch of configuration: some 0.05 GB
// each time, several GB of garbage over the 10 M log's validate stage,
// in blocks the Go heap could not reuse once fragmented, which kept
// 0.5 GB of free heap resident beside the live one. A policy reads
// nothing of a borrowed array before it writes it in the same run (Start
// or Arrive sets every entry a run reads), so what another policy left
// there does not matter, as what its own last run left did not.
type scratch struct {
	f [3][]float64
	i [2][]int32
	s []int8
}

// loan is what a Simulator's Run hands the policy it runs, for the length
// of the run: the run's estimate column (RunEstimates; nil: the jobs'
// own), what checkJobs found of its jobs (jobFacts), and the simulator's
// per-job arrays (sc; nil when it lends none: Simulate). The policies of
// this package embed it and take it by borrow.
type loan struct {
	estimateColumn
	jobFacts
	sc *scratch
}

// borrower is a policy that takes a loan: borrow is called before each
// Start of a Simulator's Run, and with the zero loan after the run.
//
// dropArrays: a borrow that changes the lender drops the arrays the last
// one lent (and its own: sc's serve now). They would otherwise stay the
// policy's "own" arrays, which a Start outside the Simulator (sc nil)
// reuses: it would write the Simulator's scratch, maybe on another
// goroutine while the Simulator runs another policy in it
// (TestLentArraysNotKept).
type borrower interface{ borrow(loan) }

// floats returns slot k of sc with length n, or own with length n when sc
// is nil (a policy started outside a Simulator); either reuses its array
// when it is big enough.
func (sc *scratch) floats(k int, own []float64, n int) []float64 {
	if sc == nil {
		return resizeF(own, n)
	}
	sc.f[k] = resizeF(sc.f[k], n)
	return sc.f[k]
}

// int32s is floats for int32 slots.
func (sc *scratch) int32s(k int, own []int32, n int) []int32 {
	if sc == nil {
		return resize32(own, n)
	}
	sc.i[k] = resize32(sc.i[k], n)
	return sc.i[k]
}

// int8s is floats for the int8 slot.
func (sc *scratch) int8s(own []int8, n int) []int8 {
	if sc == nil {
		return resize8(own, n)
	}
	sc.s = resize8(sc.s, n)
	return sc.s
}

func resize8(s []int8, n int) []int8 {
	if cap(s) < n {
		return make([]int8, n)
	}
	return s[:n]
}
