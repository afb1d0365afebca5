package task

import (
	"fmt"

	"github.com/schedplan/schedplan/cluster/sim"
)

// LASMQ is seed 000's multi-level queue scheduler (LAS_MQ, Alg. 1–2) at
// task level.
//
//   - Service is containers × time held (eq. 6). With StageAware, a
//     stage's service counts as service so far / stage progress once its
//     progress (completed share of its tasks) is at least 10% (§3.2);
//     completed stages count their exact service.
//   - A job whose service reaches its queue's threshold α_i moves to the
//     tail of the queue whose threshold exceeds it (α_0 = Alpha0, α_{i+1}
//     = P·α_i, in held container-seconds, like the service; Alg. 1).
//   - Within a queue, jobs are ordered by the containers their remaining
//     tasks need, running ones included (§3.3), or by entry into the queue
//     with InQueueFIFO (the fluid core's order).
//   - The cluster's containers are split across the non-empty queues by
//     weight; a queue's share goes to its jobs in order, each taking what
//     its ready tasks need (x = min(r_i, j_rt), Alg. 2). Containers no
//     queue can use within its share are shared evenly among the jobs
//     with ready tasks (the job holding the fewest containers first; Alg.
//     2 line 13, work conservation), or in queue priority order with
//     LeftoverByPriority (as the fluid core does).
//   - At most Limit jobs run at once (0: no limit); the others wait in
//     submission order. Seed 000's YARN plug-in admits at most 30 (§4,
//     "because too many running jobs may cause hanging"), for every
//     policy it compares, and measures responses from admission; here a
//     response counts from arrival and the limit binds LAS_MQ alone, so it
//     is off by default. It is the one rule by which LAS_MQ leaves
//     containers idle while tasks wait: an admitted job whose tasks all
//     run, or that waits at its stage barrier, keeps its place.
//
// Demotions happen exactly when the service estimate crosses a threshold:
// between a job's own task starts and ends its estimate grows linearly, so
// each job's crossing time sits in a heap. A decision costs O(K + log n)
// (the shares of K queues, then heaps); every notification O(log n).
type LASMQ struct {
	Base
	K       int
	Alpha0  float64
	P       float64
	Weights []float64 // K weights, highest-priority queue first; nil: all 1
	Strict  bool      // all containers to the highest-priority non-empty queue (leftover still shared)

	StageAware         bool
	InQueueFIFO        bool
	LeftoverByPriority bool
	Limit              int

	s        *State
	thr, w   []float64
	q        []int32 // per job: queue, −1 not admitted, −2 done
	kk       heapKeys
	rq       []iheap // per queue: admitted jobs with ready tasks
	next     []int32 // ring of the admitted jobs with ready tasks (leftover, round robin)
	prev     []int32
	cursor   int32
	dk       heapKeys
	dem      iheap   // jobs by the time their estimate reaches their threshold
	nq       []int   // per queue: admitted jobs
	used     []int64 // per queue: containers held
	seq      float64
	pending  []int32
	pendHead int
	admitted int
}

// DefaultLASMQ is seed 000's configuration at task level: the queues of
// sim.DefaultLASMQ (k = 10, α_0 = 1 held container-second, p = 10: Hu et
// al.'s simulations; their testbed's 100 is MB of data processed), equal
// weights, stage awareness, order by remaining containers (Alg. 1 line
// 10), leftover shared evenly, no admission limit (see
// Limit: with the paper's testbed limit of 30 running jobs, 1 M synthetic
// jobs at load 0.9 on the default 54-container cluster had utilisation
// 0.772 and mean response 77,504 s; without it, 0.896 and 37.7 s).
func DefaultLASMQ() *LASMQ {
	f := sim.DefaultLASMQ()
	return &LASMQ{K: f.K, Alpha0: f.Alpha0, P: f.P, StageAware: true}
}

func (*LASMQ) Name() string         { return "las_mq" }
func (*LASMQ) WorkConserving() bool { return true }

// Eligible reports whether job j has been admitted.
func (m *LASMQ) Eligible(j int) bool { return m.q[j] >= 0 }

// fluid is the equivalent fluid configuration (its validation and
// thresholds are the fluid core's).
func (m *LASMQ) fluid() *sim.LASMQ {
	return &sim.LASMQ{K: m.K, Alpha0: m.Alpha0, P: m.P, Weights: m.Weights, Strict: m.Strict}
}

// Validate checks the parameters.
func (m *LASMQ) Validate() error {
	if err := m.fluid().Validate(); err != nil {
		return err
	}
	if m.Limit < 0 {
		return fmt.Errorf("las_mq: limit %d is negative", m.Limit)
	}
	return nil
}

func (m *LASMQ) Start(s *State) error {
	if err := m.Validate(); err != nil {
		return err
	}
	n := len(s.Jobs())
	m.s = s
	m.thr = m.fluid().Thresholds()
	m.w = append(m.w[:0], m.Weights...)
	for len(m.w) < m.K {
		m.w = append(m.w, 1)
	}
	if cap(m.q) < n {
		m.q = make([]int32, n)
	}
	m.q = m.q[:n]
	for i := range m.q {
		m.q[i] = -1
	}
	m.kk.reset(n)
	m.dk.reset(n)
	if len(m.rq) < m.K {
		m.rq = append(m.rq, make([]iheap, m.K-len(m.rq))...)
	}
	m.rq = m.rq[:m.K]
	for i := range m.rq {
		m.rq[i].init(&m.kk)
	}
	m.next, m.prev = resize(m.next, n), resize(m.prev, n)
	for i := range m.next {
		m.next[i], m.prev[i] = -1, -1
	}
	m.cursor = -1
	m.dem.init(&m.dk)
	m.nq = append(m.nq[:0], make([]int, m.K)...)
	m.used = append(m.used[:0], make([]int64, m.K)...)
	m.seq, m.pending, m.pendHead, m.admitted = 0, m.pending[:0], 0, 0
	return nil
}

func (m *LASMQ) Arrive(j int) {
	if m.Limit == 0 || m.admitted < m.Limit {
		m.admit(int32(j))
		return
	}
	m.pending = append(m.pending, int32(j))
}

func (m *LASMQ) admit(j int32) {
	m.admitted++
	m.q[j] = 0
	m.nq[0]++
	m.seq++
	m.kk.k[j] = m.orderKey(j)
	if m.s.Ready(int(j)) > 0 {
		m.addReady(j)
	}
	m.update(j)
}

func (m *LASMQ) orderKey(j int32) key {
	if m.InQueueFIFO {
		return key{m.seq, 0}
	}
	return key{float64(m.s.RemainingContainers(int(j))), m.seq}
}

func (m *LASMQ) addReady(j int32) {
	m.rq[m.q[j]].push(j)
	if m.LeftoverByPriority {
		return
	}
	// Into the ring just before the cursor: last in the current round.
	if c := m.cursor; c < 0 {
		m.next[j], m.prev[j], m.cursor = j, j, j
	} else {
		p := m.prev[c]
		m.next[p], m.prev[j], m.next[j], m.prev[c] = j, p, c, j
	}
}

func (m *LASMQ) dropReady(j int32) {
	if m.kk.in(j) {
		m.rq[m.q[j]].remove(j)
	}
	if m.next[j] >= 0 {
		nx, p := m.next[j], m.prev[j]
		switch {
		case nx == j:
			m.cursor = -1
		default:
			m.next[p], m.prev[nx] = nx, p
			if m.cursor == j {
				m.cursor = nx
			}
		}
		m.next[j], m.prev[j] = -1, -1
	}
}

func (m *LASMQ) Released(j, _ int) {
	if m.q[j] >= 0 && !m.kk.in(int32(j)) {
		m.addReady(int32(j))
	}
}

func (m *LASMQ) Started(t TaskRef) {
	j := int32(t.Job)
	m.used[m.q[j]] += int64(t.Containers)
	if m.s.Ready(t.Job) == 0 {
		m.dropReady(j)
	}
	m.update(j)
}

func (m *LASMQ) Ended(t TaskRef) {
	j := int32(t.Job)
	m.used[m.q[j]] -= int64(t.Containers)
	if m.kk.in(j) && !m.InQueueFIFO {
		m.rq[m.q[j]].set(j, key{float64(m.s.RemainingContainers(t.Job)), m.kk.k[j].b})
	}
	m.update(j)
}

func (m *LASMQ) Done(j int) {
	jj := int32(j)
	if m.q[jj] < 0 {
		// A job without tasks can complete before its admission.
		for i := m.pendHead; i < len(m.pending); i++ {
			if m.pending[i] == jj {
				m.pending = append(m.pending[:i], m.pending[i+1:]...)
				break
			}
		}
		m.q[jj] = -2
		return
	}
	m.dropReady(jj)
	if m.dk.in(jj) {
		m.dem.remove(jj)
	}
	m.nq[m.q[jj]]--
	m.q[jj] = -2
	m.admitted--
	for m.pendHead < len(m.pending) && (m.Limit == 0 || m.admitted < m.Limit) {
		p := m.pending[m.pendHead]
		m.pendHead++
		m.admit(p)
	}
	if m.pendHead == len(m.pending) {
		m.pending, m.pendHead = m.pending[:0], 0
	}
}

// stageAwareFrom is the stage progress from which LAS_MQ estimates a
// stage's service as service / progress (seed 000 §3.2).
const stageAwareFrom = 0.1

// estimate returns job j's service estimate now (Alg. 1 line 4).
func (m *LASMQ) estimate(j int) float64 {
	s := m.s
	est := 0.0
	for st := 0; st < s.Stages(j) && s.StageReleased(j, st); st++ {
		svc := s.StageService(j, st)
		if m.StageAware && !s.StageComplete(j, st) {
			if p := s.StageProgress(j, st); p >= stageAwareFrom {
				svc /= p
			}
		}
		est += svc
	}
	return est
}

// reach returns when job j's estimate will reach a, if before the job's
// next task start or end (+Inf otherwise), or the earlier time at which
// the estimate changes form (a stage's progress reaching 10%), when the
// caller must look again. Between the job's events a stage's service grows
// linearly (svc + r·τ) and so does its progress (p + q·τ), so the estimate
// of the one stage still running is linear, or (svc + r·τ)/(p + q·τ) once
// stage-aware: both cross a threshold at a time in closed form. With more
// than one running stage (slow start), the estimate is checked at the job's
// events only, as Alg. 1 does at task completions.
func (m *LASMQ) reach(j int, a float64) float64 {
	s := m.s
	now := s.Now()
	base, active := 0.0, -1
	var svc, r float64
	for st := 0; st < s.Stages(j) && s.StageReleased(j, st); st++ {
		if s.StageComplete(j, st) {
			base += s.StageService(j, st)
			continue
		}
		if active >= 0 {
			return inf // several running stages
		}
		active, svc, r = st, s.StageService(j, st), float64(s.StageRunning(j, st))
	}
	if active < 0 {
		return inf
	}
	a -= base
	if !m.StageAware {
		if r > 0 {
			return now + (a-svc)/r
		}
		return inf
	}
	p, q := s.StageProgress(j, active), s.StageProgressRate(j, active)
	if p < stageAwareFrom {
		t := inf
		if r > 0 {
			t = now + (a-svc)/r
		}
		if q > 0 {
			t = min(t, now+(stageAwareFrom-p)/q)
		}
		return t
	}
	// (svc + r·τ) / (p + q·τ) = a  ⇔  τ = (a·p − svc) / (r − a·q).
	if den := r - a*q; den > 0 {
		return now + (a*p-svc)/den
	}
	return inf
}

// update demotes job j if its estimate has reached its threshold and
// schedules the time to look again.
func (m *LASMQ) update(j int32) {
	q := int(m.q[j])
	if q < 0 {
		return
	}
	now := m.s.Now()
	est := m.estimate(int(j))
	nq, t := q, inf
	for nq < m.K-1 {
		if est >= m.thr[nq]*(1-sim.Tol) {
			nq++
			continue
		}
		if t = m.reach(int(j), m.thr[nq]); !(t > now) {
			nq++ // the crossing is within rounding of now
			continue
		}
		break
	}
	if nq != q {
		m.move(j, nq)
	}
	if nq < m.K-1 && t < inf {
		m.dem.set(j, key{t, 0})
	} else if m.dk.in(j) {
		m.dem.remove(j)
	}
}

// move demotes job j to the tail of queue nq.
func (m *LASMQ) move(j int32, nq int) {
	q := m.q[j]
	ready := m.kk.in(j)
	if ready {
		m.rq[q].remove(j)
	}
	m.nq[q]--
	m.used[q] -= int64(m.s.Running(int(j)))
	m.q[j] = int32(nq)
	m.nq[nq]++
	m.used[nq] += int64(m.s.Running(int(j)))
	m.seq++
	m.kk.k[j] = m.orderKey(j)
	if ready {
		m.rq[nq].push(j)
	}
}

func (m *LASMQ) Pick(Node) (int, int) {
	now := m.s.Now()
	for m.dem.len() > 0 && m.dk.k[m.dem.min()].a <= now {
		j := m.dem.pop()
		m.update(j)
	}
	sumW, first := 0.0, -1
	for q := 0; q < m.K; q++ {
		if m.nq[q] > 0 {
			if first < 0 {
				first = q
			}
			sumW += m.w[q]
		}
	}
	if first < 0 {
		return -1, -1
	}
	c := float64(m.s.Containers())
	for q := first; q < m.K; q++ {
		if m.rq[q].len() == 0 {
			continue
		}
		share := 0.0
		switch {
		case m.Strict || !(sumW > 0):
			if q == first {
				share = c
			}
		default:
			share = c * m.w[q] / sumW
		}
		if float64(m.used[q]) < share {
			return int(m.rq[q].min()), -1
		}
	}
	if !m.LeftoverByPriority {
		j := m.cursor
		if j >= 0 {
			m.cursor = m.next[j]
		}
		return int(j), -1
	}
	for q := first; q < m.K; q++ {
		if m.rq[q].len() > 0 {
			return int(m.rq[q].min()), -1
		}
	}
	return -1, -1
}
