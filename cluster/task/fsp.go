package task

import "math"

// FSP is the Fair Sojourn Protocol at task level: a virtual processor
// sharing of the estimated sizes runs at the cluster's total rate, and
// every free container goes to the job that finishes first in it (late
// jobs — finished there, not here — first, in the order they became late:
// FSP+FIFO, seed 001). Virtual finish tags V(arrival) + Estimate never
// change and the virtual PS finishes jobs in tag order, so the order is a
// heap by tag; the virtual time V advances at Rate / (jobs in the virtual
// PS) between virtual departures, kept in a second heap. O(log n)
// amortised per decision and notification. With exact estimates, jobs
// miss their PS completion times by at most about one task's length (the
// test checks it).
type FSP struct {
	jobOrder
	tags  []float64
	vk    heapKeys
	virt  iheap // jobs in the virtual PS by tag
	v, vt float64
}

func (*FSP) Name() string { return "fsp" }

func (p *FSP) Start(s *State) error {
	n := len(s.Jobs())
	p.tags = resize(p.tags, n)
	p.vk.reset(n)
	p.virt.init(&p.vk)
	p.v, p.vt = 0, math.Inf(-1)
	p.start(s, func(j int) key { return key{p.tags[j], 0} }, false)
	return nil
}

// advance brings the virtual PS to now.
func (p *FSP) advance(now float64) {
	r := p.s.Rate()
	for p.virt.len() > 0 {
		nv := float64(p.virt.len())
		tag := p.vk.k[p.virt.min()].a
		t := p.vt + (tag-p.v)*nv/r
		if t > now {
			p.v += (now - p.vt) * r / nv
			break
		}
		p.v, p.vt = tag, t
		p.virt.pop()
	}
	p.vt = now
}

func (p *FSP) Arrive(j int) {
	p.advance(p.s.Now())
	p.tags[j] = p.v + p.s.Estimate(j)
	p.virt.set(int32(j), key{p.tags[j], 0})
}
