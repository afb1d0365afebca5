package experiment

import (
	"sync"
	"testing"
)

// TestDrawCacheSharedWhileDone checks that a unit may ask whether its run
// shares its draws (as every unit does when it starts) while other units
// of other runs finish (done updates the counts under the cache's lock):
// shared must not read what done writes. Run with -race (on main the
// race detector reports shared's map read against done's write; without
// it the runtime may abort on a concurrent map read and write).
func TestDrawCacheSharedWhileDone(t *testing.T) {
	xs := sharedDrawPool(sharedDrawJobs(10), nil)[1:2] // srpt, fsp+ps, pfsp: 4 runs
	xs[0].Runs = 200
	var units []unit
	for p := range xs[0].Policies {
		for k := range xs[0].Runs {
			units = append(units, unit{0, p, k})
		}
	}
	c := newDrawCache(xs, units, 2)
	var wg sync.WaitGroup
	half := len(units) / 2
	wg.Add(2)
	go func() { // the units of the first runs finish
		defer wg.Done()
		for _, u := range units {
			if u.k < xs[0].Runs/2 {
				c.done(u)
			}
		}
	}()
	go func() { // the later runs' units start
		defer wg.Done()
		for _, u := range units[half:] {
			if u.k >= xs[0].Runs/2 && !c.shared(u) {
				t.Errorf("unit %v: run not shared", u)
			}
		}
	}()
	wg.Wait()
}
