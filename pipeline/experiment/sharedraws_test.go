package experiment

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"testing"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/estimate"
)

// sharedDrawJobs are n jobs of a loaded cluster (heavy-tailed sizes, some
// of zero size) for the pinned σ runs.
func sharedDrawJobs(n int) []sim.Job {
	r := rand.New(rand.NewPCG(5, 6))
	jobs := make([]sim.Job, n)
	at := 0.0
	for i := range jobs {
		at += r.ExpFloat64() * 1.1
		s := math.Exp(1.5*r.NormFloat64()) / math.Exp(1.125)
		if i%97 == 0 {
			s = 0
		}
		jobs[i] = sim.Job{Arrival: at, Size: s, Estimate: s, Weight: 1}
	}
	return jobs
}

// sharedDrawPool is a pool like the validate stage's: an exact-size
// experiment, σ experiments of the policies that read estimates (and one
// that does not), a load factor, one selecting its runs, one with a Sink
// and one keeping its rows.
func sharedDrawPool(jobs []sim.Job, sink func(*RunRows) error) []*Experiment {
	sized := []string{"srpt", "fsp+ps", "pfsp"}
	ln := func(s float64) estimate.ErrorModel { return estimate.ErrorModel{Kind: estimate.LogNormal, Sigma: s} }
	return []*Experiment{
		{Jobs: jobs, Capacity: 1, Policies: append([]string{"ps", "fifo"}, sized...), Runs: 1},
		{Jobs: jobs, Capacity: 1, Policies: sized, Errors: ln(0.5), Runs: 4, Seed: 7},
		{Jobs: jobs, Capacity: 1, Policies: append([]string{"ps"}, sized...), Errors: ln(1), Runs: 3, Seed: 7},
		{Jobs: jobs, Capacity: 1, Policies: sized, Errors: ln(2), Runs: 5, Seed: 8, Select: func(r int) bool { return r != 1 }},
		{Jobs: jobs, Capacity: 1, Policies: sized, Errors: estimate.ErrorModel{Kind: estimate.Uniform, I: 0.4}, Runs: 3, Seed: 2, Scale: 1.1},
		{Jobs: jobs, Capacity: 1, Policies: sized[:2], Errors: ln(1), Runs: 3, Seed: 3, Sink: sink},
		{Jobs: jobs, Capacity: 1, Policies: sized[1:], Errors: ln(0.5), Runs: 2, Seed: 4, KeepRows: true},
	}
}

// hashResults hashes every summary and row of a pool's results (%v
// prints a float64 in the shortest form that reads back to its bits).
func hashResults(res []*ExperimentResult) uint64 {
	h := fnv.New64a()
	for _, r := range res {
		for _, p := range r.Policies {
			fmt.Fprintf(h, "%s %v %d %v %v|", p.Policy, p.Runs, p.Simulated, p.Summaries, p.Aggregate())
			if p.Rows != nil {
				rw := p.Rows
				fmt.Fprintf(h, "%v %v %v %v %v %v %v %v %v %v %v|", rw.Policy, rw.Run, rw.Job, rw.Arrival, rw.Size, rw.Estimate, rw.Completion, rw.Response, rw.Slowdown, rw.Deadline, rw.Missed)
			}
		}
	}
	return h.Sum64()
}

// sharedDrawsPinned are hashResults of sharedDrawPool's results and the
// hash of what its Sink was handed, in order, as each run drew its own
// estimates (before runs of one draw shared them).
const sharedDrawsPinned, sharedSinkPinned uint64 = 0xd143121ed5622fa1, 0x1f26087197651a19

// TestSharedDrawsPinned checks that the pool's results and what its Sink
// is handed (in order) are, bit for bit, those computed before, on 1 to
// 3 workers.
func TestSharedDrawsPinned(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("hashes pinned on amd64")
	}
	jobs := sharedDrawJobs(3000)
	for _, workers := range []int{1, 2, 3} {
		sh := fnv.New64a()
		sink := func(rr *RunRows) error {
			est := make([]float64, rr.Len())
			for i := range est {
				est[i] = rr.Estimate(i)
			}
			fmt.Fprintf(sh, "%d %s %d %v %v %v|", rr.Policy, rr.Spec, rr.Run, est, rr.Completion, rr.Response)
			return nil
		}
		res, err := RunExperiments(context.Background(), RunOptions{Workers: workers}, sharedDrawPool(jobs, sink)...)
		if err != nil {
			t.Fatal(err)
		}
		if got := hashResults(res); got != sharedDrawsPinned {
			t.Errorf("%d workers: results hash %#x, pinned %#x", workers, got, sharedDrawsPinned)
		}
		if got := sh.Sum64(); got != sharedSinkPinned {
			t.Errorf("%d workers: sink hash %#x, pinned %#x", workers, got, sharedSinkPinned)
		}
	}
}

// TestRunDrawnOncePerRun checks that the policies of a run share its
// draw: each (experiment, run) of a sharing experiment is drawn once
// whatever the number of workers (three policies: a third of the draws),
// with no more columns live than workers and one, and that experiments
// that must not share (a Sink's rows go in policy order; one policy a
// run has nothing to share) draw in their workers as before.
func TestRunDrawnOncePerRun(t *testing.T) {
	jobs := sharedDrawJobs(2000)
	var mu sync.Mutex
	defer func() { drawHook = nil }()
	for _, workers := range []int{1, 2, 3, 5} {
		drawn := map[[2]int]int{}
		most := 0
		drawHook = func(u unit, live int) {
			mu.Lock()
			drawn[[2]int{u.x, u.k}]++
			most = max(most, live)
			mu.Unlock()
		}
		xs := sharedDrawPool(jobs, func(*RunRows) error { return nil })
		if _, err := RunExperiments(context.Background(), RunOptions{Workers: workers}, xs...); err != nil {
			t.Fatal(err)
		}
		for xi, x := range xs {
			want := 0 // columns drawn by the cache
			if xi >= 1 && xi <= 4 || xi == 6 {
				want = len(x.runs())
			}
			got := 0
			for k, n := range drawn {
				if k[0] == xi {
					got++
					if n != 1 {
						t.Errorf("%d workers: experiment %d run %d drawn %d times", workers, xi, k[1], n)
					}
				}
			}
			if got != want {
				t.Errorf("%d workers: experiment %d: %d runs drawn by the cache, want %d", workers, xi, got, want)
			}
		}
		if most > workers+1 {
			t.Errorf("%d workers: %d columns live at once", workers, most)
		}
	}
}

// TestRunMajorOrder checks the order units start in: run by run for an
// experiment that shares its draws, as planned otherwise.
func TestRunMajorOrder(t *testing.T) {
	jobs := sharedDrawJobs(10)
	xs := sharedDrawPool(jobs, func(*RunRows) error { return nil })[:3]
	xs[1].Runs = 2
	var units []unit
	for xi, x := range xs {
		for p := range x.Policies {
			n := x.Runs
			if xi == 0 || x.Policies[p] == "ps" {
				n = 1
			}
			for k := range n {
				units = append(units, unit{xi, p, k})
			}
		}
	}
	order := make([]int, len(units))
	for i := range order {
		order[i] = i
	}
	runMajor(order, units, newDrawCache(xs, units, 2))
	var got []unit
	for _, i := range order {
		got = append(got, units[i])
	}
	want := []unit{{0, 0, 0}, {0, 1, 0}, {0, 2, 0}, {0, 3, 0}, {0, 4, 0},
		{1, 0, 0}, {1, 1, 0}, {1, 2, 0}, {1, 0, 1}, {1, 1, 1}, {1, 2, 1},
		{2, 0, 0}, {2, 1, 0}, {2, 2, 0}, {2, 3, 0}, {2, 1, 1}, {2, 2, 1}, {2, 3, 1}, {2, 1, 2}, {2, 2, 2}, {2, 3, 2}}
	if !slices.Equal(got, want) {
		t.Errorf("order %v,\nwant  %v", got, want)
	}
}
