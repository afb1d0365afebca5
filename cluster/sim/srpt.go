package sim

import "math"

// SRPT gives all capacity to the job with the least estimated remaining
// work (estimate − attained service, which may go negative when the
// estimate was too small); preemptive; ties go to the earlier arrival.
//
// With LatePS set it is SRPT+PS: a job whose estimated remaining work
// reaches 0 before it finishes becomes late, and the late jobs and the
// SRPT head share the capacity equally.
//
// Only the head's estimated remaining work changes, so the waiting jobs sit
// in a heap keyed by their (frozen) estimated remaining work; the late jobs
// share like PS, with a virtual time and a heap of finish tags. O(log n)
// per event.
type SRPT struct {
	LatePS bool
	loan   // the run's estimates, its jobs' facts, the simulator's arrays (borrow)

	jobs []Job
	c    float64
	now  float64
	rem  []float64 // true remaining work of waiting jobs
	wait keyHeap

	h          int     // head job, −1 if none
	hEst, hRem float64 // head's estimated and true remaining work

	late  keyHeap // late jobs by PS finish tag
	vLate float64 // virtual time of the late jobs' PS
}

func (s *SRPT) Name() string {
	if s.LatePS {
		return "srpt+ps"
	}
	return "srpt"
}

func (s *SRPT) Start(jobs []Job, c float64) {
	s.jobs, s.c, s.now, s.h, s.vLate = jobs, c, 0, -1, 0
	s.rem = s.sc.floats(0, s.rem, len(jobs))
	s.wait.reset()
	s.late.reset()
}

// rate is the capacity each served job gets.
func (s *SRPT) borrow(l loan) {
	if l.sc != s.sc {
		s.rem = nil // the last lender's (dropArrays)
	}
	s.loan = l
}

func (s *SRPT) rate() float64 {
	k := s.late.len()
	if s.h >= 0 {
		k++
	}
	return s.c / float64(k)
}

func (s *SRPT) Arrive(t float64, j int) {
	est, size := s.est(s.jobs, int(j)), s.jobs[j].Size
	switch {
	case s.h < 0:
		s.h, s.hEst, s.hRem = j, est, size
	case est < s.hEst:
		s.rem[s.h] = s.hRem
		s.wait.push(s.hEst, s.h)
		s.h, s.hEst, s.hRem = j, est, size
	default:
		s.rem[j] = size
		s.wait.push(est, j)
	}
}

// next returns the time of the next event and its kind: 0 head completes,
// 1 head becomes late, 2 a late job completes.
func (s *SRPT) next() (float64, int) {
	if s.h < 0 && s.late.len() == 0 {
		return math.Inf(1), -1
	}
	r := s.rate()
	t, kind := math.Inf(1), -1
	if s.h >= 0 {
		t, kind = s.now+s.hRem/r, 0
		if s.LatePS {
			if tl := s.now + max(s.hEst, 0)/r; tl < t {
				t, kind = tl, 1
			}
		}
	}
	if s.late.len() > 0 {
		if tl := s.now + (s.late.min().key-s.vLate)/r; tl < t {
			t, kind = tl, 2
		}
	}
	return t, kind
}

func (s *SRPT) Next() float64 {
	t, _ := s.next()
	return t
}

func (s *SRPT) Advance(t float64, done func(int)) {
	tn, kind := s.next()
	if kind < 0 {
		s.now = t
		return
	}
	d := (t - s.now) * s.rate()
	if s.h >= 0 {
		s.hEst -= d
		s.hRem -= d
	}
	if s.late.len() > 0 {
		s.vLate += d
	}
	if t >= tn {
		switch kind {
		case 0:
			s.hRem = 0
		case 1:
			s.hEst = 0
		case 2:
			s.vLate = max(s.vLate, s.late.min().key)
		}
	}
	s.now = t
	for s.h >= 0 {
		j := s.h
		if s.hRem <= Tol*s.jobs[j].Size {
			done(j)
		} else if s.LatePS && s.hEst <= Tol*s.est(s.jobs, int(j)) {
			s.late.push(s.vLate+s.hRem, j)
		} else {
			break
		}
		s.h = -1
		if s.wait.len() > 0 {
			e := s.wait.pop()
			s.h, s.hEst, s.hRem = int(e.j), e.key, s.rem[e.j]
		}
	}
	for s.late.len() > 0 {
		e := s.late.min()
		if e.key-s.vLate > Tol*s.jobs[e.j].Size {
			break
		}
		s.late.pop()
		done(int(e.j))
	}
	if s.late.len() == 0 {
		s.vLate = 0
	}
}
