package sim

import (
	"fmt"
	"math"
)

// LASMQ is the multi-level queue of seed 000 (LAS_MQ), fluid form. There are
// K queues; a job is in queue i while its attained service is below α_i
// (α_0 = Alpha0, α_{i+1} = P·α_i; the last queue has no bound). New jobs
// enter queue 0; a job whose attained service reaches its queue's threshold
// moves to the tail of the next queue. The capacity is split among the
// non-empty queues in proportion to their weights (Strict: all of it to the
// highest-priority non-empty queue, which is also what happens when every
// non-empty queue has weight 0); within a queue, the job that entered it
// first gets the queue's whole share (FIFO by entry into the queue).
//
// Only queue heads are served, so an event costs O(K): the queues are
// linked lists and each head's attained service is advanced per event.
//
// With rate caps, each queue's share is water-filled over its jobs in
// order of entry (each takes up to its cap), and what the queues cannot use
// is water-filled again over all queues in priority order, continuing where
// each queue's fill stopped (work conservation, seed 000 Alg. 2 line 13). An
// event then costs O(K + s) for the s jobs served at once.
type LASMQ struct {
	K       int
	Alpha0  float64
	P       float64
	Weights []float64 // K weights, highest-priority queue first; nil: all 1
	Strict  bool

	jobs   []Job
	c      float64
	now    float64
	thr    []float64 // K−1 thresholds
	w      []float64
	att    []float64 // attained service
	link   []int32   // next job in the same queue
	head   []int32
	tail   []int32
	rate   []float64 // per-queue rate of its head
	evQ    int       // queue whose head causes the next event
	evTo   float64   // that head's attained service at the event
	nextT  float64
	active int

	capped bool
	srv    []int32   // served jobs (capped mode)
	srate  []float64 // their rates
	sq     []int32   // their queues
	isSrv  []bool    // per job: in srv
	resJob []int32   // per queue: where its share ran out
	resIdx []int32   // per queue: index in srv of that job, or −1
	evJob  int32     // job whose completion or demotion is the next event
}

func (*LASMQ) supportsCaps() {}

func (m *LASMQ) Name() string { return "las_mq" }

// MaxQueues bounds LAS_MQ's k (an event costs O(k)).
const MaxQueues = 1000

// Validate checks the parameters.
func (m *LASMQ) Validate() error {
	switch {
	case m.K < 1 || m.K > MaxQueues:
		return fmt.Errorf("las_mq: k = %d: need 1 to %d queues", m.K, MaxQueues)
	case m.K > 1 && !(m.Alpha0 > 0) || math.IsInf(m.Alpha0, 0):
		return fmt.Errorf("las_mq: alpha0 = %v: need a finite positive first threshold", m.Alpha0)
	case m.K > 2 && (!(m.P > 1) || math.IsInf(m.P, 0)):
		return fmt.Errorf("las_mq: p = %v: need a finite step above 1", m.P)
	case m.Weights != nil && len(m.Weights) != m.K:
		return fmt.Errorf("las_mq: %d weights for %d queues", len(m.Weights), m.K)
	}
	for i, w := range m.Weights {
		if !(w >= 0) || math.IsInf(w, 0) {
			return fmt.Errorf("las_mq: weight %d = %v: need a finite non-negative weight", i+1, w)
		}
	}
	return nil
}

// Thresholds returns the K−1 demotion thresholds α_0, p·α_0, ….
func (m *LASMQ) Thresholds() []float64 {
	t := make([]float64, max(0, m.K-1))
	a := m.Alpha0
	for i := range t {
		t[i] = a
		a *= m.P
	}
	return t
}

func (m *LASMQ) Start(jobs []Job, c float64) {
	n := len(jobs)
	m.jobs, m.c, m.now, m.active = jobs, c, 0, 0
	m.thr = m.Thresholds()
	m.w = append(m.w[:0], m.Weights...)
	for len(m.w) < m.K {
		m.w = append(m.w, 1)
	}
	if cap(m.att) < n {
		m.att = make([]float64, n)
		m.link = make([]int32, n)
	}
	m.att, m.link = m.att[:n], m.link[:n]
	m.head = resize32(m.head, m.K)
	m.tail = resize32(m.tail, m.K)
	for q := range m.head {
		m.head[q], m.tail[q] = -1, -1
	}
	if cap(m.rate) < m.K {
		m.rate = make([]float64, m.K)
	}
	m.rate = m.rate[:m.K]
	m.capped = HasCaps(jobs)
	m.srv, m.srate, m.sq = m.srv[:0], m.srate[:0], m.sq[:0]
	if m.capped {
		if cap(m.isSrv) < n {
			m.isSrv = make([]bool, n)
		}
		m.isSrv = m.isSrv[:n]
		clear(m.isSrv)
		m.resJob, m.resIdx = resize32(m.resJob, m.K), resize32(m.resIdx, m.K)
	}
	m.plan()
}

func resize32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

// queueOf returns the queue for attained service a.
func (m *LASMQ) queueOf(a float64, from int) int {
	q := from
	for q < m.K-1 && a >= m.thr[q]*(1-Tol) {
		q++
	}
	return q
}

func (m *LASMQ) enqueue(q, j int) {
	m.link[j] = -1
	if m.tail[q] < 0 {
		m.head[q] = int32(j)
	} else {
		m.link[m.tail[q]] = int32(j)
	}
	m.tail[q] = int32(j)
}

func (m *LASMQ) dequeue(q int) {
	h := m.head[q]
	m.head[q] = m.link[h]
	if m.head[q] < 0 {
		m.tail[q] = -1
	}
}

func (m *LASMQ) Arrive(t float64, j int) {
	m.att[j] = 0
	m.enqueue(m.queueOf(0, 0), j)
	m.active++
	m.plan()
}

// plan sets the queue rates and finds the next event.
func (m *LASMQ) plan() {
	if m.capped {
		m.planCapped()
		return
	}
	m.nextT, m.evQ = math.Inf(1), -1
	sum, first := 0.0, -1
	for q := 0; q < m.K; q++ {
		m.rate[q] = 0
		if m.head[q] >= 0 {
			if first < 0 {
				first = q
			}
			sum += m.w[q]
		}
	}
	if first < 0 {
		return
	}
	if m.Strict || !(sum > 0) {
		m.rate[first] = m.c
	} else {
		for q := first; q < m.K; q++ {
			if m.head[q] >= 0 {
				m.rate[q] = m.c * m.w[q] / sum
			}
		}
	}
	for q := first; q < m.K; q++ {
		h := m.head[q]
		if h < 0 || m.rate[q] == 0 {
			continue
		}
		to := m.jobs[h].Size
		if q < m.K-1 && m.thr[q] < to {
			to = m.thr[q]
		}
		if t := m.now + (to-m.att[h])/m.rate[q]; t < m.nextT {
			m.nextT, m.evQ, m.evTo = t, q, to
		}
	}
}

func (m *LASMQ) Next() float64 { return m.nextT }

func (m *LASMQ) Advance(t float64, done func(int)) {
	if m.capped {
		m.advanceCapped(t, done)
		return
	}
	if m.evQ < 0 {
		m.now = t
		return
	}
	dt := t - m.now
	for q := 0; q < m.K; q++ {
		if h := m.head[q]; h >= 0 && m.rate[q] > 0 {
			m.att[h] += dt * m.rate[q]
		}
	}
	if t >= m.nextT {
		h := m.head[m.evQ]
		m.att[h] = math.Max(m.att[h], m.evTo)
	}
	m.now = t
	for changed := true; changed; {
		changed = false
		for q := 0; q < m.K; q++ {
			h := m.head[q]
			if h < 0 {
				continue
			}
			size := m.jobs[h].Size
			if size-m.att[h] <= Tol*size {
				m.dequeue(q)
				m.active--
				done(int(h))
				changed = true
			} else if nq := m.queueOf(m.att[h], q); nq != q {
				m.dequeue(q)
				m.enqueue(nq, int(h))
				changed = true
			}
		}
	}
	m.plan()
}

// shares returns each queue's share of the capacity (into m.rate).
func (m *LASMQ) shares() (first int) {
	sum := 0.0
	first = -1
	for q := 0; q < m.K; q++ {
		m.rate[q] = 0
		if m.head[q] >= 0 {
			if first < 0 {
				first = q
			}
			sum += m.w[q]
		}
	}
	if first < 0 {
		return first
	}
	if m.Strict || !(sum > 0) {
		m.rate[first] = m.c
	} else {
		for q := first; q < m.K; q++ {
			if m.head[q] >= 0 {
				m.rate[q] = m.c * m.w[q] / sum
			}
		}
	}
	return first
}

// planCapped water-fills each queue's share in entry order, then the
// leftover over all queues in priority order, and finds the next event.
func (m *LASMQ) planCapped() {
	for _, j := range m.srv {
		m.isSrv[j] = false
	}
	m.srv, m.srate, m.sq = m.srv[:0], m.srate[:0], m.sq[:0]
	m.nextT, m.evJob = math.Inf(1), -1
	if m.shares() < 0 {
		return
	}
	capOf := func(j int32) float64 {
		if k := m.jobs[j].Cap; k > 0 {
			return k
		}
		return math.Inf(1)
	}
	serve := func(j int32, q int, r float64) {
		m.isSrv[j] = true
		m.srv, m.srate, m.sq = append(m.srv, j), append(m.srate, r), append(m.sq, int32(q))
	}
	// Pass 1: each queue's share. resJob[q] is where queue q's fill
	// stopped (a job below its cap, or −1), resIdx[q] its index in srv if
	// it got some capacity (else −1).
	leftover := 0.0
	for q := 0; q < m.K; q++ {
		left := m.rate[q]
		m.resJob[q], m.resIdx[q] = -1, -1
		for j := m.head[q]; j >= 0; j = m.link[j] {
			if !(left > 0) {
				m.resJob[q] = j
				break
			}
			r := math.Min(capOf(j), left)
			left -= r
			serve(j, q, r)
			if r < capOf(j) {
				m.resJob[q], m.resIdx[q] = j, int32(len(m.srv)-1)
				break
			}
		}
		leftover += math.Max(left, 0)
	}
	// Pass 2: the leftover, highest-priority queue first.
	for q := 0; q < m.K && leftover > Tol*m.c; q++ {
		for j := m.resJob[q]; j >= 0 && leftover > Tol*m.c; j = m.link[j] {
			if k := m.resIdx[q]; k >= 0 && m.srv[k] == j {
				add := math.Min(capOf(j)-m.srate[k], leftover)
				m.srate[k] += add
				leftover -= add
				continue
			}
			r := math.Min(capOf(j), leftover)
			leftover -= r
			serve(j, q, r)
		}
	}
	for i, j := range m.srv {
		r := m.srate[i]
		if !(r > 0) {
			continue
		}
		q := int(m.sq[i])
		to := m.jobs[j].Size
		if q < m.K-1 && m.thr[q] < to {
			to = m.thr[q]
		}
		if t := m.now + (to-m.att[j])/r; t < m.nextT {
			m.nextT, m.evJob, m.evTo = t, j, to
		}
	}
}

func (m *LASMQ) advanceCapped(t float64, done func(int)) {
	dt := t - m.now
	for i, j := range m.srv {
		m.att[j] += dt * m.srate[i]
	}
	if t >= m.nextT && m.evJob >= 0 {
		m.att[m.evJob] = math.Max(m.att[m.evJob], m.evTo)
	}
	m.now = t
	// Complete or demote served jobs. The served jobs of a queue are a
	// prefix of it; a job demoted into a later queue joins its tail and is
	// looked at again there (it stays in the right queue).
	for q := 0; q < m.K; q++ {
		prev := int32(-1)
		for j := m.head[q]; j >= 0 && m.isSrv[j]; {
			nx := m.link[j]
			size := m.jobs[j].Size
			fin := size-m.att[j] <= Tol*size
			nq := q
			if !fin {
				nq = m.queueOf(m.att[j], q)
			}
			if fin || nq != q {
				if prev < 0 {
					m.head[q] = nx
				} else {
					m.link[prev] = nx
				}
				if m.tail[q] == j {
					m.tail[q] = prev
				}
				if fin {
					m.isSrv[j] = false
					m.active--
					done(int(j))
				} else {
					m.enqueue(nq, int(j))
				}
			} else {
				prev = j
			}
			j = nx
		}
	}
	m.planCapped()
}
