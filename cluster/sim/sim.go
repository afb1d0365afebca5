package sim

import (
	"errors"
	"fmt"
	"math"
)

// Job is one job of a fluid simulation.
type Job struct {
	// Arrival is the submission time in seconds. Jobs are given in
	// non-decreasing order of arrival; simultaneous arrivals enter the
	// system in slice order.
	Arrival float64
	// Size is the work the job needs, in seconds of a capacity-1 server. It
	// decides when the job completes. Zero is allowed.
	Size float64
	// Estimate is the size a size-based policy believes (SRPT, FSP, PFSP).
	// Use Size for exact knowledge.
	Estimate float64
	// Weight is the job's share weight under GPS (≤ 0 means 1).
	Weight float64
	// Cap is the most capacity the job can use at once (its parallelism),
	// in the units of the capacity; 0 means no cap. Only the policies that
	// implement caps accept capped jobs (FIFO, PS, GPS, LAS_MQ); the others return
	// an error.
	Cap float64
}

// capAware is implemented by the policies that honour Job.Cap.
type capAware interface{ supportsCaps() }

// HasCaps reports whether any job carries a rate cap.
func HasCaps(jobs []Job) bool {
	for _, j := range jobs {
		if j.Cap > 0 {
			return true
		}
	}
	return false
}

// Policy is a fluid scheduling discipline. A policy owns the state of the
// active jobs (remaining work, attained service, virtual times) and keeps it
// in structures that make each call O(log n) or better (O(k) for LAS_MQ's k
// queues, O(m) for PFSP's m virtual jobs: see the package documentation);
// the Simulator drives it through time:
//
//	Start(jobs, c)      once per run, before any other call
//	Next()              the time of the policy's next event (a completion or
//	                    an internal change such as a job becoming late or
//	                    changing level), +Inf when it has nothing to do
//	Advance(t, done)    move the state to t ≤ Next(); when t == Next() also
//	                    process that event, calling done(j) for every job
//	                    that completes at t
//	Arrive(t, j)        job j joins at t (after Advance(t))
//
// A policy with parameters may also have a Validate() error method, which
// Run calls before Start. Adding a policy means writing one type with these
// methods and one entry in the registry (registry.go).
type Policy interface {
	Name() string
	Start(jobs []Job, capacity float64)
	Next() float64
	Advance(t float64, done func(j int))
	Arrive(t float64, j int)
}

// Tol is the relative tolerance of completions: at any event, a job whose
// remaining work is at most Tol × its size completes then, together with the
// job whose completion the event is. Events snap the state of the job that
// causes them exactly (its remaining work, virtual finish tag or level is set
// to its target), so every event makes progress, and jobs that would finish
// within floating-point noise of each other complete at the same time rather
// than in a cascade of tiny events.
const Tol = 1e-9

// Result is the outcome of one run.
type Result struct {
	// Completion[j] is job j's completion time.
	Completion []float64
	// Busy is the total time during which at least one job was in the
	// system. Under a work-conserving policy (every policy here, when no
	// job is capped) it equals Σ sizes / capacity.
	Busy float64
	// Events is the number of events processed (arrivals and policy
	// events).
	Events int
}

// Simulator runs policies over jobs and reuses its buffers between runs, so
// that repeated runs (tuning, sweeps) do not allocate per run. A Simulator
// is not safe for concurrent use; use one per goroutine.
type Simulator struct {
	res Result
}

// Simulate runs policy p over jobs on a server of the given capacity. The
// returned Result is freshly allocated.
func Simulate(jobs []Job, capacity float64, p Policy) (*Result, error) {
	var s Simulator
	r, err := s.Run(jobs, capacity, p)
	if err != nil {
		return nil, err
	}
	out := *r
	return &out, nil
}

// CheckJobs validates a job list: finite non-negative arrivals in
// non-decreasing order, finite non-negative sizes and estimates, finite
// weights. Errors name the job (1-based, as a row).
func CheckJobs(jobs []Job) error {
	prev := math.Inf(-1)
	for i, j := range jobs {
		switch {
		case math.IsNaN(j.Arrival) || math.IsInf(j.Arrival, 0):
			return fmt.Errorf("job %d: arrival %v is not finite", i+1, j.Arrival)
		case j.Arrival < prev:
			return fmt.Errorf("job %d: arrival %v is before the previous job's %v (jobs must be sorted by arrival)", i+1, j.Arrival, prev)
		case !(j.Size >= 0) || math.IsInf(j.Size, 0):
			return fmt.Errorf("job %d: size %v is not a finite non-negative number", i+1, j.Size)
		case !(j.Estimate >= 0) || math.IsInf(j.Estimate, 0):
			return fmt.Errorf("job %d: estimate %v is not a finite non-negative number", i+1, j.Estimate)
		case math.IsNaN(j.Weight) || math.IsInf(j.Weight, 0):
			return fmt.Errorf("job %d: weight %v is not finite", i+1, j.Weight)
		case !(j.Cap >= 0) || math.IsInf(j.Cap, 0):
			return fmt.Errorf("job %d: rate cap %v is not a finite non-negative number", i+1, j.Cap)
		}
		prev = j.Arrival
	}
	return nil
}

// Run simulates policy p over jobs on a server of capacity c. The Result
// and its slices belong to the Simulator and are overwritten by its next
// run.
func (s *Simulator) Run(jobs []Job, c float64, p Policy) (*Result, error) {
	if !(c > 0) || math.IsInf(c, 0) {
		return nil, fmt.Errorf("capacity %v is not a finite positive number", c)
	}
	if err := CheckJobs(jobs); err != nil {
		return nil, err
	}
	if _, ok := p.(capAware); !ok && HasCaps(jobs) {
		return nil, fmt.Errorf("policy %s does not support rate caps (fifo, ps, gps and las_mq do)", p.Name())
	}
	if v, ok := p.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return nil, err
		}
	}
	n := len(jobs)
	r := &s.res
	if cap(r.Completion) < n {
		r.Completion = make([]float64, n)
	}
	r.Completion = r.Completion[:n]
	for i := range r.Completion {
		r.Completion[i] = math.NaN()
	}
	r.Busy, r.Events = 0, 0
	p.Start(jobs, c)
	active, completed := 0, 0
	var now float64
	var failed error
	done := func(j int) {
		if j < 0 || j >= n || !math.IsNaN(r.Completion[j]) {
			failed = fmt.Errorf("policy %s completed job %d twice or out of range", p.Name(), j+1)
			return
		}
		r.Completion[j] = now
		active--
		completed++
	}
	next := 0
	stuck := 0 // consecutive events at the same time that completed nothing
	for {
		tn := p.Next()
		ta := math.Inf(1)
		if next < n {
			ta = jobs[next].Arrival
		}
		if math.IsInf(tn, 1) && next == n {
			break
		}
		t := math.Min(tn, ta)
		now0, completed0 := now, completed
		if t < now {
			t = now // a policy's next event may round to just before now
		}
		if active > 0 {
			r.Busy += t - now
		}
		now = t
		r.Events++
		if tn <= ta {
			p.Advance(t, done)
		} else {
			p.Advance(t, done)
			p.Arrive(t, next)
			next++
			active++
		}
		if failed != nil {
			return nil, failed
		}
		if t > now0 || completed > completed0 || tn > ta {
			stuck = 0
		} else if stuck++; stuck > 2*active+64 {
			return nil, fmt.Errorf("policy %s: no progress at time %v after %d events (internal error)", p.Name(), now, r.Events)
		}
	}
	if completed != n {
		return nil, errors.New("policy " + p.Name() + " left jobs unfinished (internal error)")
	}
	return r, nil
}
