package task

import (
	"fmt"
	"math"
)

// Preemption in the Fair Scheduler (Fair.Preemption; off by default, as
// yarn.scheduler.fair.preemption). A leaf queue is starved
//
//   - for its min share when its usage has stayed below min(MinShare,
//     demand) for MinSharePreemptionTimeout seconds, by the difference;
//   - for its fair share when its usage has stayed below
//     min(FairSharePreemptionThreshold × fair share, demand) for
//     FairSharePreemptionTimeout seconds, by the difference;
//
// where the fair share is the instantaneous one of ComputeFairShares:
// each parent's share is split among its children with demand so that
// child i gets clamp(R·weight_i, MinShare_i, MaxShare_i) for one R
// (bisection), starting from all the containers at the root. When a
// starvation timeout expires, tasks are killed from the leaves above their
// fair share, the most over it first, each leaf's most recently started
// task first, never taking a leaf below its fair share
// (FSPreemptionThread, simplified: containers are chosen cluster-wide, not
// node by node, and killed at once rather than after a warning). The freed
// containers then go by the usual order, in which needy queues come first,
// and the starved leaf's clock restarts: if it is still starved a timeout
// later (its containers went elsewhere), more tasks are preempted.
// The timeouts and the threshold are inherited from the parent when 0; the
// root's 0 means never (Hadoop's defaults) and a threshold 0.5.
//
// With preemption on, the starvation state is brought up to date after
// every round of events: O(Q log(1/ε)) for Q queues (the fair shares).

// preemptState is a queue's preemption settings and state.
type preemptState struct {
	minTO, fairTO, thr  float64   // effective settings
	fair                float64   // instantaneous fair share (containers)
	minSince, fairSince float64   // when it became starved; NaN: it is not
	tasks               []TaskRef // leaf: started tasks, newest last (some ended)
	live                int       // leaf: running tasks among them
}

func (f *Fair) setupPreempt() error {
	for i := range f.qs {
		c := &f.qs[i]
		c.pre = preemptState{minSince: math.NaN(), fairSince: math.NaN(), tasks: c.pre.tasks[:0]}
		p := &c.pre
		cfg := c.cfg
		if c.parent >= 0 {
			pp := &f.qs[c.parent].pre
			p.minTO, p.fairTO, p.thr = pp.minTO, pp.fairTO, pp.thr
		} else {
			p.minTO, p.fairTO, p.thr = inf, inf, 0.5
		}
		bad := func(v float64) bool { return !(v >= 0) || math.IsInf(v, 0) }
		if bad(cfg.minTO) || bad(cfg.fairTO) || !(cfg.thr >= 0 && cfg.thr <= 1) {
			return fmt.Errorf("queue %s: preemption timeouts must be finite and non-negative, the threshold in [0, 1]", c.name)
		}
		if v := cfg.minTO; v > 0 {
			p.minTO = v
		}
		if v := cfg.fairTO; v > 0 {
			p.fairTO = v
		}
		if v := cfg.thr; v > 0 {
			p.thr = v
		}
	}
	return nil
}

// fairShares computes every queue's instantaneous fair share.
func (f *Fair) fairShares() {
	f.qs[0].pre.fair = float64(f.s.Containers())
	for i := range f.qs {
		c := &f.qs[i]
		if len(c.children) > 0 {
			f.split(c)
		}
	}
}

// split divides parent c's fair share among its children with demand
// (queues are stored parents before children).
func (f *Fair) split(c *fq) {
	total, maxSum := c.pre.fair, 0.0
	active := f.active[:0]
	for _, ch := range c.children {
		q := &f.qs[ch]
		q.pre.fair = 0
		if q.usage+q.readyC > 0 {
			active = append(active, ch)
			if q.maxShare > 0 {
				maxSum += float64(q.maxShare)
			} else {
				maxSum = inf
			}
		}
	}
	f.active = active
	total = math.Min(total, maxSum)
	if len(active) == 0 || !(total > 0) {
		return
	}
	share := func(q *fq, r float64) float64 {
		s := math.Max(r*q.weight, float64(q.minShare))
		if q.maxShare > 0 {
			s = math.Min(s, float64(q.maxShare))
		}
		return s
	}
	sum := func(r float64) float64 {
		t := 0.0
		for _, ch := range active {
			t += share(&f.qs[ch], r)
		}
		return t
	}
	if s0 := sum(0); s0 >= total {
		// Min shares exceed the share: scale them down.
		for _, ch := range active {
			f.qs[ch].pre.fair = share(&f.qs[ch], 0) * total / s0
		}
		return
	}
	lo, hi := 0.0, 1.0
	for sum(hi) < total && hi < 1e300 {
		hi *= 2
	}
	for range 100 {
		mid := (lo + hi) / 2
		if sum(mid) < total {
			lo = mid
		} else {
			hi = mid
		}
	}
	for _, ch := range active {
		f.qs[ch].pre.fair = share(&f.qs[ch], hi)
	}
}

// starvation returns leaf c's min-share and fair-share shortfalls now.
func (c *fq) starvation() (minShort, fairShort float64) {
	demand := float64(c.usage + c.readyC)
	u := float64(c.usage)
	minShort = math.Min(float64(c.minShare), demand) - u
	fairShort = math.Min(c.pre.thr*c.pre.fair, demand) - u
	return math.Max(minShort, 0), math.Max(fairShort, 0)
}

// NextPreempt brings the leaves' starvation state to now and returns when
// the first starvation timeout expires.
func (f *Fair) NextPreempt() float64 {
	if !f.Preemption {
		return inf
	}
	now := f.s.Now()
	f.fairShares()
	next := inf
	f.eachLeaf(func(c *fq) {
		m, fs := c.starvation()
		p := &c.pre
		p.minSince = since(p.minSince, m > 1e-9 && !math.IsInf(p.minTO, 1), now)
		p.fairSince = since(p.fairSince, fs > 1e-9 && !math.IsInf(p.fairTO, 1), now)
		if !math.IsNaN(p.minSince) {
			next = math.Min(next, p.minSince+p.minTO)
		}
		if !math.IsNaN(p.fairSince) {
			next = math.Min(next, p.fairSince+p.fairTO)
		}
	})
	return next
}

// eachLeaf calls fn for every leaf queue.
func (f *Fair) eachLeaf(fn func(c *fq)) {
	for i := range f.qs {
		if f.qs[i].leaf {
			fn(&f.qs[i])
		}
	}
}

func since(t float64, starved bool, now float64) float64 {
	switch {
	case !starved:
		return math.NaN()
	case math.IsNaN(t):
		return now
	}
	return t
}

// Preempt kills tasks for the leaves starved past their timeouts.
func (f *Fair) Preempt(kill func(TaskRef) error) {
	now := f.s.Now()
	need := 0.0
	f.eachLeaf(func(c *fq) {
		m, fs := c.starvation()
		p := &c.pre
		short := 0.0
		if !math.IsNaN(p.minSince) && p.minSince+p.minTO <= now {
			short = m
			p.minSince = now // the clock restarts: no more until another timeout
		}
		if !math.IsNaN(p.fairSince) && p.fairSince+p.fairTO <= now {
			short = math.Max(short, fs)
			p.fairSince = now
		}
		need += short
	})
	for need > 1e-9 {
		// The leaf most above its fair share that can give a task.
		best, over := -1, 0.0
		for i := range f.qs {
			c := &f.qs[i]
			if !c.leaf {
				continue
			}
			t, ok := f.newest(c)
			if o := float64(c.usage) - c.pre.fair; ok && float64(c.usage-int64(t.Containers)) >= c.pre.fair-1e-9 && o > over {
				best, over = i, o
			}
		}
		if best < 0 {
			return
		}
		c := &f.qs[best]
		t, _ := f.newest(c)
		c.pre.tasks = c.pre.tasks[:len(c.pre.tasks)-1]
		if kill(t) != nil {
			return
		}
		need -= float64(t.Containers)
	}
}

// newest returns leaf c's most recently started running task, dropping
// the ended ones above it.
func (f *Fair) newest(c *fq) (TaskRef, bool) {
	ts := c.pre.tasks
	for len(ts) > 0 && !f.s.Live(ts[len(ts)-1]) {
		ts = ts[:len(ts)-1]
	}
	c.pre.tasks = ts
	if len(ts) == 0 {
		return TaskRef{}, false
	}
	return ts[len(ts)-1], true
}

// trackStart records a started task for preemption; the list is compacted
// when most of it has ended.
func (f *Fair) trackStart(t TaskRef) {
	c := &f.qs[f.leafOf[t.Job]]
	c.pre.live++
	c.pre.tasks = append(c.pre.tasks, t)
	if len(c.pre.tasks) > 64 && len(c.pre.tasks) > 4*c.pre.live {
		k := 0
		for _, x := range c.pre.tasks {
			if f.s.Live(x) {
				c.pre.tasks[k] = x
				k++
			}
		}
		c.pre.tasks = c.pre.tasks[:k]
	}
}
