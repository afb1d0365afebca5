package sim

import "math"

// PS is processor sharing, and with Weighted set, generalised processor
// sharing (GPS): every active job j gets capacity × w_j / Σw.
//
// It keeps a virtual time V, the service a unit-weight job has received
// since V was last reset; V grows at rate capacity / Σw. Job j, arriving at
// virtual time V_a, finishes when V reaches its tag F_j = V_a + size_j/w_j,
// so a heap of tags gives the next completion: O(log n) per event. V is
// reset to 0 whenever the system empties, which keeps tags small relative
// to the sizes of the jobs of a busy period.
//
// With rate caps it is max-min fair (water-filling; see capPS).
type PS struct {
	Weighted bool

	jobs  []Job
	c     float64
	v     float64 // virtual time
	sumW  float64
	now   float64
	heap  keyHeap
	count int

	capped bool
	cp     capPS // with rate caps
	loan         // the run's estimates, its jobs' facts, the simulator's arrays (borrow)
}

func (p *PS) borrow(l loan) {
	if l.sc != p.sc {
		p.cp.state, p.cp.tag, p.cp.fin = nil, nil, nil // the last lender's (dropArrays)
	}
	p.loan = l
}

func (*PS) supportsCaps() {}

func (p *PS) Name() string {
	if p.Weighted {
		return "gps"
	}
	return "ps"
}

func (p *PS) Start(jobs []Job, c float64) {
	p.jobs, p.c, p.v, p.sumW, p.now, p.count = jobs, c, 0, 0, 0, 0
	p.heap.reset()
	if p.capped = p.hasCaps(jobs); p.capped {
		p.cp.start(jobs, c, p.Weighted, p.sc)
	}
}

func (p *PS) weight(j int) float64 {
	if w := p.jobs[j].Weight; p.Weighted && w > 0 {
		return w
	}
	return 1
}

func (p *PS) Arrive(t float64, j int) {
	if p.capped {
		p.cp.arrive(j)
		return
	}
	w := p.weight(j)
	p.heap.push(p.v+p.jobs[j].Size/w, j)
	p.sumW += w
	p.count++
}

func (p *PS) Next() float64 {
	if p.capped {
		t, _ := p.cp.next()
		return t
	}
	if p.count == 0 {
		return math.Inf(1)
	}
	return p.now + (p.heap.min().key-p.v)*p.sumW/p.c
}

func (p *PS) Advance(t float64, done func(int)) {
	if p.capped {
		p.cp.advance(t, done)
		return
	}
	if p.count == 0 {
		p.now = t
		return
	}
	if t >= p.Next() {
		p.v = max(p.v, p.heap.min().key)
	} else {
		p.v += (t - p.now) * p.c / p.sumW
	}
	p.now = t
	for p.count > 0 {
		e := p.heap.min()
		j := int(e.j)
		w := p.weight(j)
		if e.key-p.v > Tol*p.jobs[j].Size/w {
			break
		}
		p.heap.pop()
		p.count--
		p.sumW -= w
		done(j)
	}
	if p.count == 0 {
		p.v, p.sumW = 0, 0
	}
}

// PSCompletions returns each job's completion time under PS on a server of
// capacity c: the protective deadline that FSP and PFSP guarantee when
// sizes are exact.
func PSCompletions(jobs []Job, c float64) ([]float64, error) {
	r, err := Simulate(jobs, c, &PS{})
	if err != nil {
		return nil, err
	}
	return r.Completion, nil
}
