package hpfsp

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"unsafe"

	"github.com/schedplan/schedplan/cluster/sim"
)

// slackRef is the naive slack system, written from seed 002 as printed:
// each job keeps v and w; the virtual PS subtracts work/m from every v
// (eq. 8) and drops the jobs whose v reaches 0; re-estimation adds Δ to w
// and v (eq. 11–13); the slacks are recomputed from eq. 6 after sorting by
// v, O(m log m) per query. It shares nothing with SlackSystem but the
// tolerances.
type slackRef struct {
	fairLimit int
	thr       float64
	lateFirst bool // SlackConfig.LateFirst
	fallback  bool // SlackConfig.Fallback
	jobs      []refJob
	ps        []int // jobs in the virtual PS
	seq, late int64
}

type refJob struct {
	state    uint8
	runnable bool
	v, w     float64
	size     float64
	est0     float64
	seq      int64
	lateSeq  int64
	prog     []float64
	sched    []int32
}

func newSlackRef(fairLimit int, thr float64, n int) *slackRef {
	return &slackRef{fairLimit: fairLimit, thr: thr, jobs: make([]refJob, n)}
}

func (r *slackRef) add(job int, e float64, stages int) {
	r.jobs[job] = refJob{state: slkPS, v: e, w: e, size: e, est0: e, seq: r.seq, prog: make([]float64, stages), sched: make([]int32, stages)}
	r.seq++
	r.ps = append(r.ps, job)
	r.settle()
}

// order returns the virtual PS in order of (v, arrival).
func (r *slackRef) order() []int {
	o := append([]int(nil), r.ps...)
	sort.Slice(o, func(a, b int) bool {
		ja, jb := &r.jobs[o[a]], &r.jobs[o[b]]
		return ja.v < jb.v || (ja.v == jb.v && ja.seq < jb.seq)
	})
	return o
}

func (r *slackRef) settle() {
	for {
		o := r.order()
		if len(o) == 0 {
			return
		}
		j := &r.jobs[o[0]]
		if j.v > sim.Tol*math.Max(j.size, j.est0) {
			return
		}
		r.ps = slkRemove(r.ps, o[0])
		if j.state == slkPS {
			j.state, j.lateSeq = slkLate, r.late
			r.late++
		} else {
			j.state = slkGone
		}
	}
}

func slkRemove(s []int, x int) []int {
	for i, y := range s {
		if y == x {
			return append(s[:i], s[i+1:]...)
		}
	}
	return s
}

func (r *slackRef) advance(work float64) {
	for work > 0 && len(r.ps) > 0 {
		m := float64(len(r.ps))
		f := r.jobs[r.order()[0]].v
		if work/m < f {
			for _, j := range r.ps {
				r.jobs[j].v -= work / m
			}
			break
		}
		for _, j := range r.ps {
			r.jobs[j].v -= f
		}
		work -= f * m
		r.settle()
	}
	r.settle()
}

func (r *slackRef) serve(job int, work float64) {
	j := &r.jobs[job]
	j.w -= work
	if j.w <= sim.Tol*math.Max(j.size, j.est0) {
		j.w = 0
	}
}

func (r *slackRef) reestimate(job int, w float64) {
	j := &r.jobs[job]
	d := w - j.w
	j.size = math.Max(j.size+d, 0)
	j.w = w
	if j.state == slkPS {
		j.v += d
		r.settle()
	}
}

func (r *slackRef) finish(job int) {
	j := &r.jobs[job]
	j.w, j.runnable = 0, false
	if j.state == slkPS {
		j.state = slkPSDone
	} else {
		j.state = slkGone
	}
}

// slacks returns eq. 6 for every job of the virtual PS, and the least
// slack of the running jobs ahead of each.
func (r *slackRef) slacks() (s, ahead map[int]float64) {
	o := r.order()
	m := len(o)
	s, ahead = map[int]float64{}, map[int]float64{}
	pre := math.Inf(1)
	for i := range o { // i is 0-based: (m − i + 1) becomes m − i
		sv, sw := 0.0, 0.0
		for k := 0; k < i; k++ {
			sv += r.jobs[o[k]].v
		}
		for k := 0; k <= i; k++ {
			sw += r.jobs[o[k]].w
		}
		j := &r.jobs[o[i]]
		s[o[i]] = sv + float64(m-i)*j.v - sw
		ahead[o[i]] = pre
		if j.state == slkPS {
			pre = math.Min(pre, s[o[i]])
		}
	}
	return s, ahead
}

func (r *slackRef) delta() float64 {
	t := 0.0
	for _, j := range r.ps {
		t += r.jobs[j].v + r.jobs[j].w
	}
	return sim.Tol * math.Max(t, 0)
}

func (r *slackRef) completable(w, ahead float64) bool {
	if math.IsInf(ahead, 1) {
		return true
	}
	if w == 0 {
		return ahead > r.delta()
	}
	return w <= ahead+sim.Tol*(w+math.Abs(ahead))
}

func (r *slackRef) stage(j *refJob) int {
	s := 0
	for s < len(j.prog)-1 && j.prog[s] >= r.thr {
		s++
	}
	return s
}

func (r *slackRef) inFair(j *refJob) bool {
	return (j.state == slkPS || j.state == slkLate) && int(j.sched[r.stage(j)]) < r.fairLimit
}

// next is Alg. 2 with the order SlackSystem documents, by scanning.
func (r *slackRef) next() (int, PickReason) {
	best := -1
	for k := range r.jobs {
		j := &r.jobs[k]
		if !j.runnable || !r.inFair(j) {
			continue
		}
		if best < 0 {
			best = k
			continue
		}
		b := &r.jobs[best]
		sj, sb := j.sched[r.stage(j)], b.sched[r.stage(b)]
		if sj < sb || (sj == sb && j.seq < b.seq) {
			best = k
		}
	}
	if best >= 0 {
		return best, PickFair
	}
	for k := range r.jobs {
		j := &r.jobs[k]
		if j.runnable && j.state == slkLate && (best < 0 || j.w < r.jobs[best].w || (j.w == r.jobs[best].w && j.lateSeq < r.jobs[best].lateSeq)) {
			best = k
		}
	}
	if best >= 0 && r.lateFirst {
		return best, PickLate
	}
	c, _ := r.bestCompletable()
	if best >= 0 && (c < 0 || r.jobs[best].w <= r.jobs[c].w) {
		return best, PickLate
	}
	if c >= 0 {
		return c, PickCompletable
	}
	if !r.fallback {
		return -1, PickNone
	}
	for _, k := range r.order() {
		if r.jobs[k].runnable && r.jobs[k].state == slkPS {
			return k, PickPSOrder
		}
	}
	return -1, PickNone
}

func (r *slackRef) bestCompletable() (int, float64) {
	_, ahead := r.slacks()
	best, bw, ba := -1, 0.0, 0.0
	for _, k := range r.order() {
		j := &r.jobs[k]
		if j.state != slkPS || !j.runnable {
			continue
		}
		if r.completable(j.w, ahead[k]) && (best < 0 || j.w < bw) {
			best, bw, ba = k, j.w, ahead[k]
		}
	}
	return best, ba
}

// compare checks every observable of x against the reference.
func slkCompare(t *testing.T, x *SlackSystem, r *slackRef, where string) bool {
	t.Helper()
	s, ahead := r.slacks()
	scale := 1e-300
	for _, k := range r.ps {
		scale += math.Abs(r.jobs[k].v) + r.jobs[k].w
	}
	tol := 1e-9 * scale
	if x.Len() != len(r.ps) {
		t.Errorf("%s: %d jobs in the virtual PS, reference %d", where, x.Len(), len(r.ps))
		return false
	}
	for k := range r.jobs {
		rj, xj := &r.jobs[k], &x.js[k]
		if rj.state != xj.state {
			t.Errorf("%s: job %d state %d, reference %d", where, k, xj.state, rj.state)
			return false
		}
		if rj.state == slkAbsent {
			continue
		}
		if math.Abs(xj.w-rj.w) > tol {
			t.Errorf("%s: job %d w %v, reference %v", where, k, xj.w, rj.w)
			return false
		}
		if rj.state != slkPS && rj.state != slkPSDone {
			continue
		}
		if v := x.VirtualRemaining(k); math.Abs(v-rj.v) > tol {
			t.Errorf("%s: job %d v %v, reference %v", where, k, v, rj.v)
			return false
		}
		if got := x.rawSlack(int32(k)); math.Abs(got-s[k]) > tol {
			t.Errorf("%s: job %d slack %v, reference %v (tolerance %v)", where, k, got, s[k], tol)
			return false
		}
		got, want := x.SlackAhead(k), ahead[k]
		if !(got == want || math.Abs(got-want) <= tol) {
			t.Errorf("%s: job %d slack ahead %v, reference %v", where, k, got, want)
			return false
		}
		if rj.state == slkPS {
			if got, want := x.Completable(k), r.completable(rj.w, ahead[k]); got != want {
				t.Errorf("%s: job %d completable %v, reference %v (w %v, slack ahead %v)", where, k, got, want, rj.w, ahead[k])
				return false
			}
		}
	}
	gb, ga := x.BestCompletable()
	wb, wa := r.bestCompletable()
	if gb != wb || (gb >= 0 && !(ga == wa || math.Abs(ga-wa) <= tol)) {
		t.Errorf("%s: best completable %d (slack ahead %v), reference %d (%v)", where, gb, ga, wb, wa)
		return false
	}
	gj, gr := x.Next()
	wj, wr := r.next()
	if gj != wj || gr != wr {
		t.Errorf("%s: next %d (%v), reference %d (%v)", where, gj, gr, wj, wr)
		return false
	}
	return true
}

// The incremental slack system equals the naive recomputation (to 1e-9
// of Σv + Σw) on 100 random instances with service, virtual progress,
// re-estimation (up and down), finishes, late jobs, runnable flags and
// fair-phase changes, and periodic rebuilds.
func TestSlackSystemMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 2013))
	fixes, ops := int64(0), 0
	for inst := 0; inst < 100; inst++ {
		n := 10 + rng.IntN(150)
		fair := 0
		if inst%2 == 1 {
			fair = 1 + rng.IntN(3)
		}
		// Seed 002's Alg. 2 as printed, then each addition and both.
		cfg := SlackConfig{FairLimit: fair, LateFirst: inst%4 >= 2, Fallback: inst%8 >= 4}
		x, err := NewSlackSystem(cfg, n)
		if err != nil {
			t.Fatal(err)
		}
		r := newSlackRef(fair, DefaultStageThreshold, n)
		r.lateFirst, r.fallback = cfg.LateFirst, cfg.Fallback
		added := 0
		running := func() []int {
			var out []int
			for k := 0; k < added; k++ {
				if st := r.jobs[k].state; st == slkPS || st == slkLate {
					out = append(out, k)
				}
			}
			return out
		}
		size := func() float64 {
			if rng.IntN(8) == 0 {
				return 4 // equal jobs
			}
			return math.Exp(2 * rng.NormFloat64())
		}
		for step := 0; step < 12*n; step++ {
			op := rng.IntN(100)
			run := running()
			var err error
			desc := ""
			switch {
			case op < 12 && added < n:
				// Sometimes a burst of equal jobs at once (seed 002 Fig. 2):
				// their slacks tie with their w exactly.
				e, k := size(), 1
				if rng.IntN(6) == 0 {
					e, k = float64(1+rng.IntN(3)), 2+rng.IntN(6)
				}
				desc = fmt.Sprintf("add %d jobs from %d, estimate %v", k, added, e)
				for ; k > 0 && added < n && err == nil; k-- {
					st := 1 + rng.IntN(2)
					err = x.AddJob(added, e, st)
					r.add(added, e, st)
					if err == nil && rng.IntN(2) == 0 {
						err = x.SetRunnable(added, true)
						r.jobs[added].runnable = r.jobs[added].state == slkPS || r.jobs[added].state == slkLate
					}
					added++
				}
			case op < 30:
				work := rng.ExpFloat64()
				err = x.AdvanceVirtual(work)
				r.advance(work)
				desc = fmt.Sprintf("advance %v", work)
			case op < 50 && len(run) > 0:
				k := run[rng.IntN(len(run))]
				work := rng.ExpFloat64() * r.jobs[k].w * 0.6
				err = x.Serve(k, work)
				r.serve(k, work)
				desc = fmt.Sprintf("serve job %d by %v", k, work)
			case op < 65 && len(run) > 0:
				k := run[rng.IntN(len(run))]
				w := r.jobs[k].w * math.Exp(0.7*rng.NormFloat64())
				if rng.IntN(10) == 0 {
					w = 0
				}
				err = x.Reestimate(k, w)
				desc = fmt.Sprintf("re-estimate job %d from %v to %v", k, r.jobs[k].w, w)
				r.reestimate(k, w)
			case op < 70 && len(run) > 0:
				k := run[rng.IntN(len(run))]
				err = x.Finish(k)
				r.finish(k)
				desc = fmt.Sprintf("finish job %d", k)
			case op < 85 && len(run) > 0:
				k := run[rng.IntN(len(run))]
				b := rng.IntN(3) != 0
				err = x.SetRunnable(k, b)
				r.jobs[k].runnable = b
				desc = fmt.Sprintf("job %d runnable %v", k, b)
			case op < 92 && len(run) > 0:
				k := run[rng.IntN(len(run))]
				st := rng.IntN(len(r.jobs[k].prog))
				err = x.TaskScheduled(k, st)
				r.jobs[k].sched[st]++
				desc = fmt.Sprintf("job %d schedules a task of stage %d", k, st)
			case op < 97 && len(run) > 0:
				k := run[rng.IntN(len(run))]
				st := rng.IntN(len(r.jobs[k].prog))
				p := []float64{0.3, 0.94, 0.95, 1}[rng.IntN(4)]
				err = x.SetStageProgress(k, st, p)
				r.jobs[k].prog[st] = p
				desc = fmt.Sprintf("job %d stage %d progress %v", k, st, p)
			default:
				x.rebuild()
				desc = "rebuild"
			}
			if err != nil {
				t.Fatalf("instance %d step %d: %v", inst, step, err)
			}
			ops++
			where := fmt.Sprintf("instance %d step %d (%s)", inst, step, desc)
			if !slkCompare(t, x, r, where) || !slkCheckTree(t, x, where) {
				return
			}
		}
		fixes += x.Fixes
	}
	t.Logf("%d operations, %.3f kinetic fixes per operation", ops, float64(fixes)/float64(ops))
}

// Eq. 6 by hand: three jobs of sizes 1, 2, 3 arrive together; the
// slacks are s1 = 3·1 − 1 = 2, s2 = 1 + 2·2 − (1+2) = 2,
// s3 = 1 + 2 + 3 − 6 = 0. Job 2 is completable (s1 = 2 ≥ w2 = 2), job 3
// is not (s1 = 2 < 3); Alg. 2 picks job 1 (least w). Serving job 3 for 1
// (and the virtual PS for 1, eq. 7–9) takes 1 from the slacks of the jobs
// ahead of it: s1 = s2 = 1.
func TestSlackSystemByHand(t *testing.T) {
	x, err := NewSlackSystem(SlackConfig{}, 4)
	if err != nil {
		t.Fatal(err)
	}
	for k, e := range []float64{1, 2, 3} {
		if err := x.AddJob(k, e, 1); err != nil {
			t.Fatal(err)
		}
		if err := x.SetRunnable(k, true); err != nil {
			t.Fatal(err)
		}
	}
	want := func(s ...float64) {
		t.Helper()
		for k, v := range s {
			if got := x.Slack(k); math.Abs(got-v) > 1e-12 {
				t.Errorf("slack of job %d: %v, want %v", k, got, v)
			}
		}
	}
	want(2, 2, 0)
	if !x.Completable(1) || x.Completable(2) || !x.Completable(0) {
		t.Errorf("completable: %v %v %v, want true true false", x.Completable(0), x.Completable(1), x.Completable(2))
	}
	if j, why := x.Next(); j != 0 || why != PickCompletable {
		t.Errorf("next %d (%v), want 0 (completable)", j, why)
	}
	if err := x.Serve(2, 1); err != nil {
		t.Fatal(err)
	}
	if err := x.AdvanceVirtual(1); err != nil {
		t.Fatal(err)
	}
	want(1, 1, 0)
	// Re-estimating job 3 down to w = 0.5 (Δ = −1.5: v = 8/3 − 1.5 = 7/6)
	// moves it ahead of job 2 (v = 5/3). Job 1 is ahead of both places:
	// s1 = 1. Eq. 16 for job 2: s2 = 1 + (7/6 − 5/3 − 0.5) = 0. Eq. 6 for
	// job 3: s3 = 2/3 + 2·7/6 − (1 + 0.5) = 1.5.
	if err := x.Reestimate(2, 0.5); err != nil {
		t.Fatal(err)
	}
	want(1, 0, 1.5)
	if j, why := x.Next(); j != 2 || why != PickCompletable {
		t.Errorf("next %d (%v), want 2 (completable, least w)", j, why)
	}
	// A zero-estimate arrival leaves the virtual PS at once: late, first.
	late := -1
	x.OnLate = func(j int) { late = j }
	if err := x.AddJob(3, 0, 1); err != nil {
		t.Fatal(err)
	}
	if late != 3 || !x.IsLate(3) || x.Len() != 3 {
		t.Errorf("zero-estimate job: late %d, IsLate %v, %d in the virtual PS", late, x.IsLate(3), x.Len())
	}
	if err := x.SetRunnable(3, true); err != nil {
		t.Fatal(err)
	}
	if j, why := x.Next(); j != 3 || why != PickLate {
		t.Errorf("next %d (%v), want 3 (late)", j, why)
	}
}

// Alg. 3 by hand: FAIR_LIMIT 2; a job is in its fair phase until it has
// scheduled 2 tasks of its current stage; map progress 0.95 moves it to
// the reduce stage, where it starts a fair phase again; among fair-phase
// jobs the one with the fewest tasks scheduled goes first.
func TestSlackSystemFairPhase(t *testing.T) {
	x, err := NewSlackSystem(SlackConfig{FairLimit: 2}, 2)
	if err != nil {
		t.Fatal(err)
	}
	for k, e := range []float64{10, 1} {
		if err := x.AddJob(k, e, 2); err != nil {
			t.Fatal(err)
		}
		if err := x.SetRunnable(k, true); err != nil {
			t.Fatal(err)
		}
	}
	next := func(j int, why PickReason) {
		t.Helper()
		if gj, gw := x.Next(); gj != j || gw != why {
			t.Errorf("next %d (%v), want %d (%v)", gj, gw, j, why)
		}
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	next(0, PickFair) // both have 0 scheduled: the earlier
	must(x.TaskScheduled(0, 0))
	next(1, PickFair) // 1 has fewer
	must(x.TaskScheduled(1, 0))
	must(x.TaskScheduled(1, 0))
	if x.InFairPhase(1) {
		t.Error("job 1 in its fair phase after 2 map tasks")
	}
	next(0, PickFair)
	must(x.TaskScheduled(0, 0))
	next(1, PickCompletable) // no fair-phase job left: least w
	must(x.SetStageProgress(0, 0, 0.94))
	if x.Stage(0) != 0 || x.InFairPhase(0) {
		t.Errorf("map progress 0.94: stage %d, fair %v", x.Stage(0), x.InFairPhase(0))
	}
	must(x.SetStageProgress(0, 0, 0.95))
	if x.Stage(0) != 1 || !x.InFairPhase(0) {
		t.Errorf("map progress 0.95: stage %d, fair %v; want the reduce stage's fair phase", x.Stage(0), x.InFairPhase(0))
	}
	next(0, PickFair)
	must(x.SetRunnable(0, false))
	next(1, PickCompletable)
	must(x.Finish(1))
	next(-1, PickNone)
}

func TestSlackSystemBadInput(t *testing.T) {
	if _, err := NewSlackSystem(SlackConfig{FairLimit: -1}, 1); err == nil {
		t.Error("negative fair limit accepted")
	}
	if _, err := NewSlackSystem(SlackConfig{StageThreshold: 1.5}, 1); err == nil {
		t.Error("stage threshold 1.5 accepted")
	}
	x, err := NewSlackSystem(SlackConfig{}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if err := x.AddJob(0, 1, 2); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{x.AddJob(0, 1, 1), "job 0 added twice"},
		{x.AddJob(2, 1, 1), "job 2 is not in 0..1"},
		{x.AddJob(1, math.NaN(), 1), "estimate NaN"},
		{x.AddJob(1, math.Inf(1), 1), "estimate +Inf"},
		{x.AddJob(1, 1, 0), "0 stages"},
		{x.Serve(1, 1), "job 1 has not been added"},
		{x.Serve(0, -1), "work -1"},
		{x.Reestimate(0, math.NaN()), "remaining time NaN"},
		{x.AdvanceVirtual(math.Inf(1)), "work +Inf"},
		{x.TaskScheduled(0, 2), "stage 2 is not in 0..1"},
		{x.SetStageProgress(0, 0, 2), "progress 2 is not in [0, 1]"},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("error %v, want %q", tc.err, tc.want)
		}
	}
	if err := x.Finish(0); err != nil {
		t.Fatal(err)
	}
	if err := x.Finish(0); err == nil || !strings.Contains(err.Error(), "finished twice") {
		t.Errorf("double finish: %v", err)
	}
	if err := x.Serve(0, 1); err == nil || !strings.Contains(err.Error(), "has finished") {
		t.Errorf("serving a finished job: %v", err)
	}
}

// N equal jobs of size e submitted together (seed 002 Fig. 2): s_i =
// (N−i)·e, so every job is completable, the last one exactly (the job
// before it has s = e = its w). With one job runnable, Next must pick it
// as completable, wherever it sits in the treap.
func TestSlackSystemEqualJobsTie(t *testing.T) {
	for _, n := range []int{1, 2, 3, 7, 64, 300} {
		x, err := NewSlackSystem(SlackConfig{}, n)
		if err != nil {
			t.Fatal(err)
		}
		for k := 0; k < n; k++ {
			if err := x.AddJob(k, 3, 2); err != nil {
				t.Fatal(err)
			}
		}
		for k := 0; k < n; k++ {
			if got := x.Slack(k); got != float64(n-1-k)*3 {
				t.Fatalf("%d jobs: slack of job %d %v, want %v", n, k, got, float64(n-1-k)*3)
			}
			if err := x.SetRunnable(k, true); err != nil {
				t.Fatal(err)
			}
			if j, why := x.Next(); j != k || why != PickCompletable {
				t.Errorf("%d jobs, only job %d runnable: next %d (%v)", n, k, j, why)
			}
			if err := x.SetRunnable(k, false); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// Late jobs are served by least estimated remaining time, not in the order
// they became late (issue 14): a large job that went late first must not
// hold the cluster while small late jobs wait behind it (the pile-up that
// made H-PFSP degrade to FIFO on one Fig. 5 workload in six). Three jobs
// (estimates 1, 2, 3), never served, leave the virtual PS in that order as
// it runs 6 of work; re-estimated while late, the first becomes the
// largest. Before the fix Next returned job 0 (the first to go late).
func TestSlackSystemLateByRemaining(t *testing.T) {
	x, err := NewSlackSystem(SlackConfig{}, 3)
	if err != nil {
		t.Fatal(err)
	}
	var order []int
	x.OnLate = func(j int) { order = append(order, j) }
	for k, e := range []float64{1, 2, 3} {
		if err := x.AddJob(k, e, 1); err != nil {
			t.Fatal(err)
		}
		if err := x.SetRunnable(k, true); err != nil {
			t.Fatal(err)
		}
	}
	// No service at all: the virtual PS runs them out (work 6).
	if err := x.AdvanceVirtual(6); err != nil {
		t.Fatal(err)
	}
	if len(order) != 3 || order[0] != 0 || order[1] != 1 || order[2] != 2 {
		t.Fatalf("late order %v, want [0 1 2]", order)
	}
	// Job 0 turns out large (its first estimate was a default), job 2 is
	// almost done.
	for k, w := range []float64{50, 2, 0.5} {
		if err := x.Reestimate(k, w); err != nil {
			t.Fatal(err)
		}
	}
	next := func(want int) {
		t.Helper()
		if j, why := x.Next(); j != want || why != PickLate {
			t.Errorf("next %d (%v), want %d (late, least remaining)", j, why, want)
		}
	}
	next(2)
	// Served, job 2 finishes; job 1 is next, then job 0 (served down to
	// below job 1's w it would go first again).
	if err := x.Finish(2); err != nil {
		t.Fatal(err)
	}
	next(1)
	if err := x.Serve(0, 49); err != nil {
		t.Fatal(err)
	}
	next(0)
	if err := x.SetRunnable(0, false); err != nil {
		t.Fatal(err)
	}
	next(1)
}

// Alg. 2 as printed, by hand, and each addition. Jobs of sizes 1, 2, 3
// (slacks 2, 2, 0): with jobs 1 and 2 not runnable, job 3 (w = 3 > s1 =
// 2) is not completable, so Alg. 2 assigns nobody; Fallback gives it the
// container (the first runnable job of the virtual PS). Then job 1 goes
// late and is re-estimated to 10: a late job competes by w, so the
// completable job 2 (w = 2) goes first; LateFirst serves the late job.
// Before issue 28 Next always used both additions.
func TestSlackSystemAlgorithm2AsPrinted(t *testing.T) {
	for _, c := range []struct {
		cfg             SlackConfig
		idle, late      int
		idleWhy, lateWh PickReason
	}{
		{SlackConfig{}, -1, 1, PickNone, PickCompletable},
		{SlackConfig{Fallback: true}, 2, 1, PickPSOrder, PickCompletable},
		{SlackConfig{LateFirst: true}, -1, 0, PickNone, PickLate},
		{SlackConfig{LateFirst: true, Fallback: true}, 2, 0, PickPSOrder, PickLate},
	} {
		x, err := NewSlackSystem(c.cfg, 3)
		if err != nil {
			t.Fatal(err)
		}
		for k, e := range []float64{1, 2, 3} {
			if err := x.AddJob(k, e, 1); err != nil {
				t.Fatal(err)
			}
		}
		if err := x.SetRunnable(2, true); err != nil {
			t.Fatal(err)
		}
		if j, why := x.Next(); j != c.idle || why != c.idleWhy {
			t.Errorf("%+v, only job 2 runnable: next %d (%v), want %d (%v)", c.cfg, j, why, c.idle, c.idleWhy)
		}
		// The virtual PS runs 3 of work: job 0 (v = 1) leaves it, late.
		if err := x.AdvanceVirtual(3); err != nil {
			t.Fatal(err)
		}
		if !x.IsLate(0) {
			t.Fatalf("%+v: job 0 not late after the virtual PS ran it out", c.cfg)
		}
		if err := x.Reestimate(0, 10); err != nil {
			t.Fatal(err)
		}
		for k := range 3 {
			if err := x.SetRunnable(k, true); err != nil {
				t.Fatal(err)
			}
		}
		if j, why := x.Next(); j != c.late || why != c.lateWh {
			t.Errorf("%+v, late job 0 (w 10) beside job 1 (w 2): next %d (%v), want %d (%v)", c.cfg, j, why, c.late, c.lateWh)
		}
	}
}

// TestSlackJobCompact guards the slack system's per-job state, one per job
// of a run's window (286,000 in validate's task level at 1 M jobs): 64 B,
// and no allocation per arriving job (its stages live in two shared
// arrays, not two slices of its own).
func TestSlackJobCompact(t *testing.T) {
	if got := unsafe.Sizeof(slkJob{}); got > 64 {
		t.Errorf("slkJob is %d B, want at most 64", got)
	}
	const n = 10000
	var x SlackSystem
	allocs := testing.AllocsPerRun(3, func() {
		if err := x.Reset(SlackConfig{}, n); err != nil {
			t.Fatal(err)
		}
		for j := range n {
			if err := x.AddJob(j, float64(1+j%13), 1+j%3); err != nil {
				t.Fatal(err)
			}
		}
	})
	if allocs > n/100 {
		t.Errorf("adding %d jobs made %.0f allocations, want at most %d", n, allocs, n/100)
	}
}
