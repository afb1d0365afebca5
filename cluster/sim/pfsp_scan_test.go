package sim

// pfspScan is the previous PFSP implementation: each event scans the running
// jobs in virtual order, computing their slacks as it goes, up to the one
// with the least w (O(r log n) per event for r running jobs ahead of it,
// which grows linearly in n under overload). Its results are the ones PFSP
// must keep; TestPFSPMatchesScan compares the two.

import (
	"math"
	"sort"
)

type pfspScan struct {
	jobs []Job
	c    float64
	now  float64
	rem  []float64 // true remaining work; −1 once finished
	tag  []float64 // virtual finish tag
	late []bool    // finished virtually, not really
	act  []int32   // running, not-late jobs by (tag, index)
	done sumTree   // finished for real, still in the virtual PS
	vt   float64

	sumTag, sumEst float64 // over the virtual PS and the running jobs: scale of the slacks

	wheap keyHeap // running, not-late jobs by w (lazy: stale entries skipped)

	lateQ keyHeap // late jobs by PS finish tag
	vLate float64

	served int     // job served alone (−1: none, or late jobs share)
	ahead  float64 // least slack of the running jobs ahead of served
	nextT  float64
	work   float64 // the work (capacity × time) the server does until nextT
	kind   int     // 0 virtual completion, 1 real completion, 2 late completion, 3 slack ahead used up, 4 estimate used up
}

func (*pfspScan) Name() string { return "pfsp-scan" }

func (p *pfspScan) Start(jobs []Job, c float64) {
	n := len(jobs)
	p.jobs, p.c, p.now, p.vt, p.vLate, p.served = jobs, c, 0, 0, 0, -1
	p.sumTag, p.sumEst = 0, 0
	if cap(p.rem) < n {
		p.rem = make([]float64, n)
		p.tag = make([]float64, n)
		p.late = make([]bool, n)
	}
	p.rem, p.tag, p.late = p.rem[:n], p.tag[:n], p.late[:n]
	p.act = p.act[:0]
	p.done.reset(n, p.tag)
	p.lateQ.reset()
	p.wheap.reset()
	p.plan()
}

func (p *pfspScan) w(j int32) float64 {
	if p.rem[j] < 0 {
		return 0
	}
	e := p.jobs[j].Estimate
	w := e - (p.jobs[j].Size - p.rem[j])
	// Used up within Tol, or within the rounding of size − rem (a few
	// ulps of the size: after the estimate-used-up event snaps rem to
	// size − e, w can come out as 1e-17 instead of 0 when e ≪ size).
	if w <= Tol*e+0x1p-50*p.jobs[j].Size {
		return 0 // the estimate is used up
	}
	return w
}

// actPos returns where job j is or would go in act.
func (p *pfspScan) actPos(j int32) int {
	key := p.tag[j]
	return sort.Search(len(p.act), func(i int) bool {
		o := p.act[i]
		return p.tag[o] > key || (p.tag[o] == key && o >= j)
	})
}

func (p *pfspScan) Arrive(t float64, j int) {
	p.rem[j] = p.jobs[j].Size
	p.late[j] = false
	est := p.jobs[j].Estimate
	p.tag[j] = p.vt + est
	p.sumTag += p.tag[j]
	p.sumEst += est
	k := p.actPos(int32(j))
	p.act = append(p.act, 0)
	copy(p.act[k+1:], p.act[k:])
	p.act[k] = int32(j)
	p.wheap.push(p.w(int32(j)), j)
	p.plan()
}

// minW returns the least w over the running, not-late jobs (+Inf if none),
// dropping stale heap entries. The served job is considered apart (its w
// falls while it is served; it is pushed back when it stops).
func (p *pfspScan) minW() float64 {
	for p.wheap.len() > 0 {
		e := p.wheap.min()
		j := e.j
		if p.rem[j] >= 0 && !p.late[j] && int(j) != p.served && e.key == p.w(j) {
			break
		}
		p.wheap.pop()
	}
	g := math.Inf(1)
	if p.wheap.len() > 0 {
		g = p.wheap.min().key
	}
	if s := p.served; s >= 0 && p.rem[s] >= 0 && !p.late[s] {
		g = math.Min(g, p.w(int32(s)))
	}
	return g
}

// front returns the job at the front of the virtual PS (−1 if empty).
func (p *pfspScan) front() int32 {
	f := p.done.min()
	if len(p.act) > 0 && (f < 0 || p.tag[p.act[0]] < p.tag[f] || (p.tag[p.act[0]] == p.tag[f] && p.act[0] < f)) {
		f = p.act[0]
	}
	return f
}

// plan chooses the served job and the next event.
func (p *pfspScan) plan() {
	prev := p.served
	gw := p.minW()
	p.served, p.nextT, p.kind = -1, math.Inf(1), -1
	m := len(p.act) + p.done.size()
	if m > 0 {
		p.setNext((p.tag[p.front()]-p.vt)*float64(m), 0)
	}
	if n := p.lateQ.len(); n > 0 {
		p.setNext((p.lateQ.min().key-p.vLate)*float64(n), 2)
		p.requeue(prev)
		return
	}
	best, bestW, bestAhead := int32(-1), 0.0, 0.0
	prefixMin := math.Inf(1)
	sumV, sumW := 0.0, 0.0 // over the running jobs ahead
	// delta is the slack that counts as none for a job whose estimate is
	// used up (a tolerance at the scale of the slacks).
	delta := Tol * math.Max(p.sumTag-float64(m)*p.vt+p.sumEst, 0)
	for a, j := range p.act {
		v := p.tag[j] - p.vt
		dc, ds := p.done.below(j)
		aheadAll := a + dc
		vAhead := sumV + (ds - float64(dc)*p.vt)
		w := p.w(j)
		sumW += w
		ok := w <= prefixMin+Tol*(w+math.Abs(prefixMin))
		if w == 0 && !math.IsInf(prefixMin, 1) {
			ok = prefixMin > delta
		}
		if ok && (best < 0 || w < bestW) {
			best, bestW, bestAhead = j, w, prefixMin
		}
		s := vAhead + float64(m-aheadAll)*v - sumW
		prefixMin = math.Min(prefixMin, s)
		// Nothing behind can beat the least w overall, and once the slack
		// ahead is below it nothing behind is completable.
		if best >= 0 && bestW <= gw {
			break
		}
		if gw > delta && prefixMin+Tol*(gw+math.Abs(prefixMin)) < gw {
			break
		}
		sumV += v
	}
	if best < 0 {
		p.requeue(prev)
		return
	}
	p.served, p.ahead = int(best), bestAhead
	if prev != p.served {
		p.requeue(prev)
	}
	p.setNext(p.rem[best], 1)
	if bestW > 0 && bestW < p.rem[best] {
		// The estimate runs out first: the slack dynamics change then.
		p.setNext(bestW, 4)
	} else if bestW == 0 && !math.IsInf(bestAhead, 1) {
		// An exhausted estimate: serving it eats the slack of the jobs
		// ahead; re-plan when it is gone.
		p.setNext(math.Max(bestAhead, 0), 3)
	}
}

// setNext makes the event of the given kind, after the server has done
// work more, the next one if it comes first.
func (p *pfspScan) setNext(work float64, kind int) {
	if t := p.now + work/p.c; t < p.nextT {
		p.nextT, p.work, p.kind = t, work, kind
	}
}

// requeue puts a job that stopped being served back in the w heap with its
// current w.
func (p *pfspScan) requeue(j int) {
	if j >= 0 && j != p.served && p.rem[j] >= 0 && !p.late[j] {
		p.wheap.push(p.w(int32(j)), j)
	}
}

func (p *pfspScan) Next() float64 { return p.nextT }

func (p *pfspScan) Advance(t float64, done func(int)) {
	if p.kind < 0 {
		p.now = t
		return
	}
	// At the event the server has done the work planned for it, even if
	// the event's time rounds to now (a clock far from 0, a tiny slack):
	// every event makes progress.
	work := (t - p.now) * p.c
	if t >= p.nextT {
		work = p.work
	}
	if m := len(p.act) + p.done.size(); m > 0 {
		p.vt += work / float64(m)
	}
	if p.served >= 0 {
		p.rem[p.served] -= work
	} else if n := p.lateQ.len(); n > 0 {
		p.vLate += work / float64(n)
	}
	if t >= p.nextT {
		switch p.kind {
		case 0:
			p.vt = math.Max(p.vt, p.tag[p.front()])
		case 1:
			p.rem[p.served] = 0
		case 2:
			p.vLate = math.Max(p.vLate, p.lateQ.min().key)
		case 4:
			j := p.served
			p.rem[j] = math.Min(p.rem[j], p.jobs[j].Size-p.jobs[j].Estimate)
		}
	}
	p.now = t
	if s := p.served; s >= 0 && p.rem[s] <= Tol*p.jobs[s].Size {
		// Finished for real: from the running jobs to the treap of jobs
		// still in the virtual PS.
		k := p.actPos(int32(s))
		p.act = append(p.act[:k], p.act[k+1:]...)
		p.rem[s] = -1
		p.sumEst -= p.jobs[s].Estimate
		p.done.insert(s)
		done(s)
	}
	for p.lateQ.len() > 0 {
		e := p.lateQ.min()
		if e.key-p.vLate > Tol*p.jobs[e.j].Size {
			break
		}
		p.lateQ.pop()
		p.rem[e.j] = -1
		p.sumEst -= p.jobs[e.j].Estimate
		done(int(e.j))
	}
	if p.lateQ.len() == 0 {
		p.vLate = 0
	}
	for {
		j := p.front()
		if j < 0 || p.tag[j]-p.vt > Tol*p.jobs[j].Estimate {
			break
		}
		if p.rem[j] >= 0 {
			// Finished virtually, not really: late.
			p.act = append(p.act[:0], p.act[1:]...)
			p.late[j] = true
			p.lateQ.push(p.vLate+p.rem[j], int(j))
		} else {
			p.done.popMin()
		}
		p.sumTag -= p.tag[j]
	}
	if len(p.act)+p.done.size() == 0 {
		p.vt, p.sumTag = 0, 0
	}
	p.plan()
}
