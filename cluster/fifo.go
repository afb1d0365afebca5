package cluster

import "math"

// FIFO gives all capacity to the earliest-arrived unfinished job. Jobs
// arrive in index order, so the queue is the index range [head, tail).
// O(1) per event.
type FIFO struct {
	jobs       []Job
	c          float64
	head, tail int
	rem        float64 // remaining work of the head job
	now        float64
}

func (*FIFO) Name() string { return "fifo" }

func (f *FIFO) Start(jobs []Job, c float64) {
	*f = FIFO{jobs: jobs, c: c}
}

func (f *FIFO) Arrive(t float64, j int) {
	if f.head == f.tail {
		f.rem = f.jobs[j].Size
	}
	f.tail = j + 1
}

func (f *FIFO) Next() float64 {
	if f.head == f.tail {
		return math.Inf(1)
	}
	return f.now + f.rem/f.c
}

func (f *FIFO) Advance(t float64, done func(int)) {
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
