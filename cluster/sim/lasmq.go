package sim

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
)

// LevelOrder is how LAS_MQ orders the jobs inside one queue (level).
type LevelOrder string

// In-level orders. The zero value is FIFO.
const (
	// OrderFIFO: the job that entered the queue first gets the queue's
	// whole share (seed 000's starting point, §3.3).
	OrderFIFO LevelOrder = "fifo"
	// OrderPS: the queue's share is split among its jobs in proportion to
	// their weights (GPS inside the level; PS when jobs carry no weights).
	// k = 1 with PS is GPS, the fluid Fair Scheduler.
	OrderPS LevelOrder = "ps"
	// OrderRemaining: the job with the least estimated remaining work
	// (Job.Estimate − attained service) gets the queue's whole share; ties
	// go to the earlier arrival. It is the fluid form of seed 000 §3.3's
	// order "by the number of containers that would be used by the
	// remaining tasks": at the fluid level a job's remaining tasks are its
	// remaining work, which the scheduler knows only as an estimate. The
	// head keeps its place as it is served (its remaining work only
	// shrinks), so the order changes only when a job enters the queue —
	// the stability seed 000 asks of an in-level order. k = 1 with this
	// order is SRPT.
	OrderRemaining LevelOrder = "remaining"
	// OrderContainers: the job whose remaining tasks need the fewest
	// containers gets the queue's whole share; ties go to the earlier
	// arrival. It is seed 000's Alg. 1 line 10 as the paper's YARN
	// plug-in computes it (§4): a job's task counts are known once it is
	// submitted (its input splits and reduces) and its completed tasks from
	// the task events, so no size estimate is read. A job's remaining
	// containers are Job.Containers × (1 − attained / Size) (its tasks
	// completing at the rate its work does). A job without a container
	// count (Containers 0) gives the order nothing to go by: it comes after
	// the jobs with one, in arrival order, and when no job has a count the
	// order is FIFO. (Counting its work instead would make the order SRPT
	// on exact sizes, which no YARN scheduler knows.) Like OrderRemaining,
	// the head keeps its place as it is served.
	OrderContainers LevelOrder = "containers"
)

// LevelOrders lists the in-level orders.
var LevelOrders = []LevelOrder{OrderFIFO, OrderPS, OrderRemaining, OrderContainers}

// ParseLevelOrder reads an in-level order name ("" is FIFO).
func ParseLevelOrder(s string) (LevelOrder, error) {
	switch o := LevelOrder(s); o {
	case "", OrderFIFO:
		return OrderFIFO, nil
	case OrderPS, OrderRemaining, OrderContainers:
		return o, nil
	}
	return "", fmt.Errorf("unknown in-level order %q (known: fifo, ps, remaining, containers)", s)
}

// levelOrder is a LevelOrder as a small integer, which the event loop
// compares without a string comparison.
type levelOrder uint8

const (
	ordFIFO levelOrder = iota
	ordPS
	// The orders from ordRemaining on serve the job with the least
	// remaining key first (a heap per queue).
	ordRemaining
	ordContainers
)

// orderOf returns o's levelOrder (o parsed: "" is FIFO).
func orderOf(o LevelOrder) levelOrder {
	switch o {
	case OrderPS:
		return ordPS
	case OrderRemaining:
		return ordRemaining
	case OrderContainers:
		return ordContainers
	}
	return ordFIFO
}

// remaining is the key in a remaining or containers queue of the job in
// slot s when its attained service is a: estimated remaining work, or
// remaining containers (OrderContainers). It reads the job's estimate or
// container count from the slot (x), where Arrive put it.
func (m *LASMQ) remaining(s int32, a float64) float64 {
	sl := &m.sl[s]
	if m.order == ordRemaining {
		return sl.x - a
	}
	switch {
	case sl.x > 0 && sl.size > 0:
		return sl.x * max(0, 1-a/sl.size)
	case sl.x > 0:
		return 0
	}
	return math.MaxFloat64 // no count: after the counted jobs, by arrival
}

// slotValue is what the slot of job j keeps for the in-level order (x):
// the job's weight inside a PS level (weight), its estimate (remaining
// order), its container count (containers order); FIFO reads none.
func (m *LASMQ) slotValue(j int) float64 {
	switch m.order {
	case ordPS:
		return m.weight(j)
	case ordRemaining:
		return m.est(m.jobs, j)
	case ordContainers:
		return m.jobs[j].Containers
	}
	return 0
}

// HasContainers reports whether some job carries a container count
// (Job.Containers), which OrderContainers orders by.
func HasContainers(jobs []Job) bool {
	for i := range jobs {
		if jobs[i].Containers > 0 {
			return true
		}
	}
	return false
}

// UsesEstimates reports whether the order reads size estimates.
func (o LevelOrder) UsesEstimates() bool { return o == OrderRemaining }

// uses says what this configuration reads: rate caps always, job weights
// with PS inside a level, estimates with the remaining-work order.
func (m *LASMQ) uses() Uses {
	return Uses{Caps: true, Weights: m.Order == OrderPS, Estimates: m.Order.UsesEstimates()}
}

// LASMQ is the multi-level queue of seed 000 (LAS_MQ), fluid form. There are
// K queues; a job is in queue i while its attained service is below α_i
// (α_0 = Alpha0, α_{i+1} = P·α_i; the last queue has no bound). New jobs
// enter queue 0; a job whose attained service reaches its queue's threshold
// moves to the next queue. The capacity is split among the non-empty queues
// in proportion to their weights (Strict: all of it to the highest-priority
// non-empty queue, which is also what happens when every non-empty queue has
// weight 0); within a queue, Order decides (FIFO by entry into the queue,
// the default; PS by job weight; or least estimated remaining work first).
//
// Without rate caps an event costs O(q + log n) for the q non-empty queues
// (a bit set finds them; empty queues cost nothing, so fine-grained levels
// — k in the hundreds — stay cheap): FIFO queues are linked lists whose
// head is served; a remaining-work queue is a heap keyed by estimated
// remaining work, whose root is served (its key only decreases, so it is
// refreshed in place); a PS queue has a virtual time (service per unit of
// weight) and a heap of virtual finish tags at the job's next threshold or
// completion, as PS has.
//
// With rate caps, each queue's share is water-filled over its jobs in the
// queue's order (each takes up to its cap; PS: max-min fair by weight), and
// what the queues cannot use is water-filled again over all queues in
// priority order, continuing where each queue's fill stopped (work
// conservation, seed 000 Alg. 2 line 13). For FIFO an event then costs
// O(K + s) for the s jobs served at once; for the PS and remaining orders
// each event sorts every queue's jobs, O(n log n) (rate caps are a
// simulate/sweep feature; tuning's logs carry none).
//
// Memory: a job in the system holds a slot (lasSlot, 32 bytes, plus its
// heap entry or served-list place), taken when it arrives and freed when
// it completes; nothing is kept per job of the run, so a run over a
// window of millions of jobs holds state for the jobs in the system at
// once (a few hundred on a load-0.9 window).
type LASMQ struct {
	K       int
	Alpha0  float64
	P       float64
	Weights []float64 // K weights, highest-priority queue first; nil: all 1
	Strict  bool
	Order   LevelOrder // in-level order; "" is FIFO

	loan // the run's estimates, its jobs' facts, the simulator's arrays (borrow)
	jobs []Job
	c    float64
	now  float64
	thr  []float64 // K−1 thresholds
	w    []float64
	// sl holds the state of the jobs in the system, one slot each (see
	// lasSlot): the queues, heaps and served lists name slots, not jobs.
	sl     []lasSlot
	free   int32   // first free slot (the free ones linked by link); −1: none
	head   []int32 // per queue: first slot (FIFO lists), −1: empty
	tail   []int32
	rate   []float64 // per-queue share of the capacity
	ne     []uint64  // bit set of the non-empty queues
	evQ    int       // queue whose head causes the next event
	evTo   float64   // that head's attained service (PS: the queue's virtual time) at the event
	nextT  float64
	active int
	order  levelOrder // Order as Start resolved it

	// strictQ (Strict without caps) is the queue being served, the only
	// one with a rate; −1: none.
	strictQ int
	// sharesOf (weighted queues without caps, K ≤ 64) is the set of
	// non-empty queues whose shares m.rate holds, sharesOK whether it
	// does: while the set is the same, so are Σ weights and the shares,
	// to the bit, and plan does not form them again.
	sharesOf uint64
	sharesOK bool
	// shareTag and shareTab (the same case) remember the shares of the
	// last sets of non-empty queues: row i of shareTab (K rates) holds
	// the shares of the set shareTag[i] (0: none), i = shareRow(set).
	// Short jobs empty and refill the first queues at most events, so a
	// set recurs far more often than it changes; its shares are the same
	// bits each time it is formed (the same Σ weights in the same order,
	// the same c·w/Σ), so they are formed once per set and run.
	shareTag []uint64
	shareTab []float64

	// Remaining-work and PS queues: one heap per queue.
	hp []keyHeap
	// PS queues: virtual time and Σ weights.
	v, sumW []float64
	// settleJ[q] is the job whose settling tolerance settleTol[q] holds
	// (−1: none): PS queue q's least tag is checked at every event, and
	// its job changes only when the heap's root does.
	settleJ   []int32
	settleTol []float64

	capped bool
	srv    []int32   // served slots (capped mode)
	srate  []float64 // their rates
	sq     []int32   // their queues
	isSrv  []bool    // per slot: in srv
	resJob []int32   // per queue: slot where its share ran out
	resIdx []int32   // per queue: index in srv of that slot, or −1
	evJob  int32     // slot whose completion or demotion is the next event
	evDt   float64   // the time from now to that event, as planned
	qOf    []int32   // capped PS/remaining: each slot's queue
	qBuf   []int32   // capped PS/remaining: one queue's slots in order
}

func (*LASMQ) supportsCaps() {}

func (m *LASMQ) Name() string { return "las_mq" }

// wordQueues is the k up to which one word holds the non-empty queues
// and the uncapped modes walk it directly (a variable so that tests can
// compare with the general path).
var wordQueues = 64

// MaxQueues bounds LAS_MQ's k.
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
	if _, err := ParseLevelOrder(string(m.Order)); err != nil {
		return fmt.Errorf("las_mq: %w", err)
	}
	for i, w := range m.Weights {
		if !(w >= 0) || math.IsInf(w, 0) {
			return fmt.Errorf("las_mq: weight %d = %v: need a finite non-negative weight", i+1, w)
		}
	}
	a := m.Alpha0
	for i := 0; i < m.K-1; i++ {
		if math.IsInf(a, 0) {
			return fmt.Errorf("las_mq: threshold %d = alpha0·p^%d overflows (alpha0 %v, p %v, k %d)", i+1, i, m.Alpha0, m.P, m.K)
		}
		a *= m.P
	}
	return nil
}

// Thresholds returns the K−1 demotion thresholds α_0, p·α_0, ….
func (m *LASMQ) Thresholds() []float64 {
	return m.appendThresholds(make([]float64, 0, max(0, m.K-1)))
}

// appendThresholds appends the K−1 thresholds to t.
func (m *LASMQ) appendThresholds(t []float64) []float64 {
	a := m.Alpha0
	for i := 0; i < m.K-1; i++ {
		t = append(t, a)
		a *= m.P
	}
	return t
}

// borrow takes the run's loan; LAS_MQ borrows no arrays (its state is
// per job in the system: slots).
func (m *LASMQ) borrow(l loan) { m.loan = l }

func (m *LASMQ) Start(jobs []Job, c float64) {
	m.jobs, m.c, m.now, m.active = jobs, c, 0, 0
	o, _ := ParseLevelOrder(string(m.Order))
	m.order = orderOf(o)
	if m.order == ordContainers && !m.hasContainers(jobs) {
		m.order = ordFIFO // nothing to order by (see OrderContainers)
	}
	m.thr = m.appendThresholds(m.thr[:0])
	m.sharesOK = false
	if m.K <= wordQueues {
		m.shareTag = resizeU64(m.shareTag, shareRows)
		clear(m.shareTag)
		m.shareTab = resizeF(m.shareTab, shareRows*m.K)
	}
	m.w = append(m.w[:0], m.Weights...)
	for len(m.w) < m.K {
		m.w = append(m.w, 1)
	}
	m.sl, m.free = m.sl[:0], -1
	m.head = resize32(m.head, max(m.K, 64))[:m.K]
	m.tail = resize32(m.tail, m.K)
	for q := range m.head {
		m.head[q], m.tail[q] = -1, -1
	}
	m.rate = resizeF(m.rate, max(m.K, 64))[:m.K]
	clear(m.rate)
	m.strictQ = -1
	m.ne = slices.Grow(m.ne[:0], (m.K+63)/64)[:(m.K+63)/64]
	clear(m.ne)
	m.capped = m.hasCaps(jobs)
	m.srv, m.srate, m.sq = m.srv[:0], m.srate[:0], m.sq[:0]
	m.isSrv, m.qOf = m.isSrv[:0], m.qOf[:0] // per slot, grown by take
	if m.capped {
		m.resJob, m.resIdx = resize32(m.resJob, m.K), resize32(m.resIdx, m.K)
	} else if m.order != ordFIFO {
		if n := max(m.K, 64); len(m.hp) < n {
			m.hp = append(m.hp, make([]keyHeap, n-len(m.hp))...)
		}
		for q := 0; q < m.K; q++ {
			m.hp[q].reset()
		}
		if m.order == ordPS {
			m.v, m.sumW = resizeF(m.v, max(m.K, 64))[:m.K], resizeF(m.sumW, max(m.K, 64))[:m.K]
			clear(m.v)
			clear(m.sumW)
			m.settleJ, m.settleTol = resize32(m.settleJ, max(m.K, 64))[:m.K], resizeF(m.settleTol, max(m.K, 64))[:m.K]
			for q := range m.settleJ {
				m.settleJ[q] = -1
			}
		}
	}
	m.plan()
}

// resizeU64 returns s with length n, reallocated only when too small.
func resizeU64(s []uint64, n int) []uint64 {
	if cap(s) < n {
		return make([]uint64, n)
	}
	return s[:n]
}

// shareRows is the number of sets of non-empty queues whose shares
// planWord remembers.
const shareRows = 64

// shareRow is the row of shareTab that may hold the shares of the set of
// non-empty queues ne: the set itself for K ≤ 6, else its bits folded.
func shareRow(ne uint64) int {
	ne ^= ne >> 32
	ne ^= ne >> 16
	ne ^= ne >> 8
	ne ^= ne >> 6
	return int(ne & (shareRows - 1))
}

func resize32(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

// The word path (K ≤ 64: planWord, serve, settleAll) indexes the
// per-queue state by a queue's bit in the word through arrays of 64 over
// it, without a bounds check: Start gives head, rate, hp, v, sumW,
// settleJ and settleTol room for 64 queues (their lengths stay K).
func words(s []float64) *[64]float64 { return (*[64]float64)(s[:64]) }

// nextQueue returns the first non-empty queue ≥ q, or −1.
func (m *LASMQ) nextQueue(q int) int {
	if q >= m.K {
		return -1
	}
	i := q >> 6
	word := m.ne[i] &^ (1<<(uint(q)&63) - 1)
	for {
		if word != 0 {
			return i<<6 | bits.TrailingZeros64(word)
		}
		if i++; i == len(m.ne) {
			return -1
		}
		word = m.ne[i]
	}
}

func (m *LASMQ) setNonEmpty(q int, on bool) {
	if on {
		m.ne[q>>6] |= 1 << (uint(q) & 63)
	} else {
		m.ne[q>>6] &^= 1 << (uint(q) & 63)
	}
}

// queueOf returns the queue for attained service a.
func (m *LASMQ) queueOf(a float64, from int) int {
	q := from
	for q < m.K-1 && a >= m.thr[q]*(1-Tol) {
		q++
	}
	return q
}

// target is the attained service at which a job of the given size leaves
// queue q: its size or the queue's threshold, whichever comes first.
func (m *LASMQ) target(size float64, q int) float64 {
	to := size
	if q < m.K-1 && m.thr[q] < to {
		to = m.thr[q]
	}
	return to
}

// weight is job j's weight inside a PS level (≤ 0 counts as 1, as in GPS).
func (m *LASMQ) weight(j int) float64 {
	if w := m.jobs[j].Weight; w > 0 {
		return w
	}
	return 1
}

// enqueue puts the job in slot s, whose attained service is a, into
// queue q.
func (m *LASMQ) enqueue(q int, s int32, a float64) {
	m.setNonEmpty(q, true)
	if m.capped && m.order != ordFIFO {
		m.qOf[s] = int32(q)
	}
	sl := &m.sl[s]
	switch {
	case m.capped || m.order == ordFIFO:
		sl.att = a
		sl.link = -1
		if m.tail[q] < 0 {
			m.head[q] = s
		} else {
			m.sl[m.tail[q]].link = s
		}
		m.tail[q] = s
	case m.order >= ordRemaining:
		sl.att = a
		h := &m.hp[q]
		if h.len() > 0 {
			// The root may have been served since it was keyed: its key
			// only went down, so refreshing it keeps the heap ordered.
			r := h.e[0]
			h.e[0].key = m.remaining(r.s, m.sl[r.s].att)
		}
		h.pushEntry(heapEntry{m.remaining(s, a), sl.job, s})
	default: // PS: the queue's virtual time stands for the attained service
		w := sl.x
		m.sumW[q] += w
		m.hp[q].pushEntry(heapEntry{m.v[q] + (m.target(sl.size, q)-a)/w, sl.job, s})
	}
}

// dequeue removes the head of queue q (FIFO lists and heaps).
func (m *LASMQ) dequeue(q int) {
	empty := false
	switch {
	case m.capped || m.order == ordFIFO:
		h := m.head[q]
		m.head[q] = m.sl[h].link
		if m.head[q] < 0 {
			m.tail[q] = -1
			empty = true
		}
	case m.order == ordPS:
		m.sumW[q] -= m.sl[m.hp[q].pop().s].x
		if m.hp[q].len() == 0 {
			m.v[q], m.sumW[q] = 0, 0 // restart the virtual time
			empty = true
		}
	default:
		m.hp[q].pop()
		empty = m.hp[q].len() == 0
	}
	if empty {
		m.setNonEmpty(q, false)
	}
}

// headOf returns the slot at the head of queue q (uncapped): the FIFO
// head, the root of a remaining-work heap, or the PS job with the least
// tag.
func (m *LASMQ) headOf(q int) int32 {
	if m.order == ordFIFO {
		return m.head[q]
	}
	return m.hp[q].e[0].s
}

func (m *LASMQ) Arrive(t float64, j int) {
	s := m.take(j)
	m.sl[s].x = m.slotValue(j)
	m.enqueue(m.queueOf(0, 0), s, 0)
	m.active++
	m.plan()
}

// shares sets each queue's share of the capacity (into m.rate) and returns
// the first non-empty queue (−1: none).
func (m *LASMQ) shares() int {
	first := m.nextQueue(0)
	for q := first; q >= 0; q = m.nextQueue(q + 1) {
		m.rate[q] = 0
	}
	if first < 0 {
		return first
	}
	sum := 0.0
	for q := first; q >= 0; q = m.nextQueue(q + 1) {
		sum += m.w[q]
	}
	if m.Strict || !(sum > 0) {
		m.rate[first] = m.c
	} else {
		for q := first; q >= 0; q = m.nextQueue(q + 1) {
			m.rate[q] = m.c * m.w[q] / sum
		}
	}
	return first
}

// plan sets the queue rates and finds the next event.
func (m *LASMQ) plan() {
	if m.capped {
		if m.order == ordFIFO {
			m.planCapped()
		} else {
			m.planOrdered()
		}
		return
	}
	m.nextT, m.evQ = math.Inf(1), -1
	first := m.nextQueue(0)
	if first < 0 {
		return
	}
	// The rates are shares' (one pass fewer): strict priority serves the
	// first non-empty queue alone (m.strictQ is the only queue with a
	// rate), weights set each non-empty queue's rate in the pass that
	// finds the next event.
	if m.Strict {
		if m.strictQ != first {
			if m.strictQ >= 0 {
				m.rate[m.strictQ] = 0
			}
			m.strictQ = first
		}
		m.rate[first] = m.c
		m.nextEvent(first)
		return
	}
	if m.K <= wordQueues {
		m.planWord()
		return
	}
	sum := 0.0
	for q := first; q >= 0; q = m.nextQueue(q + 1) {
		sum += m.w[q]
	}
	if !(sum > 0) {
		m.shares()
		m.nextEvent(first)
		return
	}
	for q := first; q >= 0; q = m.nextQueue(q + 1) {
		m.rate[q] = m.c * m.w[q] / sum
		m.nextEvent(q)
	}
}

// planWord is plan's weighted case for K ≤ 64, where one word holds the
// non-empty queues: the shares are formed (as plan forms them) only when
// that set changed since they last were.
func (m *LASMQ) planWord() {
	ne := m.ne[0]
	if !m.sharesOK || m.sharesOf != ne {
		i := shareRow(ne)
		row := m.shareTab[i*m.K : (i+1)*m.K]
		if m.shareTag[i] != ne {
			sum := 0.0
			for w := ne; w != 0; w &= w - 1 {
				sum += m.w[bits.TrailingZeros64(w)]
			}
			if !(sum > 0) {
				m.sharesOK = false
				m.shares()
				m.nextEvent(bits.TrailingZeros64(ne))
				return
			}
			for w := ne; w != 0; w &= w - 1 {
				q := bits.TrailingZeros64(w)
				row[q] = m.c * m.w[q] / sum
			}
			m.shareTag[i] = ne
		}
		rate := words(m.rate)
		for w := ne; w != 0; w &= w - 1 {
			q := bits.TrailingZeros64(w) & 63
			rate[q] = row[q]
		}
		m.sharesOf, m.sharesOK = ne, true
	}
	// nextEvent, written out: its order test and call cost as much as
	// its arithmetic, once per non-empty queue at every event.
	now, nextT, evQ, evTo := m.now, m.nextT, m.evQ, m.evTo
	rate := words(m.rate)
	switch m.order {
	case ordPS:
		v, sumW, hp := words(m.v), words(m.sumW), (*[64]keyHeap)(m.hp[:64])
		for w := ne; w != 0; w &= w - 1 {
			q := bits.TrailingZeros64(w) & 63
			r := rate[q]
			if r == 0 {
				continue
			}
			to := hp[q].e[0].key // virtual time of the next tag
			if t := now + (to-v[q])*sumW[q]/r; t < nextT {
				nextT, evQ, evTo = t, q, to
			}
		}
	case ordFIFO:
		head := (*[64]int32)(m.head[:64])
		for w := ne; w != 0; w &= w - 1 {
			q := bits.TrailingZeros64(w) & 63
			r := rate[q]
			if r == 0 {
				continue
			}
			h := &m.sl[head[q]]
			to := m.target(h.size, q)
			if t := now + (to-h.att)/r; t < nextT {
				nextT, evQ, evTo = t, q, to
			}
		}
	default:
		hp := (*[64]keyHeap)(m.hp[:64])
		for w := ne; w != 0; w &= w - 1 {
			q := bits.TrailingZeros64(w) & 63
			r := rate[q]
			if r == 0 {
				continue
			}
			h := &m.sl[hp[q].e[0].s]
			to := m.target(h.size, q)
			if t := now + (to-h.att)/r; t < nextT {
				nextT, evQ, evTo = t, q, to
			}
		}
	}
	m.nextT, m.evQ, m.evTo = nextT, evQ, evTo
}

// nextEvent makes queue q's next event (its head's completion or
// demotion; PS: its next tag) the next event if it comes first.
func (m *LASMQ) nextEvent(q int) {
	r := m.rate[q]
	if r == 0 {
		return
	}
	var t, to float64
	if m.order == ordPS {
		to = m.hp[q].e[0].key // virtual time of the next tag
		t = m.now + (to-m.v[q])*m.sumW[q]/r
	} else {
		h := &m.sl[m.headOf(q)]
		to = m.target(h.size, q)
		t = m.now + (to-h.att)/r
	}
	if t < m.nextT {
		m.nextT, m.evQ, m.evTo = t, q, to
	}
}

func (m *LASMQ) Next() float64 { return m.nextT }

func (m *LASMQ) Advance(t float64, done func(int)) {
	if m.capped {
		if m.order == ordFIFO {
			m.advanceCapped(t, done)
		} else {
			m.advanceOrdered(t, done)
		}
		return
	}
	if m.evQ < 0 {
		m.now = t
		return
	}
	m.serve(t - m.now)
	m.now = t
	if t < m.nextT {
		return // an arrival comes next; Arrive plans
	}
	// Snap the job that causes the event to its target.
	if q := m.evQ; m.order == ordPS {
		m.v[q] = max(m.v[q], m.evTo)
	} else {
		h := &m.sl[m.headOf(q)]
		h.att = max(h.att, m.evTo)
	}
	// Complete or demote every head that is at its target. A demoted job
	// moves to a later queue, which this pass reaches afterwards.
	if m.order == ordPS {
		m.settleAll(done)
		m.plan()
		return
	}
	for q := m.nextQueue(0); q >= 0; {
		for m.isNonEmpty(q) {
			h := m.headOf(q)
			sl := &m.sl[h]
			a, j := sl.att, int(sl.job)
			if size := sl.size; size-a <= Tol*size {
				m.dequeue(q)
				m.active--
				m.release(h)
				done(j)
			} else if nq := m.queueOf(a, q); nq != q {
				m.dequeue(q)
				m.enqueue(nq, h, a)
			} else {
				break
			}
		}
		// The next non-empty queue: for K ≤ 64 from the word itself, as
		// it is now (a demotion may have just set a later queue's bit).
		if m.K > wordQueues {
			q = m.nextQueue(q + 1)
		} else if w := m.ne[0] &^ (2<<uint(q) - 1); w != 0 {
			q = bits.TrailingZeros64(w)
		} else {
			q = -1
		}
	}
	m.plan()
}

// serve gives every non-empty queue dt at its rate (strict priority: only
// the first non-empty queue runs): its head's attained service, or a PS
// queue's virtual time.
func (m *LASMQ) serve(dt float64) {
	if m.Strict {
		if q := m.nextQueue(0); q >= 0 && q == m.strictQ {
			m.serveQueue(q, dt)
		}
		return
	}
	if m.K <= wordQueues {
		// serveQueue, written out with its order test out of the loop.
		rate := words(m.rate)
		if m.order == ordPS {
			v, sumW := words(m.v), words(m.sumW)
			for w := m.ne[0]; w != 0; w &= w - 1 {
				q := bits.TrailingZeros64(w) & 63
				if r := rate[q]; r > 0 {
					v[q] += dt * r / sumW[q]
				}
			}
			return
		}
		if m.order == ordFIFO {
			head := (*[64]int32)(m.head[:64])
			for w := m.ne[0]; w != 0; w &= w - 1 {
				q := bits.TrailingZeros64(w) & 63
				if r := rate[q]; r > 0 {
					m.sl[head[q]].att += dt * r
				}
			}
			return
		}
		hp := (*[64]keyHeap)(m.hp[:64])
		for w := m.ne[0]; w != 0; w &= w - 1 {
			q := bits.TrailingZeros64(w) & 63
			if r := rate[q]; r > 0 {
				m.sl[hp[q].e[0].s].att += dt * r
			}
		}
		return
	}
	for q := m.nextQueue(0); q >= 0; q = m.nextQueue(q + 1) {
		m.serveQueue(q, dt)
	}
}

// serveQueue gives queue q dt at its rate.
func (m *LASMQ) serveQueue(q int, dt float64) {
	if r := m.rate[q]; r > 0 {
		if m.order == ordPS {
			m.v[q] += dt * r / m.sumW[q]
		} else {
			m.sl[m.headOf(q)].att += dt * r
		}
	}
}

// settleAll settles every non-empty PS queue (settlePS) in priority
// order, a queue that a demotion fills on the way included. For K ≤ 64 it
// walks the word of non-empty queues as it is after each queue, and skips
// without a call a queue whose least tag is beyond settlePS's tolerance
// for the job settleJ holds (settlePS's first test, which returns then).
func (m *LASMQ) settleAll(done func(int)) {
	if m.K > wordQueues {
		for q := m.nextQueue(0); q >= 0; q = m.nextQueue(q + 1) {
			m.settlePS(q, done)
		}
		return
	}
	// settlePS's first test written out: most queues have no job to
	// settle at an event.
	hp, v := (*[64]keyHeap)(m.hp[:64]), words(m.v)
	settleJ, settleTol := (*[64]int32)(m.settleJ[:64]), words(m.settleTol)
	for w := m.ne[0]; w != 0; {
		q := bits.TrailingZeros64(w) & 63
		if e := hp[q].e[0]; settleJ[q] != e.j || !(e.key-v[q] > settleTol[q]) {
			m.settlePS(q, done)
		}
		w = m.ne[0] &^ (2<<uint(q) - 1)
	}
}

// settlePS completes or demotes the jobs of PS queue q whose tags the
// virtual time has reached (as PS does, within Tol of the work the tag
// stands for); a demoted job has attained exactly its queue's threshold.
func (m *LASMQ) settlePS(q int, done func(int)) {
	// The queue's state, its bounds checked once: dequeue resets the
	// virtual time only when the heap empties, and a demotion enqueues
	// into a later queue.
	h, v, sj, tol := &m.hp[q], &m.v[q], &m.settleJ[q], &m.settleTol[q]
	for len(h.e) > 0 {
		e := h.e[0]
		if *sj != e.j {
			sl := &m.sl[e.s]
			*sj, *tol = e.j, Tol*m.target(sl.size, q)/sl.x
		}
		if e.key-*v > *tol {
			return
		}
		j, size := int(e.j), m.sl[e.s].size
		to := m.target(size, q)
		m.dequeue(q)
		if size-to <= Tol*size {
			m.active--
			m.release(e.s)
			done(j)
		} else {
			m.enqueue(m.queueOf(to, q), e.s, to)
		}
	}
}

func (m *LASMQ) isNonEmpty(q int) bool { return m.ne[q>>6]&(1<<(uint(q)&63)) != 0 }

// planCapped (FIFO) water-fills each queue's share in entry order, then the
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
	serve := func(j int32, q int, r float64) {
		m.isSrv[j] = true
		m.srv, m.srate, m.sq = append(m.srv, j), append(m.srate, r), append(m.sq, int32(q))
	}
	// Pass 1: each queue's share. resJob[q] is where queue q's fill
	// stopped (a job below its cap, or −1), resIdx[q] its index in srv if
	// it got some capacity (else −1).
	leftover := 0.0
	for q := 0; q < m.K; q++ {
		left := 0.0
		if m.head[q] >= 0 {
			left = m.rate[q]
		}
		m.resJob[q], m.resIdx[q] = -1, -1
		for j := m.head[q]; j >= 0; j = m.sl[j].link {
			if !(left > 0) {
				m.resJob[q] = j
				break
			}
			r := min(m.capOf(j), left)
			left -= r
			serve(j, q, r)
			if r < m.capOf(j) {
				m.resJob[q], m.resIdx[q] = j, int32(len(m.srv)-1)
				break
			}
		}
		leftover += max(left, 0)
	}
	// Pass 2: the leftover, highest-priority queue first.
	for q := 0; q < m.K && leftover > Tol*m.c; q++ {
		for j := m.resJob[q]; j >= 0 && leftover > Tol*m.c; j = m.sl[j].link {
			if k := m.resIdx[q]; k >= 0 && m.srv[k] == j {
				add := min(m.capOf(j)-m.srate[k], leftover)
				m.srate[k] += add
				leftover -= add
				continue
			}
			r := min(m.capOf(j), leftover)
			leftover -= r
			serve(j, q, r)
		}
	}
	m.nextServed()
}

// capOf returns the rate cap of the job in slot s (+Inf: none).
func (m *LASMQ) capOf(s int32) float64 {
	if k := m.jobs[m.sl[s].job].Cap; k > 0 {
		return k
	}
	return math.Inf(1)
}

// elapsed is the time the capped modes advance by to reach t: the planned
// time to the next event when t is that event (so that the event does its
// planned work however t rounds on an absolute clock), else t − now.
func (m *LASMQ) elapsed(t float64) float64 {
	if t >= m.nextT && m.evJob >= 0 {
		return m.evDt
	}
	return t - m.now
}

// nextServed finds the next event among the served jobs (capped modes).
func (m *LASMQ) nextServed() {
	for i, j := range m.srv {
		r := m.srate[i]
		if !(r > 0) {
			continue
		}
		to := m.target(m.sl[j].size, int(m.sq[i]))
		if dt := (to - m.sl[j].att) / r; m.now+dt < m.nextT {
			m.nextT, m.evJob, m.evTo, m.evDt = m.now+dt, j, to, dt
		}
	}
}

func (m *LASMQ) advanceCapped(t float64, done func(int)) {
	dt := m.elapsed(t)
	for i, j := range m.srv {
		m.sl[j].att += dt * m.srate[i]
	}
	if t >= m.nextT && m.evJob >= 0 {
		m.sl[m.evJob].att = max(m.sl[m.evJob].att, m.evTo)
	}
	m.now = t
	// Complete or demote served jobs. The served jobs of a queue are a
	// prefix of it; a job demoted into a later queue joins its tail and is
	// looked at again there (it stays in the right queue).
	for q := 0; q < m.K; q++ {
		prev := int32(-1)
		for j := m.head[q]; j >= 0 && m.isSrv[j]; {
			nx := m.sl[j].link
			size := m.sl[j].size
			fin := size-m.sl[j].att <= Tol*size
			nq := q
			if !fin {
				nq = m.queueOf(m.sl[j].att, q)
			}
			if fin || nq != q {
				if prev < 0 {
					m.head[q] = nx
				} else {
					m.sl[prev].link = nx
				}
				if m.tail[q] == j {
					m.tail[q] = prev
				}
				if m.head[q] < 0 {
					m.setNonEmpty(q, false)
				}
				if fin {
					m.isSrv[j] = false
					m.active--
					m.release(j)
					done(int(m.sl[j].job))
				} else {
					m.enqueue(nq, j, m.sl[j].att)
				}
			} else {
				prev = j
			}
			j = nx
		}
	}
	m.planCapped()
}

// planOrdered is planCapped for the PS and remaining orders: every event
// lists each queue's jobs in the queue's order, gives each queue its share
// plus what higher-priority queues could not use (in priority order), and
// water-fills that within the queue: in order (remaining), or max-min fair
// by weight (PS).
func (m *LASMQ) planOrdered() {
	m.srv, m.srate, m.sq = m.srv[:0], m.srate[:0], m.sq[:0]
	m.nextT, m.evJob = math.Inf(1), -1
	first := m.shares()
	if first < 0 {
		return
	}
	// Pass 1: what each queue can use of its share; the rest is leftover.
	leftover := 0.0
	for q := first; q >= 0; q = m.nextQueue(q + 1) {
		cp := 0.0
		for j := m.head[q]; j >= 0; j = m.sl[j].link {
			cp += m.capOf(j)
		}
		used := min(m.rate[q], cp)
		leftover += m.rate[q] - used
		m.rate[q] = used
	}
	// Pass 2: the leftover, highest-priority queue first; then each queue's
	// total is water-filled over its jobs.
	for q := first; q >= 0; q = m.nextQueue(q + 1) {
		jobs := m.orderedJobs(q)
		cp := 0.0
		for _, j := range jobs {
			cp += m.capOf(j)
		}
		if leftover > Tol*m.c {
			add := min(leftover, cp-m.rate[q])
			m.rate[q] += add
			leftover -= add
		}
		if m.order == ordPS {
			m.fillFair(q, jobs, m.rate[q])
		} else {
			m.fillInOrder(q, jobs, m.rate[q])
		}
	}
	m.nextServed()
}

// orderedJobs lists queue q's slots in its order (capped mode).
func (m *LASMQ) orderedJobs(q int) []int32 {
	m.qBuf = m.qBuf[:0]
	for j := m.head[q]; j >= 0; j = m.sl[j].link {
		m.qBuf = append(m.qBuf, j)
	}
	if m.order >= ordRemaining {
		slices.SortStableFunc(m.qBuf, func(a, b int32) int {
			ja, jb := m.sl[a].job, m.sl[b].job
			ka, kb := m.remaining(a, m.sl[a].att), m.remaining(b, m.sl[b].att)
			switch {
			case ka < kb:
				return -1
			case ka > kb:
				return 1
			}
			return int(ja - jb)
		})
	}
	return m.qBuf
}

func (m *LASMQ) serveAt(j int32, q int, r float64) {
	if r > 0 {
		m.srv, m.srate, m.sq = append(m.srv, j), append(m.srate, r), append(m.sq, int32(q))
	}
}

// fillInOrder gives each job in turn up to its cap until total runs out.
func (m *LASMQ) fillInOrder(q int, jobs []int32, total float64) {
	for _, j := range jobs {
		if !(total > 0) {
			return
		}
		r := min(m.capOf(j), total)
		total -= r
		m.serveAt(j, q, r)
	}
}

// fillFair splits total max-min fairly by weight: job j gets min(cap_j,
// w_j·θ) with θ such that the rates sum to total (or every job is capped).
func (m *LASMQ) fillFair(q int, jobs []int32, total float64) {
	slices.SortStableFunc(jobs, func(a, b int32) int {
		ka, kb := m.capOf(a)/m.slotWeight(a), m.capOf(b)/m.slotWeight(b)
		switch {
		case ka < kb:
			return -1
		case ka > kb:
			return 1
		}
		return 0
	})
	sumW := 0.0
	for _, j := range jobs {
		sumW += m.slotWeight(j)
	}
	for i, j := range jobs {
		w := m.slotWeight(j)
		theta := total / sumW
		if c := m.capOf(j); c < w*theta {
			m.serveAt(j, q, c)
			total -= c
			sumW -= w
			continue
		}
		for _, k := range jobs[i:] {
			m.serveAt(k, q, m.slotWeight(k)*theta)
		}
		return
	}
}

// advanceOrdered moves the capped PS/remaining state to t and completes
// or demotes the served jobs that reached their targets.
func (m *LASMQ) advanceOrdered(t float64, done func(int)) {
	dt := m.elapsed(t)
	for i, j := range m.srv {
		m.sl[j].att += dt * m.srate[i]
	}
	m.now = t
	if t >= m.nextT && m.evJob >= 0 {
		m.sl[m.evJob].att = max(m.sl[m.evJob].att, m.evTo)
	}
	for _, j := range m.srv {
		q := int(m.qOf[j])
		size := m.sl[j].size
		fin := size-m.sl[j].att <= Tol*size
		nq := q
		if !fin {
			nq = m.queueOf(m.sl[j].att, q)
		}
		if !fin && nq == q {
			continue
		}
		m.unlink(q, j)
		if fin {
			m.active--
			m.release(j)
			done(int(m.sl[j].job))
		} else {
			m.enqueue(nq, j, m.sl[j].att)
		}
	}
	// Zero-size jobs complete as soon as they are served; one that was not
	// served (its queue had no share) waits like any other.
	m.planOrdered()
}

// unlink removes slot j from queue q's list (capped PS/remaining).
func (m *LASMQ) unlink(q int, j int32) {
	prev := int32(-1)
	for x := m.head[q]; x >= 0 && x != j; x = m.sl[x].link {
		prev = x
	}
	if prev < 0 {
		m.head[q] = m.sl[j].link
	} else {
		m.sl[prev].link = m.sl[j].link
	}
	if m.tail[q] == j {
		m.tail[q] = prev
	}
	if m.head[q] < 0 {
		m.setNonEmpty(q, false)
	}
}
