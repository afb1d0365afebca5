package sim

import "math"

// capPS is PS/GPS with rate caps: max-min fair water-filling, job j gets
// min(cap_j, w_j·θ) with the level θ set so that the rates fill the
// capacity (or every job is at its cap).
//
// Jobs below the level are capped: they run at their cap, so each has a
// fixed finish time (a heap). The others share by virtual time as in PS (a
// heap of tags). A job's key is cap/weight; capped jobs are those with key
// < θ. After each arrival or completion the sets are rebalanced: the
// smallest-key uncapped job moves to the capped set while its key is below
// θ, the largest-key capped job moves back while its key is at least θ;
// both moves only raise θ, so each job moves at most twice. Heaps are lazy
// (stale entries are skipped). An event costs O((1 + moves) log n); moves
// are usually few but not bounded by a constant.
type capPS struct {
	jobs []Job
	c    float64
	wt   bool // weighted (GPS)
	now  float64

	state []int8    // 0 absent, 1 uncapped, 2 capped
	tag   []float64 // uncapped: virtual finish tag
	fin   []float64 // capped: absolute finish time

	v      float64 // virtual time of the uncapped jobs
	sumW   float64 // Σ weights of uncapped jobs
	nU     int
	sumCap float64 // Σ caps of capped jobs
	nK     int

	uTag, uKey keyHeap // uncapped by tag, by key (min)
	kFin, kKey keyHeap // capped by finish time, by −key (max key first)
}

const (
	psAbsent = iota
	psUncapped
	psCapped
)

func (p *capPS) start(jobs []Job, c float64, weighted bool, sc *scratch) {
	n := len(jobs)
	p.jobs, p.c, p.wt, p.now = jobs, c, weighted, 0
	p.v, p.sumW, p.nU, p.sumCap, p.nK = 0, 0, 0, 0, 0
	p.state, p.tag, p.fin = sc.int8s(p.state, n), sc.floats(0, p.tag, n), sc.floats(1, p.fin, n)
	clear(p.state)
	p.uTag.reset()
	p.uKey.reset()
	p.kFin.reset()
	p.kKey.reset()
}

func (p *capPS) weight(j int) float64 {
	if w := p.jobs[j].Weight; p.wt && w > 0 {
		return w
	}
	return 1
}

// key is cap/weight (+Inf without a cap).
func (p *capPS) key(j int) float64 {
	if k := p.jobs[j].Cap; k > 0 {
		return k / p.weight(j)
	}
	return math.Inf(1)
}

// level is θ: (capacity − Σ capped caps) / Σ uncapped weights.
func (p *capPS) level() float64 {
	free := p.c - p.sumCap
	if p.nU == 0 {
		if free >= 0 {
			return math.Inf(1)
		}
		return math.Inf(-1)
	}
	return free / p.sumW
}

func (p *capPS) toUncapped(j int, rem float64) {
	w := p.weight(j)
	p.state[j] = psUncapped
	p.tag[j] = p.v + rem/w
	p.uTag.push(p.tag[j], j)
	p.uKey.push(p.key(j), j)
	p.sumW += w
	p.nU++
}

func (p *capPS) toCapped(j int, rem float64) {
	k := p.jobs[j].Cap
	p.state[j] = psCapped
	p.fin[j] = p.now + rem/k
	p.kFin.push(p.fin[j], j)
	p.kKey.push(-p.key(j), j)
	p.sumCap += k
	p.nK++
}

func (p *capPS) leaveUncapped(j int) float64 {
	w := p.weight(j)
	p.sumW -= w
	p.nU--
	if p.nU == 0 {
		p.sumW = 0
	}
	return (p.tag[j] - p.v) * w
}

func (p *capPS) leaveCapped(j int) float64 {
	k := p.jobs[j].Cap
	p.sumCap -= k
	p.nK--
	if p.nK == 0 {
		p.sumCap = 0
	}
	return (p.fin[j] - p.now) * k
}

func (p *capPS) arrive(j int) {
	p.toUncapped(j, p.jobs[j].Size)
	p.rebalance()
}

func (p *capPS) rebalance() {
	for {
		// Drop stale heap tops.
		for p.uKey.len() > 0 && p.state[p.uKey.min().j] != psUncapped {
			p.uKey.pop()
		}
		for p.kKey.len() > 0 && p.state[p.kKey.min().j] != psCapped {
			p.kKey.pop()
		}
		th := p.level()
		if p.uKey.len() > 0 && p.uKey.min().key < th {
			j := int(p.uKey.pop().j)
			p.toCapped(j, p.leaveUncapped(j))
			continue
		}
		if p.kKey.len() > 0 && -p.kKey.min().key >= th {
			j := int(p.kKey.pop().j)
			p.toUncapped(j, p.leaveCapped(j))
			continue
		}
		break
	}
	if p.nU == 0 {
		p.v = 0
	}
}

func (p *capPS) cleanTops() {
	for p.uTag.len() > 0 {
		e := p.uTag.min()
		if p.state[e.j] == psUncapped && p.tag[e.j] == e.key {
			break
		}
		p.uTag.pop()
	}
	for p.kFin.len() > 0 {
		e := p.kFin.min()
		if p.state[e.j] == psCapped && p.fin[e.j] == e.key {
			break
		}
		p.kFin.pop()
	}
}

// next returns the next completion time and whether it is an uncapped one.
func (p *capPS) next() (float64, bool) {
	p.cleanTops()
	t, unc := math.Inf(1), false
	if p.nU > 0 && p.uTag.len() > 0 {
		t, unc = p.now+(p.uTag.min().key-p.v)/p.level(), true
	}
	if p.kFin.len() > 0 {
		if tk := p.kFin.min().key; tk < t {
			t, unc = tk, false
		}
	}
	return t, unc
}

func (p *capPS) advance(t float64, done func(int)) {
	tn, unc := p.next()
	if p.nU > 0 {
		p.v += (t - p.now) * p.level()
	}
	p.now = t
	if t >= tn && unc {
		p.v = max(p.v, p.uTag.min().key)
	}
	changed := false
	for p.uTag.len() > 0 {
		e := p.uTag.min()
		j := int(e.j)
		if p.state[j] == psUncapped && p.tag[j] == e.key {
			if e.key-p.v > Tol*p.jobs[j].Size/p.weight(j) {
				break
			}
			p.leaveUncapped(j)
			p.state[j] = psAbsent
			done(j)
			changed = true
		}
		p.uTag.pop()
	}
	for p.kFin.len() > 0 {
		e := p.kFin.min()
		j := int(e.j)
		if p.state[j] == psCapped && p.fin[j] == e.key {
			if e.key-p.now > Tol*p.jobs[j].Size/p.jobs[j].Cap && !(t >= tn && !unc && e.key <= tn) {
				break
			}
			p.leaveCapped(j)
			p.state[j] = psAbsent
			done(j)
			changed = true
		}
		p.kFin.pop()
	}
	if changed {
		p.rebalance()
	}
}
