package sim

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"
	"testing"
)

// TestSimulateOwnsItsArrays checks that a policy run by Simulate after a
// Simulator's Run does not keep working in that Simulator's scratch: the
// arrays it borrowed there are the Simulator's, which the Simulator's
// next policy writes, possibly on another goroutine while Simulate runs
// (Simulate lends no scratch: the policy's arrays must be its own).
// Simulate's results must match a fresh policy's while the Simulator
// runs other policies concurrently (go test -race flags the sharing too).
func TestSimulateOwnsItsArrays(t *testing.T) {
	jobs := synthetic(3000, 0.95, 1, 41)
	capped := append([]Job(nil), jobs...)
	for i := range capped {
		if i%3 == 0 {
			capped[i].Cap = 0.5
		}
	}
	for _, c := range []struct {
		spec string
		jobs []Job
		own  func(p Policy) []float64 // the policy's first borrowed array
	}{
		{"pfsp", jobs, func(p Policy) []float64 { return p.(*PFSP).rem }},
		{"fsp+ps", jobs, func(p Policy) []float64 { return p.(*FSP).rem }},
		{"srpt", jobs, func(p Policy) []float64 { return p.(*SRPT).rem }},
		{"las", jobs, func(p Policy) []float64 { return p.(*LAS).heaps.key }},
		{"fifo", capped, func(p Policy) []float64 { return p.(*FIFO).crem }},
		{"ps", capped, func(p Policy) []float64 { return p.(*PS).cp.tag }},
	} {
		want, err := Simulate(c.jobs, 1, mustPolicy(t, c.spec))
		if err != nil {
			t.Fatal(err)
		}
		p := mustPolicy(t, c.spec)
		var s Simulator
		if _, err := s.Run(c.jobs, 1, p); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var quit atomic.Bool // (the package's tests shadow close)
		wg.Add(1)
		go func() { // the Simulator's next policies write its scratch
			defer wg.Done()
			other := mustPolicy(t, c.spec)
			for !quit.Load() {
				if _, err := s.Run(c.jobs, 1, other); err != nil {
					t.Error(err)
					return
				}
			}
		}()
		var got *Result
		for range 3 {
			if got, err = Simulate(c.jobs, 1, p); err != nil {
				break
			}
			if i := firstDiff(got.Completion, want.Completion); i >= 0 {
				err = errDiff(i)
				break
			}
		}
		quit.Store(true)
		wg.Wait()
		if err != nil {
			t.Errorf("%s: Simulate after a Simulator's run: %v", c.spec, err)
		}
		if a := c.own(p); len(a) > 0 && s.sc.holds(&a[0]) {
			t.Errorf("%s: after Simulate the policy still works in the Simulator's scratch", c.spec)
		}
	}
}

type errDiff int

func (e errDiff) Error() string {
	return fmt.Sprintf("completion differs from a fresh policy's at job %d", int(e))
}

// firstDiff is the first index where a and b differ in bits (−1: none).
func firstDiff(a, b []float64) int {
	for i := range a {
		if i >= len(b) || math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return i
		}
	}
	return -1
}

// holds reports whether p points into one of sc's float slots.
func (sc *scratch) holds(p *float64) bool {
	for _, f := range sc.f {
		if len(f) > 0 && p == &f[:cap(f)][0] {
			return true
		}
	}
	return false
}
