package experiment

import (
	"cmp"
	"slices"
	"sync"
)

// drawCache shares each run's drawn estimates among the policies that
// simulate that run. Every policy of an experiment sees the same draw
// for run r (estimate.RunRand(Seed, r) over the same sizes), so the
// column is drawn once, by the first of the run's units to start, and
// read by the others — the validate stage's σ experiments drew each
// column once per policy (SRPT, FSP+PS, PFSP: three times). The units of
// an experiment that shares (shares) start run by run (runMajor), so
// that a column is live only while its run's units are: at most one per
// worker, as when each worker held its own, plus one while a worker
// moves on to the next run. A column whose units are all done goes to a
// free list that the next run's column reuses; no more columns are held
// than workers, and none once every sharing unit is done.
type drawCache struct {
	mu      sync.Mutex
	cols    map[drawKey]*drawColumn
	refs    map[drawKey]int // the run's units not done
	left    int             // units with a run in refs, not done
	free    [][]float64
	held    int // columns allocated and not dropped
	workers int
}

// drawKey names a run of an experiment (its index k into the
// experiment's runs).
type drawKey struct{ x, k int }

// drawColumn is a run's estimates, drawn once.
type drawColumn struct {
	once sync.Once
	est  []float64
}

// newDrawCache returns the cache of the experiments that share draws:
// those whose estimates a column holds (a fluid simulator's), drawn from
// an error model, with more than one unit a run, no Sink (which is
// handed rows in policy order) and no Reference (whose runs wait for a
// reference run).
func newDrawCache(xs []*Experiment, units []unit, workers int) *drawCache {
	c := &drawCache{cols: map[drawKey]*drawColumn{}, refs: map[drawKey]int{}, workers: workers}
	shares := make([]bool, len(xs))
	for xi, x := range xs {
		shares[xi] = x.sharesDraws()
	}
	for _, u := range units {
		if shares[u.x] {
			c.refs[drawKey{u.x, u.k}]++
			c.left++
		}
	}
	for k, n := range c.refs {
		if n < 2 {
			delete(c.refs, k)
			c.left -= n
		}
	}
	return c
}

// sharesDraws reports whether x's runs may share their draws (and so run
// run by run): estimates drawn into a column (an EstimatesSimulator's),
// no Sink, no Reference.
func (x *Experiment) sharesDraws() bool {
	if x.Errors.IsExact() || x.Sink != nil || x.Reference != nil {
		return false
	}
	_, byColumn := x.resolution().NewSimulator().(EstimatesSimulator)
	return byColumn
}

// shared reports whether unit u's run shares its draws. Workers ask it
// while others' done writes refs: it reads under the lock (a map read
// beside a write is a race the runtime may end the program for).
func (c *drawCache) shared(u unit) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.refs[drawKey{u.x, u.k}] > 0
}

// column returns the estimates of u's run, n of them, drawn by draw on
// the first call for the run; later calls wait for that draw.
func (c *drawCache) column(u unit, n int, draw func(est []float64)) []float64 {
	key := drawKey{u.x, u.k}
	c.mu.Lock()
	col := c.cols[key]
	if col == nil {
		col = &drawColumn{}
		if k := len(c.free) - 1; k >= 0 {
			col.est, c.free = resize(c.free[k], n), c.free[:k]
		} else {
			col.est = make([]float64, n)
			c.held++
		}
		c.cols[key] = col
	}
	live := len(c.cols)
	c.mu.Unlock()
	col.once.Do(func() {
		if drawHook != nil {
			drawHook(u, live)
		}
		draw(col.est)
	})
	return col.est
}

// drawHook, when set (tests), is called as a run's column is drawn, with
// the unit that draws it and the number of columns live.
var drawHook func(u unit, live int)

// done records that unit u is done (simulated, another shard's, or
// failed): the last of its run's units frees the run's column.
func (c *drawCache) done(u unit) {
	key := drawKey{u.x, u.k}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.refs[key] == 0 {
		return
	}
	c.left--
	if c.refs[key]--; c.refs[key] == 0 {
		if col := c.cols[key]; col != nil {
			delete(c.cols, key)
			if c.held <= c.workers {
				c.free = append(c.free, col.est)
			} else {
				c.held--
			}
		}
	}
	if c.left == 0 {
		c.held -= len(c.free)
		c.free = nil // no unit will draw again
	}
}

// runMajor reorders order (unit indices into units) so that within each
// stretch of consecutive units of one experiment that shares its draws,
// the units go run by run — every policy of the first run, then of the
// next —, each run's policies in the order they had. A run's units then
// share one column (drawCache) that is live only while they run. Which
// unit runs where does not change a result, nor the order of any Sink's
// rows (an experiment with a Sink does not share).
func runMajor(order []int, units []unit, c *drawCache) {
	for a := 0; a < len(order); {
		x := units[order[a]].x
		b := a + 1
		for b < len(order) && units[order[b]].x == x {
			b++
		}
		if slices.ContainsFunc(order[a:b], func(i int) bool { return c.shared(units[i]) }) {
			slices.SortStableFunc(order[a:b], func(i, j int) int { return cmp.Compare(units[i].k, units[j].k) })
		}
		a = b
	}
}
