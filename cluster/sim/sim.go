package sim

import (
	"errors"
	"fmt"
	"math"
)

// Job is one job of a fluid simulation. Its slowdown (Metrics) is over
// Size ÷ capacity unless the metrics are given other times alone (Alone:
// the task level's).
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
	// Containers is the containers the job's tasks hold in all (Σ over
	// its tasks of each one's containers), which YARN knows once the job
	// is submitted (seed 000 §4); LAS_MQ's containers order
	// (OrderContainers) reads it. 0: unknown. Other policies ignore it.
	Containers float64
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
// queues; for PFSP measured, not proven: see the package documentation);
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
// Times are on the Simulator's clock, which restarts at 0 at the first
// arrival of every busy period (when no job is active and Next() is +Inf),
// so that absolute times near the Unix epoch (1.7e9 s) keep full
// resolution: an idle policy must accept an Advance to an earlier time, and
// a policy uses the times it is given, never Job.Arrival. An event must
// move the state by the amount planned for it, not by (t − now) alone, so
// that it makes progress even when its time rounds to the current one.
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
	// Response[j] is job j's response time (completion − arrival), computed
	// on the run's own clock, which restarts at the first arrival of every
	// busy period (see Policy): it keeps
	// full resolution when arrivals are absolute times such as Unix-epoch
	// seconds (about 1.7e9, where Completion[j] − Arrival has a resolution
	// of only 2.4e-7 s).
	Response []float64
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
	// sc is the per-job arrays its policies borrow (scratch); a
	// Simulator made for one run (Simulate) lends none.
	sc     scratch
	noLend bool
	// absolute keeps the clock absolute (tests: policies must make
	// progress at any clock value).
	absolute bool
}

// Simulate runs policy p over jobs on a server of the given capacity. The
// returned Result is freshly allocated.
func Simulate(jobs []Job, capacity float64, p Policy) (*Result, error) {
	s := Simulator{noLend: true} // p keeps its own arrays for its next run
	r, err := s.Run(jobs, capacity, p)
	if err != nil {
		return nil, err
	}
	out := *r
	return &out, nil
}

// CheckJobs validates a job list: finite non-negative arrivals in
// non-decreasing order, finite non-negative sizes, estimates, containers
// and rate caps, finite weights. Errors name the job (1-based, as a row).
func CheckJobs(jobs []Job) error {
	_, err := checkJobs(jobs)
	return err
}

// checkJobs is CheckJobs, and reports besides what a policy's Start
// would pass over the jobs again for (jobFacts), found in the same pass.
func checkJobs(jobs []Job) (f jobFacts, err error) {
	prev := math.Inf(-1)
	for i := range jobs {
		j := &jobs[i]
		if !j.valid(prev) {
			return jobFacts{}, j.invalid(i, prev)
		}
		prev = j.Arrival
		f.caps = f.caps || j.Cap > 0
		f.containers = f.containers || j.Containers > 0
	}
	f.set = true
	return f, nil
}

// valid reports whether j passes CheckJobs after a job that arrived at
// prev: whether Arrival ≥ prev, Arrival and Weight are finite and Size,
// Estimate, Containers and Cap are finite and ≥ 0, as a chain of
// comparisons would (every comparison is false for a NaN), but with two
// branches instead of twelve: a validation window of 3 M jobs is checked
// at every run. A float64's bits, its sign cleared (finite) or with −0
// made +0 by adding +0 (non-negative: a negative number keeps its sign
// bit, a NaN stays a NaN), are below +Inf's exactly for the numbers
// that pass; TestValidMatchesComparisons compares it with the chain.
func (j *Job) valid(prev float64) bool {
	const inf = 0x7ff0_0000_0000_0000 // +Inf's bits
	const abs = 1<<63 - 1
	finite := max(math.Float64bits(j.Arrival)&abs, math.Float64bits(j.Weight)&abs)
	nonNeg := max(math.Float64bits(j.Size+0), math.Float64bits(j.Estimate+0), math.Float64bits(j.Containers+0), math.Float64bits(j.Cap+0))
	return max(finite, nonNeg) < inf && j.Arrival >= prev
}

// invalid returns the error that names what is wrong with job i, which
// valid refused.
func (j *Job) invalid(i int, prev float64) error {
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
	case !(j.Containers >= 0) || math.IsInf(j.Containers, 0):
		return fmt.Errorf("job %d: containers %v is not a finite non-negative number", i+1, j.Containers)
	default:
		return fmt.Errorf("job %d: rate cap %v is not a finite non-negative number", i+1, j.Cap)
	}
}

// jobFacts is what checkJobs finds of a run's jobs besides their
// validity, in its one pass: whether any job carries a rate cap
// (HasCaps) or a container count (HasContainers). Policies read it (their
// loan) in their Start (hasCaps, hasContainers) instead of passing over
// the jobs again (a validation window holds 3 M jobs, 144 MB, and each
// pass over them costs a run ~7 ms); it is set only while Run runs the
// policy (loan), so a Start called otherwise passes over its jobs itself.
type jobFacts struct {
	set, caps, containers bool
}

// hasCaps is HasCaps(jobs), from the facts when Run set them.
func (f *jobFacts) hasCaps(jobs []Job) bool {
	if f.set {
		return f.caps
	}
	return HasCaps(jobs)
}

// hasContainers is HasContainers(jobs), from the facts when Run set them.
func (f *jobFacts) hasContainers(jobs []Job) bool {
	if f.set {
		return f.containers
	}
	return HasContainers(jobs)
}

// unlend takes the loan back from p after its run: p holds none of the
// simulator's arrays then, so that a Start outside this simulator
// (Simulate, another simulator, a caller's own loop), maybe on another
// goroutine while this simulator runs another policy, uses arrays of p's
// own (dropArrays), and reads neither this run's estimates nor its facts.
func (s *Simulator) unlend(p Policy) {
	if b, ok := p.(borrower); ok {
		b.borrow(loan{})
	}
}

// lend hands p, when it borrows, the run's estimate column est (nil: the
// jobs' own), the facts f of its jobs and the simulator's per-job arrays
// (none when it lends none: Simulate).
func (s *Simulator) lend(p Policy, est []float64, f jobFacts) {
	if b, ok := p.(borrower); ok {
		l := loan{estimateColumn: estimateColumn{est}, jobFacts: f}
		if !s.noLend {
			l.sc = &s.sc
		}
		b.borrow(l)
	}
}

// Run simulates policy p over jobs on a server of capacity c. The Result
// and its slices belong to the Simulator and are overwritten by its next
// run.
func (s *Simulator) Run(jobs []Job, c float64, p Policy) (*Result, error) {
	return s.run(jobs, nil, c, p)
}

// run is Run with est, when not nil, as the jobs' estimates (RunEstimates,
// for a policy that borrows: the loan holds them).
func (s *Simulator) run(jobs []Job, est []float64, c float64, p Policy) (*Result, error) {
	if !(c > 0) || math.IsInf(c, 0) {
		return nil, fmt.Errorf("capacity %v is not a finite positive number", c)
	}
	facts, err := checkJobs(jobs)
	if err != nil {
		return nil, err
	}
	if _, ok := p.(capAware); !ok && facts.caps {
		return nil, fmt.Errorf("policy %s does not support rate caps (fifo, ps, gps and las_mq do)", p.Name())
	}
	if v, ok := p.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			return nil, err
		}
	}
	n := len(jobs)
	r := &s.res
	r.Completion = resizeF(r.Completion, n)
	r.Response = resizeF(r.Response, n)
	for i := range r.Completion {
		r.Completion[i] = math.NaN()
	}
	r.Busy, r.Events = 0, 0
	s.lend(p, est, facts)
	defer s.unlend(p)
	p.Start(jobs, c)
	// The policy runs on a clock that restarts at 0 at the first arrival of
	// every busy period (base is that arrival's absolute time): with
	// absolute times such as Unix-epoch seconds an event would otherwise
	// lose 30 bits of resolution. Responses are computed on that clock;
	// completions are base + the clock.
	active, completed := 0, 0
	var now, base float64
	var failed error
	done := func(j int) {
		if j < 0 || j >= n || !math.IsNaN(r.Completion[j]) {
			failed = fmt.Errorf("policy %s completed job %d twice or out of range", p.Name(), j+1)
			return
		}
		r.Completion[j] = base + now
		r.Response[j] = now - r.Response[j] // the arrival on the run's clock, until now
		active--
		completed++
	}
	next := 0
	// stuck counts consecutive events that neither moved the clock, nor
	// completed a job, nor admitted one. Events at equal times are normal
	// (simultaneous virtual completions, level changes, jobs becoming
	// late: each policy event changes the policy's state, a bounded number
	// of times per active job); an endless run of them is a policy bug.
	stuck := 0
	for {
		tn := p.Next()
		if active == 0 && math.IsInf(tn, 1) && next < n && !s.absolute {
			// Idle: restart the clock at the next arrival.
			base, now = jobs[next].Arrival, 0
		}
		ta := math.Inf(1)
		if next < n {
			ta = jobs[next].Arrival - base
		}
		if math.IsInf(tn, 1) && next == n {
			break
		}
		t := min(tn, ta)
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
			r.Response[next] = ta // the response once the job completes (done)
			p.Arrive(t, next)
			next++
			active++
		}
		if failed != nil {
			return nil, failed
		}
		if t > now0 || completed > completed0 || tn > ta {
			stuck = 0
		} else if stuck++; stuck > 16*active+1024 {
			return nil, fmt.Errorf("policy %s: no progress at time %v after %d events (internal error)", p.Name(), base+now, r.Events)
		}
	}
	if completed != n {
		return nil, errors.New("policy " + p.Name() + " left jobs unfinished (internal error)")
	}
	return r, nil
}
