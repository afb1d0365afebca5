package sim

import "math"

// LAS (least attained service) serves the jobs with the least attained
// service, sharing equally among them.
//
// Jobs with equal attained service form a group; the served group is the
// one at the lowest level. A job arrives at level 0, below every waiting
// group, so waiting groups form a stack with the lowest level on top: a new
// arrival pushes the served group (if its level is above 0), and when the
// served group's level rises to the top group's level the two merge. Each
// group holds its members in a pairing heap keyed by size (a member
// completes when the level reaches its size), so a merge is O(1) and a
// completion O(log n) amortised; no event touches more than the jobs it
// completes.
type LAS struct {
	jobs  []Job
	c     float64
	now   float64
	heaps pairing
	loan  // the run's estimates, its jobs' facts, the simulator's arrays (borrow)

	// served group
	level float64
	root  int32
	count int

	stack []lasGroup
}

type lasGroup struct {
	level float64
	root  int32
	count int
}

func (*LAS) Name() string { return "las" }

func (l *LAS) Start(jobs []Job, c float64) {
	l.jobs, l.c, l.now, l.level, l.root, l.count = jobs, c, 0, 0, -1, 0
	l.stack = l.stack[:0]
	l.heaps.reset(len(jobs), l.sc)
	l.heaps.key = l.sc.floats(0, l.heaps.key, len(jobs))
	for i, j := range jobs {
		l.heaps.key[i] = j.Size
	}
}

func (l *LAS) borrow(ln loan) {
	if ln.sc != l.sc {
		l.heaps = pairing{} // the last lender's (dropArrays)
	}
	l.loan = ln
}

func (l *LAS) Arrive(t float64, j int) {
	node := l.heaps.single(j)
	if l.count > 0 && l.level > 0 {
		l.stack = append(l.stack, lasGroup{l.level, l.root, l.count})
		l.root, l.count = -1, 0
	}
	if l.count == 0 {
		l.level = 0
	}
	l.root = l.heaps.meld(l.root, node)
	l.count++
}

// next returns the next event time and kind: 0 a member completes, 1 the
// served group reaches the next group's level.
func (l *LAS) next() (float64, int) {
	if l.count == 0 {
		return math.Inf(1), -1
	}
	g := float64(l.count) / l.c
	t, kind := l.now+(l.heaps.key[l.root]-l.level)*g, 0
	if n := len(l.stack); n > 0 {
		if tm := l.now + (l.stack[n-1].level-l.level)*g; tm < t {
			t, kind = tm, 1
		}
	}
	return t, kind
}

func (l *LAS) Next() float64 {
	t, _ := l.next()
	return t
}

func (l *LAS) Advance(t float64, done func(int)) {
	tn, kind := l.next()
	if kind < 0 {
		l.now = t
		return
	}
	if t >= tn {
		if kind == 0 {
			l.level = max(l.level, l.heaps.key[l.root])
		} else {
			l.level = max(l.level, l.stack[len(l.stack)-1].level)
		}
	} else {
		l.level += (t - l.now) * l.c / float64(l.count)
	}
	l.now = t
	for {
		for l.count > 0 {
			j := l.root
			if l.heaps.key[j]-l.level > Tol*l.heaps.key[j] {
				break
			}
			l.root = l.heaps.pop(j)
			l.count--
			done(int(j))
		}
		n := len(l.stack)
		if n == 0 {
			break
		}
		top := l.stack[n-1]
		if l.count > 0 && top.level-l.level > Tol*top.level {
			break
		}
		// Merge the next group (or make it the served group when the
		// served group emptied).
		l.stack = l.stack[:n-1]
		if l.count == 0 {
			l.level = top.level
		}
		l.root = l.heaps.meld(l.root, top.root)
		l.count += top.count
	}
}
