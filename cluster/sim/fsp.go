package sim

import "math"

// FSP is the Fair Sojourn Protocol (Friedman and Henderson; seed 001). A
// virtual PS runs over the estimated sizes of all arrived jobs; a job stays
// in it until it finishes there, even if it finished for real. The server
// gives all capacity to the job that finishes first in the virtual PS among
// those still running. A job that finished in the virtual PS but not for
// real is late, and late jobs go first: with LatePS unset (FSP+FIFO, which
// is schedsim's FSP) one at a time in the order they became late; with
// LatePS set (FSP+PS) sharing equally.
//
// The virtual PS is kept in virtual time (see PS): a heap of virtual finish
// tags. Virtual tags never change, and the virtual PS finishes jobs in tag
// order, so the running jobs that are not late sit in a second heap keyed by
// the same tag; its minimum is the job to serve, and it is the one that
// becomes late when its virtual copy finishes first. Late jobs form a FIFO
// queue or a PS (virtual time and heap of tags). O(log n) per event.
type FSP struct {
	LatePS bool
	loan   // the run's estimates, its jobs' facts, the simulator's arrays (borrow)

	jobs []Job
	c    float64
	now  float64
	rem  []float64 // true remaining work

	virt  keyHeap // virtual copies by virtual finish tag
	vt    float64 // virtual time of the virtual PS
	ready keyHeap // running, not-late jobs by virtual finish tag

	lateQ    []int32 // FIFO late jobs (LatePS unset), from lateHead
	lateHead int
	late     keyHeap // PS late jobs (LatePS set) by finish tag
	vLate    float64

	// nextT and nextK cache next's answer while nextOK: the Simulator
	// asks Next before every Advance, which needs it again.
	nextT  float64
	nextK  int
	nextOK bool
}

func (f *FSP) Name() string {
	if f.LatePS {
		return "fsp+ps"
	}
	return "fsp+fifo"
}

func (f *FSP) Start(jobs []Job, c float64) {
	f.jobs, f.c, f.now, f.vt, f.vLate, f.lateHead = jobs, c, 0, 0, 0, 0
	f.rem = f.sc.floats(0, f.rem, len(jobs))
	f.virt.reset()
	f.ready.reset()
	f.late.reset()
	f.lateQ = f.lateQ[:0]
	f.nextOK = false
}

func (f *FSP) borrow(l loan) {
	if l.sc != f.sc {
		f.rem = nil // the last lender's (dropArrays)
	}
	f.loan = l
}

func (f *FSP) Arrive(t float64, j int) {
	tag := f.vt + f.est(f.jobs, int(j))
	f.virt.push(tag, j)
	f.ready.push(tag, j)
	f.rem[j] = f.jobs[j].Size
	f.nextOK = false
}

// served returns the job served alone at full rate (−1 if none or if late
// jobs share).
func (f *FSP) served() int {
	if f.LatePS {
		if f.late.len() > 0 {
			return -1
		}
	} else if f.lateHead < len(f.lateQ) {
		return int(f.lateQ[f.lateHead])
	}
	if f.ready.len() > 0 {
		return int(f.ready.min().j)
	}
	return -1
}

// next returns the next event time and kind: 0 virtual completion, 1 real
// completion of the served job, 2 completion of a PS-late job.
func (f *FSP) next() (float64, int) {
	if !f.nextOK {
		f.nextT, f.nextK = f.plan()
		f.nextOK = true
	}
	return f.nextT, f.nextK
}

// plan computes next's answer from the state.
func (f *FSP) plan() (float64, int) {
	t, kind := math.Inf(1), -1
	if n := f.virt.len(); n > 0 {
		t, kind = f.now+perCapacity((f.virt.min().key-f.vt)*float64(n), f.c), 0
	}
	if s := f.served(); s >= 0 {
		if tr := f.now + perCapacity(f.rem[s], f.c); tr < t {
			t, kind = tr, 1
		}
	} else if n := f.late.len(); f.LatePS && n > 0 {
		if tr := f.now + perCapacity((f.late.min().key-f.vLate)*float64(n), f.c); tr < t {
			t, kind = tr, 2
		}
	}
	return t, kind
}

// perCapacity returns work / c, the time a server of capacity c takes to
// do work: with c = 1 (the pipeline's, its sizes normalised to the
// cluster) work itself, without a division on every plan; x / 1 is x
// exactly for every float64, so the bits are the same.
func perCapacity(work, c float64) float64 {
	if c == 1 {
		return work
	}
	return work / c
}

func (f *FSP) Next() float64 {
	t, _ := f.next()
	return t
}

func (f *FSP) Advance(t float64, done func(int)) {
	tn, kind := f.next()
	dt := t - f.now
	f.now = t
	f.nextOK = false
	if kind < 0 {
		return
	}
	s := f.served()
	if n := f.virt.len(); n > 0 {
		f.vt += dt * f.c / float64(n)
	}
	if s >= 0 {
		f.rem[s] -= dt * f.c
	} else if n := f.late.len(); f.LatePS && n > 0 {
		f.vLate += dt * f.c / float64(n)
	}
	if t >= tn {
		switch kind {
		case 0:
			f.vt = max(f.vt, f.virt.min().key)
		case 1:
			f.rem[s] = 0
		case 2:
			f.vLate = max(f.vLate, f.late.min().key)
		}
	}
	// Real completions first: a job finishing for real at the moment its
	// virtual copy finishes is not late.
	f.complete(done)
	for f.virt.len() > 0 {
		e := f.virt.min()
		// A tag is vt at arrival (≥ 0) plus the estimate, so Tol × tag ≥
		// Tol × estimate: a copy that is not due by the first test is not
		// due by the second, which reads the estimate (a cache miss a
		// call, the job's estimate lying far from the heap). A copy
		// reached (d ≤ 0, as the event's own after its snap) is due by
		// both tests (Tol × tag and Tol × estimate are ≥ 0), so it reads
		// no estimate either.
		if d := e.key - f.vt; d > 0 && (d > Tol*e.key || d > Tol*f.est(f.jobs, int(e.j))) {
			break
		}
		f.virt.pop()
		j := int(e.j)
		// Every job in virt is either finished for real (rem −1, not in
		// ready) or running and not late (in ready, whose keys are the
		// same): then it is ready's head. Testing the head reads the heap's
		// first entry, not rem[j] (a cache miss a job).
		if f.ready.len() == 0 || f.ready.min().j != e.j { // finished for real already
			continue
		}
		f.ready.pop()
		if f.LatePS {
			f.late.push(f.vLate+f.rem[j], j)
		} else {
			f.lateQ = append(f.lateQ, int32(j))
		}
	}
	if f.virt.len() == 0 {
		f.vt = 0
	}
	f.complete(done)
}

// complete finishes the jobs whose remaining work is within tolerance of 0;
// a finished job's rem is set to −1.
func (f *FSP) complete(done func(int)) {
	for {
		s := f.served()
		if s < 0 || f.rem[s] > Tol*f.jobs[s].Size {
			break
		}
		if !f.LatePS && f.lateHead < len(f.lateQ) {
			f.lateHead++
			if f.lateHead == len(f.lateQ) {
				f.lateQ, f.lateHead = f.lateQ[:0], 0
			}
		} else {
			f.ready.pop()
		}
		f.rem[s] = -1
		done(s)
	}
	if f.LatePS {
		for f.late.len() > 0 {
			e := f.late.min()
			if e.key-f.vLate > Tol*f.jobs[e.j].Size {
				break
			}
			f.late.pop()
			f.rem[e.j] = -1
			done(int(e.j))
		}
		if f.late.len() == 0 {
			f.vLate = 0
		}
	}
}
