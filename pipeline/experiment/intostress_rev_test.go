package experiment

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/estimate"
)

// TestIntoReuseMixedPools runs pools that mix a Source with Into (its
// sunk exact runs, σ runs on an estimate column, a Reference and load
// factors, as validate's), scaled copies of Jobs with a Sink and without,
// and an unscaled experiment, on 1 to 8 workers: every sunk row's jobs
// must be the build's, scaled, when the Sink reads them (a copy reused
// while read would show), every summary the one worker's, and the number
// of builds one per copy. A failing Sink and a cancelled context end the
// pool on every number of workers.
func TestIntoReuseMixedPools(t *testing.T) {
	base := make([]sim.Job, 2500)
	for i := range base {
		s := 0.2 + float64(i%7)/6
		base[i] = sim.Job{Arrival: float64(i) * 0.9, Size: s, Estimate: s, Weight: float64(1 + i%2)}
	}
	pols := []string{"fifo", "srpt", "gps", "fsp", "pfsp", "las_mq:k=3,alpha0=0.5,p=3,order=remaining"}
	type plan struct {
		xs   []*Experiment
		mu   *sync.Mutex
		bad  *[]string
		sunk *[]float64
	}
	mk := func(failSink bool) plan {
		var mu sync.Mutex
		var bad []string
		var sunk []float64
		src := &Source{N: len(base), Build: func() ([]sim.Job, error) { return slices.Clone(base), nil },
			Into: func(buf []sim.Job) ([]sim.Job, error) {
				for i := range buf[:cap(buf)] {
					buf[:cap(buf)][i] = sim.Job{Arrival: math.NaN(), Size: -1} // garbage a reader of the old copy would see
				}
				return append(buf[:0], base...), nil
			}}
		check := func(name string, scale float64) func(rr *RunRows) error {
			return func(rr *RunRows) error {
				time.Sleep(200 * time.Microsecond)
				for i := range rr.Jobs {
					if rr.Jobs[i].Size != base[i].Size*scale || rr.Jobs[i].Arrival != base[i].Arrival {
						mu.Lock()
						bad = append(bad, fmt.Sprintf("%s job %d: %+v", name, i, rr.Jobs[i]))
						mu.Unlock()
						break
					}
				}
				mu.Lock()
				sunk = append(sunk, rr.Responses()...)
				mu.Unlock()
				if failSink && name == "f0.8" {
					return errors.New("sink failed")
				}
				return nil
			}
		}
		ref := &Experiment{Source: src, Capacity: 1.5, Policies: []string{"gps", "fifo"}, Runs: 1}
		ref.Reference = &Reference{Of: ref, Policy: 0, Deadlines: func(c []float64) []float64 { return slices.Clone(c) }}
		xs := []*Experiment{
			{Source: src, Capacity: 1.5, Policies: pols, Runs: 1, Sink: check("exact", 1)},
			ref,
			{Source: src, Capacity: 1.5, Policies: []string{"srpt", "fsp", "pfsp"}, Runs: 3, Seed: 5, Errors: estimate.ErrorModel{Kind: estimate.LogNormal, Sigma: 0.5}},
			{Source: src, Scale: 1.2, Capacity: 1.5, Policies: pols, Runs: 1, MeanOnly: true},
			{Jobs: base, Scale: 0.8, Capacity: 1.5, Policies: pols[:3], Runs: 1, Sink: check("f0.8", 0.8)},
			{Source: src, Scale: 0.5, Capacity: 1.5, Policies: pols, Runs: 1},
			{Jobs: base, Scale: 1.1, Capacity: 1.5, Policies: pols, Runs: 1, MeanOnly: true},
			{Jobs: base, Capacity: 1.5, Policies: pols[:2], Runs: 1},
		}
		return plan{xs, &mu, &bad, &sunk}
	}
	p1 := mk(false)
	want, err := RunExperiments(context.Background(), RunOptions{Workers: 1}, p1.xs...)
	if err != nil {
		t.Fatal(err)
	}
	var intos int
	scaledCopyHook = func(jobs, into []sim.Job, _ int) {
		if into != nil {
			intos++ // under the pool's lock
		}
	}
	defer func() { scaledCopyHook = nil }()
	for w := 1; w <= 8; w++ {
		p := mk(false)
		intos = 0
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		got, err := RunExperiments(ctx, RunOptions{Workers: w}, p.xs...)
		cancel()
		if err != nil {
			t.Fatalf("%d workers: %v", w, err)
		}
		if intos == 0 {
			t.Errorf("%d workers: no copy was built into a dropped one's array", w)
		}
		if len(*p.bad) > 0 {
			t.Errorf("%d workers: a sink read jobs that are not its copy's: %v", w, (*p.bad)[:1])
		}
		if !slices.Equal(*p.sunk, *p1.sunk) {
			t.Errorf("%d workers: sunk responses differ from one worker's", w)
		}
		for xi := range got {
			for k := range got[xi].Policies {
				g, e := got[xi].Policies[k].Summaries, want[xi].Policies[k].Summaries
				if fmt.Sprint(g) != fmt.Sprint(e) {
					t.Errorf("%d workers, experiment %d, %s: %+v, want %+v", w, xi, got[xi].Policies[k].Policy, g, e)
				}
			}
		}
		for _, mode := range []string{"sink fails", "cancel"} {
			p := mk(mode == "sink fails")
			ctx, cancel := context.WithCancel(context.Background())
			if mode == "cancel" {
				go func() { time.Sleep(3 * time.Millisecond); cancel() }()
			}
			done := make(chan error, 1)
			go func() { _, err := RunExperiments(ctx, RunOptions{Workers: w}, p.xs...); done <- err }()
			select {
			case err := <-done:
				if err == nil {
					t.Errorf("%d workers, %s: no error", w, mode)
				}
			case <-time.After(30 * time.Second):
				t.Fatalf("%d workers, %s: the pool did not end", w, mode)
			}
			cancel()
		}
	}
}
