package sim

import "math"

// FIFO gives all capacity to the earliest-arrived unfinished job. Jobs
// arrive in index order, so the queue is the index range [head, tail).
// O(1) per event.
//
// With rate caps, capacity is water-filled in arrival order: each job
// takes up to its cap from what the jobs before it left. Jobs finish out of
// order then, so the queue becomes a linked list, and an event costs O(s)
// for the s jobs served at once (those the capacity reaches).
type FIFO struct {
	loan       // the run's estimates, its jobs' facts, the simulator's arrays (borrow)
	jobs       []Job
	c          float64
	head, tail int
	rem        float64 // remaining work of the head job
	now        float64

	capped bool
	crem   []float64 // remaining work (capped mode)
	link   []int32   // next job in arrival order (capped mode)
	first  int32
	last   int32
	srv    []int32   // served jobs, in order
	rate   []float64 // their rates
	nextT  float64
	evJob  int32
}

func (*FIFO) Name() string { return "fifo" }

func (*FIFO) supportsCaps() {}

func (f *FIFO) Start(jobs []Job, c float64) {
	crem, link, srv, rate, l := f.crem, f.link, f.srv, f.rate, f.loan
	*f = FIFO{jobs: jobs, c: c, capped: f.hasCaps(jobs), loan: l}
	if f.capped {
		n := len(jobs)
		f.crem, f.link = f.sc.floats(0, crem, n), f.sc.int32s(0, link, n)
		f.srv, f.rate = srv[:0], rate[:0]
		f.first, f.last = -1, -1
		f.nextT = math.Inf(1)
	}
}

func (f *FIFO) borrow(l loan) {
	if l.sc != f.sc {
		f.crem, f.link = nil, nil // the last lender's (dropArrays)
	}
	f.loan = l
}

func (f *FIFO) Arrive(t float64, j int) {
	if f.capped {
		f.crem[j] = f.jobs[j].Size
		f.link[j] = -1
		if f.last < 0 {
			f.first = int32(j)
		} else {
			f.link[f.last] = int32(j)
		}
		f.last = int32(j)
		f.plan()
		return
	}
	if f.head == f.tail {
		f.rem = f.jobs[j].Size
	}
	f.tail = j + 1
}

func (f *FIFO) Next() float64 {
	if f.capped {
		return f.nextT
	}
	if f.head == f.tail {
		return math.Inf(1)
	}
	return f.now + f.rem/f.c
}

func (f *FIFO) Advance(t float64, done func(int)) {
	if f.capped {
		f.advanceCapped(t, done)
		return
	}
	if f.head == f.tail {
		f.now = t
		return
	}
	if t >= f.Next() {
		f.rem = 0
	} else {
		f.rem -= (t - f.now) * f.c
	}
	f.now = t
	for f.head < f.tail && f.rem <= Tol*f.jobs[f.head].Size {
		done(f.head)
		f.head++
		if f.head < f.tail {
			f.rem = f.jobs[f.head].Size
		}
	}
}

// plan water-fills the capacity in arrival order and finds the next
// completion.
func (f *FIFO) plan() {
	f.srv, f.rate = f.srv[:0], f.rate[:0]
	f.nextT, f.evJob = math.Inf(1), -1
	left := f.c
	for j := f.first; j >= 0 && left > 0; j = f.link[j] {
		r := left
		if k := f.jobs[j].Cap; k > 0 && k < r {
			r = k
		}
		left -= r
		f.srv = append(f.srv, j)
		f.rate = append(f.rate, r)
		if t := f.now + f.crem[j]/r; t < f.nextT {
			f.nextT, f.evJob = t, j
		}
	}
}

func (f *FIFO) advanceCapped(t float64, done func(int)) {
	dt := t - f.now
	for k, j := range f.srv {
		f.crem[j] -= dt * f.rate[k]
	}
	if t >= f.nextT && f.evJob >= 0 {
		f.crem[f.evJob] = 0
	}
	f.now = t
	// The served jobs are the first len(srv) of the list.
	prev := int32(-1)
	j := f.first
	for range f.srv {
		nx := f.link[j]
		if f.crem[j] <= Tol*f.jobs[j].Size {
			if prev < 0 {
				f.first = nx
			} else {
				f.link[prev] = nx
			}
			if f.last == j {
				f.last = prev
			}
			done(int(j))
		} else {
			prev = j
		}
		j = nx
	}
	f.plan()
}
