package sim

// pfspRef is the first, plain implementation of PFSP: it recomputes every
// slack of eq. 6 from scratch at each event, O(m) per event. Tests compare
// the optimised PFSP with it.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"testing"
)

type pfspRef struct {
	jobs []Job
	c    float64
	now  float64
	rem  []float64 // true remaining work; −1 once finished
	tag  []float64 // virtual finish tag
	vq   []int32   // virtual PS, by (tag, index)
	vt   float64

	late  keyHeap
	vLate float64

	served int     // job served alone (−1: none, or late jobs share)
	ahead  float64 // least slack of the running jobs ahead of served
	nextT  float64
	kind   int // 0 virtual completion, 1 real completion, 2 late completion, 3 slack ahead used up, 4 estimate used up
}

func (*pfspRef) Name() string { return "pfsp-ref" }

func (p *pfspRef) Start(jobs []Job, c float64) {
	n := len(jobs)
	p.jobs, p.c, p.now, p.vt, p.vLate = jobs, c, 0, 0, 0
	if cap(p.rem) < n {
		p.rem = make([]float64, n)
		p.tag = make([]float64, n)
	}
	p.rem, p.tag = p.rem[:n], p.tag[:n]
	p.vq = p.vq[:0]
	p.late.reset()
	p.plan()
}

func (p *pfspRef) w(j int32) float64 {
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

func (p *pfspRef) Arrive(t float64, j int) {
	p.rem[j] = p.jobs[j].Size
	p.tag[j] = p.vt + p.jobs[j].Estimate
	key := p.tag[j]
	k := sort.Search(len(p.vq), func(i int) bool {
		o := p.vq[i]
		return p.tag[o] > key || (p.tag[o] == key && int(o) > j)
	})
	p.vq = append(p.vq, 0)
	copy(p.vq[k+1:], p.vq[k:])
	p.vq[k] = int32(j)
	p.plan()
}

// plan chooses the served job and the next event.
func (p *pfspRef) plan() {
	p.served, p.nextT, p.kind = -1, math.Inf(1), -1
	m := len(p.vq)
	if m > 0 {
		p.nextT, p.kind = p.now+(p.tag[p.vq[0]]-p.vt)*float64(m)/p.c, 0
	}
	if n := p.late.len(); n > 0 {
		if t := p.now + (p.late.min().key-p.vLate)*float64(n)/p.c; t < p.nextT {
			p.nextT, p.kind = t, 2
		}
		return
	}
	best, bestW, bestAhead := int32(-1), 0.0, 0.0
	prefixMin := math.Inf(1)
	sumV, sumW := 0.0, 0.0
	// delta is the slack that counts as none: a job whose estimate is used
	// up (w = 0) is completable only while the jobs ahead have more slack
	// than this, since serving it eats their slack.
	delta := 0.0
	for _, j := range p.vq {
		delta += p.tag[j] - p.vt + p.w(j)
	}
	delta *= Tol
	for i, j := range p.vq {
		v := p.tag[j] - p.vt
		if p.rem[j] >= 0 {
			w := p.w(j)
			sumW += w
			ok := w <= prefixMin+Tol*(w+math.Abs(prefixMin))
			if w == 0 && !math.IsInf(prefixMin, 1) {
				ok = prefixMin > delta
			}
			if ok && (best < 0 || w < bestW) {
				best, bestW, bestAhead = j, w, prefixMin
			}
			s := sumV + float64(m-i)*v - sumW
			prefixMin = math.Min(prefixMin, s)
		}
		sumV += v
	}
	if best < 0 {
		return
	}
	p.served, p.ahead = int(best), bestAhead
	if t := p.now + p.rem[best]/p.c; t < p.nextT {
		p.nextT, p.kind = t, 1
	}
	if bestW > 0 && bestW < p.rem[best] {
		// The estimate runs out first: the slack dynamics change then.
		if t := p.now + bestW/p.c; t < p.nextT {
			p.nextT, p.kind = t, 4
		}
	} else if bestW == 0 && !math.IsInf(bestAhead, 1) {
		// An exhausted estimate: serving it eats the slack of the jobs
		// ahead; re-plan when it is gone.
		if t := p.now + math.Max(bestAhead, 0)/p.c; t < p.nextT {
			p.nextT, p.kind = t, 3
		}
	}
}

func (p *pfspRef) Next() float64 { return p.nextT }

func (p *pfspRef) Advance(t float64, done func(int)) {
	if p.kind < 0 {
		p.now = t
		return
	}
	dt := t - p.now
	if m := len(p.vq); m > 0 {
		p.vt += dt * p.c / float64(m)
	}
	if p.served >= 0 {
		p.rem[p.served] -= dt * p.c
	} else if n := p.late.len(); n > 0 {
		p.vLate += dt * p.c / float64(n)
	}
	if t >= p.nextT {
		switch p.kind {
		case 0:
			p.vt = math.Max(p.vt, p.tag[p.vq[0]])
		case 1:
			p.rem[p.served] = 0
		case 2:
			p.vLate = math.Max(p.vLate, p.late.min().key)
		case 4:
			j := p.served
			p.rem[j] = math.Min(p.rem[j], p.jobs[j].Size-p.jobs[j].Estimate)
		}
	}
	p.now = t
	if s := p.served; s >= 0 && p.rem[s] <= Tol*p.jobs[s].Size {
		p.rem[s] = -1
		done(s)
	}
	for p.late.len() > 0 {
		e := p.late.min()
		if e.key-p.vLate > Tol*p.jobs[e.j].Size {
			break
		}
		p.late.pop()
		p.rem[e.j] = -1
		done(int(e.j))
	}
	if p.late.len() == 0 {
		p.vLate = 0
	}
	k := 0
	for k < len(p.vq) {
		j := p.vq[k]
		if p.tag[j]-p.vt > Tol*p.jobs[j].Estimate {
			break
		}
		if p.rem[j] >= 0 {
			p.late.push(p.vLate+p.rem[j], int(j))
		}
		k++
	}
	if k > 0 {
		p.vq = append(p.vq[:0], p.vq[k:]...)
	}
	if len(p.vq) == 0 {
		p.vt = 0
	}
	p.plan()
}

func TestPFSPMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for inst := 0; inst < 40; inst++ {
		sigma := []float64{0, 0.5, 1, 2}[inst%4]
		jobs := randomJobs(rng, 50+rng.IntN(300), 1, sigma)
		matchPFSPRef(t, fmt.Sprintf("instance %d (σ %v)", inst, sigma), jobs, &PFSP{})
	}
}

// pfspDeep is PFSP recording the most levels its tree of jobs done for
// real reached, so that a test can show it went through the inner nodes.
type pfspDeep struct {
	PFSP
	height, most int
}

func (p *pfspDeep) Advance(t float64, done func(int)) {
	p.PFSP.Advance(t, done)
	p.height = max(p.height, p.done.height)
	p.most = max(p.most, p.done.size())
}

// TestPFSPMatchesReferenceDeep compares PFSP with the plain reference on
// instances whose estimates are so far off (σ = 1 and 2: the estimates'
// mean is e^{σ²/2} times the sizes', the virtual PS overloads) that
// thousands of jobs done for real wait in the virtual PS at once: the
// B+ tree that holds them (sumTree) grows inner levels, splits and empties
// them from the front. Completion times must agree within 1e-9 relative.
func TestPFSPMatchesReferenceDeep(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds of the O(m)-per-event reference")
	}
	height := 0
	for inst := uint64(0); inst < 6; inst++ {
		rng := rand.New(rand.NewPCG(inst, 30))
		sigma := []float64{1, 2}[inst%2]
		jobs := pfspDiffJobs(rng, 6000+rng.IntN(3000), 0.7+0.3*rng.Float64(), sigma)
		p := &pfspDeep{}
		matchPFSPRef(t, fmt.Sprintf("instance %d (σ %v, %d jobs)", inst, sigma, len(jobs)), jobs, p)
		height = max(height, p.height)
		t.Logf("instance %d (σ %v, %d jobs): at most %d jobs done for real in the virtual PS, %d inner levels", inst, sigma, len(jobs), p.most, p.height)
	}
	if height < 2 {
		t.Errorf("the tree of jobs done for real reached %d inner levels, want ≥ 2 (the instances no longer exercise it)", height)
	}
}

// matchPFSPRef runs p (a PFSP) and the plain reference on jobs at capacity
// 1 and reports the first job whose completion times differ by more than
// 1e-9 relative.
func matchPFSPRef(t *testing.T, what string, jobs []Job, p Policy) {
	t.Helper()
	a, err := Simulate(jobs, 1, p)
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	b, err := Simulate(jobs, 1, &pfspRef{})
	if err != nil {
		t.Fatalf("%s: reference: %v", what, err)
	}
	for i := range jobs {
		if !close(a.Completion[i], b.Completion[i], 1e-9) {
			t.Errorf("%s: job %d completes at %v, reference %v", what, i, a.Completion[i], b.Completion[i])
			return
		}
	}
}
