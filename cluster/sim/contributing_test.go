package sim

import (
	"math"
	"testing"
)

// The policy of CONTRIBUTING.md's walk-through "A fluid policy", compiled
// and run here so that the walk-through stays true
// (internal/archtest checks that the guide shows this code).

// contributing:begin fluid-lcfs

// LCFS is preemptive last come, first served: the whole capacity goes to
// the job that arrived last; a job resumes where it stopped once the jobs
// that arrived after it are done. O(1) per event.
type LCFS struct {
	jobs  []Job
	c     float64
	now   float64
	stack []int     // active jobs, the newest on top
	rem   []float64 // remaining work, per job
}

func (*LCFS) Name() string { return "lcfs" }

func (l *LCFS) Start(jobs []Job, c float64) {
	*l = LCFS{jobs: jobs, c: c, stack: l.stack[:0], rem: make([]float64, len(jobs))}
}

func (l *LCFS) Arrive(t float64, j int) {
	l.rem[j] = l.jobs[j].Size
	l.stack = append(l.stack, j)
}

func (l *LCFS) Next() float64 {
	if len(l.stack) == 0 {
		return math.Inf(1)
	}
	return l.now + l.rem[l.stack[len(l.stack)-1]]/l.c
}

func (l *LCFS) Advance(t float64, done func(int)) {
	if len(l.stack) == 0 { // idle: the clock may restart earlier
		l.now = t
		return
	}
	top := l.stack[len(l.stack)-1]
	if t >= l.Next() {
		l.rem[top] = 0 // the planned event: exact, whatever t rounds to
	} else {
		l.rem[top] -= (t - l.now) * l.c
	}
	l.now = t
	for len(l.stack) > 0 {
		top := l.stack[len(l.stack)-1]
		if l.rem[top] > Tol*l.jobs[top].Size {
			break
		}
		l.stack = l.stack[:len(l.stack)-1]
		done(top)
	}
}

// contributing:end

// The walk-through's registry entry, added for the test's duration, and
// its hand-computed case: A (size 2) at 0, B (size 1) at 1, capacity 1. A
// runs 0–1, B preempts it and runs 1–2, A resumes and ends at 3.
func TestContributingFluidPolicy(t *testing.T) {
	// contributing:begin fluid-lcfs-registry
	registry["lcfs"] = simple("preemptive last come, first served", Uses{}, func() Policy { return &LCFS{} })
	// contributing:end
	defer delete(registry, "lcfs")

	p, err := ParsePolicy("lcfs")
	if err != nil {
		t.Fatal(err)
	}
	jobs := []Job{{Arrival: 0, Size: 2}, {Arrival: 1, Size: 1}}
	r, err := Simulate(jobs, 1, p)
	if err != nil {
		t.Fatal(err)
	}
	if r.Completion[0] != 3 || r.Completion[1] != 2 {
		t.Errorf("completions %v, want [3 2]", r.Completion)
	}
	// Work conservation on a random instance: busy time = Σ size / c.
	rj := synthetic(2000, 0.9, 0, 7)
	r, err = Simulate(rj, 2, p)
	if err != nil {
		t.Fatal(err)
	}
	work := 0.0
	for _, j := range rj {
		work += j.Size
	}
	if math.Abs(r.Busy-work/2) > 1e-6*r.Busy {
		t.Errorf("busy %v, want Σ size / c = %v", r.Busy, work/2)
	}
	if info, err := LookupPolicy("lcfs"); err != nil || info.Uses != (Uses{}) {
		t.Errorf("lookup: %+v %v", info, err)
	}
}
