package sim

import "math"

// PFSP is the parallel PFSP of seed 002 without the fair phase, fluid form:
// the whole cluster is one processor of the given capacity. A virtual PS
// runs over the estimated sizes (as in FSP). Over the jobs in the virtual
// PS, in order of virtual remaining work v (ties: earlier arrival), with
// w the estimated remaining real work (estimate − attained, not below 0; 0
// for a job finished for real), the slack of job i is (eq. 6)
//
//	s_i = Σ_{j<i} v_j + (m−i+1)·v_i − Σ_{j≤i} w_j
//
// (work units; m jobs in the virtual PS). A running job c is completable
// when every running job i ahead of it has s_i ≥ w_c (Alg. 4); the server
// gives all capacity to the completable job with the least w (ties: ahead
// in the virtual PS). The first running job of the virtual PS is always
// completable, so there is always a choice. A job whose estimate is used
// up (w = 0, still running) is completable only while the jobs ahead have
// slack left (serving it eats their slack). With exact sizes the slacks
// stay non-negative and no job finishes later than under PS.
//
// With estimation errors a job can finish in the virtual PS before it
// finishes for real. Seed 002 does not say what happens then; here such a
// job is late, leaves the slack system, and late jobs go first, sharing the
// capacity equally (as FSP+PS).
//
// Complexity: eq. 6 is s_i = Σ_j min(v_j, v_i) − Σ_{j≤i} w_j over the m
// jobs of the virtual PS (those ahead of i have v_j ≤ v_i), so the updates
// are few and regular. The virtual PS's work x lowers every slack by x;
// serving a job whose w > 0 gives x back to the slacks from it on (its w
// falls); an arrival (v = w = its estimate) adds to every job ahead of it
// that job's own v = tag − vt, and nothing to those behind (up to
// rounding); a job leaving the virtual PS takes its v (0) from every slack
// and, if late, its w out of them; a real completion adds the job's last w
// to the slacks behind it. The running (not late) jobs sit in a slackTree
// (pfsptree.go): a treap in virtual order with lazy additions, where the
// own-v addition is a kinetic segment tree's "heaten" (each subtree keeps
// its least slack, the tag of its job as slope, and how many own-v
// additions it takes for another job to go below; additions short of that
// are lazy, others recurse; the additions to every slack, one an event,
// go to an offset instead). Jobs that finished for real but not
// virtually sit in a B+ tree with key sums, sumTree (their count and Σ
// tag ahead of an arrival, whose slack is computed once, at arrival):
// with estimation errors they can be most of the virtual PS, hundreds of
// thousands of jobs, so it is built for few cache misses. Choosing the
// served job is a walk in virtual order carrying the least slack so far:
// it skips a subtree none of whose jobs can be completable and beat the
// best so far (subtrees keep their least positive w and their number of
// jobs with w = 0), takes a subtree whole when none of its slacks is below
// the least so far (every job in it then has that least slack ahead of
// it, and its first job with the least w wins), and enters only the
// subtrees that hold a new least slack and a possible winner.
//
// Two events skip the walk: at a virtual completion of jobs done for
// real the served job stays the choice (no slack moved, see Advance) and
// its fallen w reaches the tree with the next event that reads it; and
// when the first running job has the least w (none 0) it is the choice.
//
// Cost per event: O(log n) expected for the treap updates (one walk down
// per arrival, service or completion); plus the heaten's recursions,
// amortised polylogarithmic by the kinetic segment tree's analysis for
// heaten alone (our constant range additions are not covered by it;
// measured 0.00–0.03 recursions per event); plus the walk:
// O(log n) per running job whose slack is below every slack ahead of it
// and that lies on the walk's way (measured 3–16 tree nodes per choice at
// loads 0.9–1.2 and n up to 1M: one such job, the first, in nearly every
// event). That last term has no proven bound: running jobs whose slacks
// and w both fall along the virtual order make the walk visit them all. It
// is O(log n) per event in practice, overload included. Measured with
// BenchmarkPFSPScale (Weibull(0.5) sizes, σ = 0.5, CPU time per event on a
// shared 2-core machine, median of 3 runs), against the previous scan
// (in brackets; pfspScan in the tests), whose cost grew linearly in n at
// load 1.2:
//
//	µs per event  n = 10k       100k          1M
//	load 0.9      0.23 (0.25)   0.22 (0.29)   0.26 (0.39)
//	load 1.0      0.29 (0.30)   0.34 (0.37)   0.45 (0.63)
//	load 1.2      0.42 (0.45)   0.63 (4.05)   1.18 (> 9 minutes a run)
//
// At load 1.2 the cost still grows slowly with n (log n, and cache misses:
// the running jobs pile up: on average 690 at once at 100k, 6,900 at 1M);
// at 10M jobs, 0.43 µs per event at load 0.9, 0.89 at 1.0 and 2.0 at 1.2
// (one run each; 71 s of CPU for the whole run at 1.2). Those figures
// predate sumTree and the offset; BenchmarkPFSPSigma (1M jobs, CPU ns per
// event, two interleaved runs each on the shared machine) shows them:
//
//	            σ = 0      0.25       0.5        1
//	load 0.9    192–195    223–239    244–292    314–347  (treap: 246–290, 246–270, 336–353, 514–605)
//	load 1.2    1073–1101  1001–1066  989–1054   826–889  (1524–1638, 1473–1625, 1483–1527, 1294–1390)
//
// The walks skipped and the key sums kept by adding (PFSPVersion 3) took
// 29 % off BenchmarkSynthetic1M/pfsp (load 0.9, σ = 0.5) and 19 % off
// BenchmarkPFSPSigma at load 1.2, σ = 0 (CPU per event, five interleaved
// runs each, medians). Constant factors cut since (the trees' loops,
// sumTree's leaf windows and cached least job, no write-only per-job
// flags) change no bit (TestPFSPFSPPinned) and took 5–8 % off
// BenchmarkPFSPFSPWindow's PFSP cases (minima of ten interleaved runs).
//
// Both trees keep their nodes in slot pools: memory in proportion to the
// jobs in them at once, not to n. Results are those of the scan up to
// floating-point rounding (the slacks are summed in another order):
// TestPFSPMatchesScan compares responses job by job on 550 random
// instances (relative differences at most 1e-10; about three in four
// bit-identical).
type PFSP struct {
	loan // the run's estimates, its jobs' facts, the simulator's arrays (borrow)
	jobs []Job
	c    float64
	now  float64
	rem  []float64 // true remaining work; −1 once finished
	tag  []float64 // virtual finish tag
	run  slackTree // running, not-late jobs by (tag, index), with slacks
	done sumTree   // finished for real, still in the virtual PS
	vt   float64

	sumTag, sumEst float64 // over the virtual PS and the running jobs: scale of the slacks

	lateQ keyHeap // late jobs by PS finish tag
	vLate float64

	served  int     // job served alone (−1: none, or late jobs share)
	servedW float64 // its w as the slack tree has it
	ahead   float64 // least slack of the running jobs ahead of served
	nextT   float64
	work    float64 // the work (capacity × time) the server does until nextT
	kind    int     // 0 virtual completion, 1 real completion, 2 late completion, 3 slack ahead used up, 4 estimate used up

	// pend: the served job's w has fallen to curW, which the slack tree
	// does not have yet (flush gives it; see Advance).
	pend bool
	curW float64

	// The state of choose's walk.
	qpm, qbw, qahead, qdelta float64
	qbest                    int32 // a slot of the running-jobs tree
	qsub                     bool  // qbest is the first job of its subtree with w = qbw
}

// PFSPVersion changes when PFSP's results can change, at the rounding
// level included (stages that run it stamp it): 2 sums the key sums of
// the jobs done for real in another order (sumTree) and keeps the slacks
// apart from a running offset; 3 keeps those key sums by adding and
// subtracting, serves the first running job through the offset
// (serveFirst), picks the next event by its work, keeps the served job
// without a walk at a virtual completion of jobs done for real, and takes
// the first job without a walk when it has the least w (firstWins).
const PFSPVersion = 3

func (*PFSP) Name() string { return "pfsp" }

func (p *PFSP) Start(jobs []Job, c float64) {
	n := len(jobs)
	p.jobs, p.c, p.now, p.vt, p.vLate, p.served = jobs, c, 0, 0, 0, -1
	p.pend = false
	p.sumTag, p.sumEst = 0, 0
	p.rem, p.tag = p.sc.floats(0, p.rem, n), p.sc.floats(1, p.tag, n)
	p.run.reset(p.tag)
	p.done.reset(n, p.tag)
	p.lateQ.reset()
	p.plan()
}

func (p *PFSP) borrow(l loan) {
	if l.sc != p.sc {
		p.rem, p.tag = nil, nil // the last lender's (dropArrays)
	}
	p.loan = l
}

func (p *PFSP) w(j int32) float64 {
	if p.rem[j] < 0 {
		return 0
	}
	e := p.est(p.jobs, int(j))
	w := e - (p.jobs[j].Size - p.rem[j])
	// Used up within Tol, or within the rounding of size − rem (a few
	// ulps of the size: after the estimate-used-up event snaps rem to
	// size − e, w can come out as 1e-17 instead of 0 when e ≪ size).
	if w <= Tol*e+0x1p-50*p.jobs[j].Size {
		return 0 // the estimate is used up
	}
	return w
}

func (p *PFSP) Arrive(t float64, j int) {
	p.flush()
	p.rem[j] = p.jobs[j].Size
	est := p.est(p.jobs, int(j))
	p.tag[j] = p.vt + est
	p.sumTag += p.tag[j]
	p.sumEst += est
	// The new job's slack (eq. 6) from the counts and sums of the jobs
	// ahead of it, running and finished.
	jj := int32(j)
	w, v := p.w(jj), p.tag[j]-p.vt
	// Each running job ahead gains its own v (one more job behind it in
	// the virtual PS); each one behind gains v − w (0 up to rounding).
	m := p.run.size() + 1 + p.done.size()
	x, rc, rs, rw := p.run.arrive(jj, w, p.vt, v-w)
	dc, ds := p.done.below(jj)
	vAhead := (rs - float64(rc)*p.vt) + (ds - float64(dc)*p.vt)
	p.run.finish(x, vAhead+float64(m-rc-dc)*v-(rw+w))
	p.plan()
}

// front returns the job at the front of the virtual PS (−1 if empty), its
// tag, and whether it finished for real, from the trees' copies (no
// look-up in the per-job arrays).
func (p *PFSP) front() (int32, float64, bool) {
	r, rt := p.run.first()
	f := p.done.min()
	if f < 0 {
		return r, rt, false
	}
	if ft := p.done.minKey(); r < 0 || ft < rt || (ft == rt && f < r) {
		return f, ft, true
	}
	return r, rt, false
}

// plan chooses the served job and the next event: the one that comes
// after the least work, its time computed once (ties in work: the first
// set).
func (p *PFSP) plan() {
	p.served, p.work, p.kind = -1, math.Inf(1), -1
	p.planEvents()
	p.nextT = math.Inf(1)
	if p.kind >= 0 {
		p.nextT = p.now + perCapacity(p.work, p.c)
	}
}

// planEvents is plan's choice of the served job and of the events.
func (p *PFSP) planEvents() {
	m := p.run.size() + p.done.size()
	if m > 0 {
		_, ft, _ := p.front()
		p.setNext((ft-p.vt)*float64(m), 0)
	}
	if n := p.lateQ.len(); n > 0 {
		p.setNext((p.lateQ.min().key-p.vLate)*float64(n), 2)
		return
	}
	if p.run.size() == 0 {
		return
	}
	// delta is the slack that counts as none for a job whose estimate is
	// used up (a tolerance at the scale of the slacks).
	scale := max(p.sumTag-float64(m)*p.vt+p.sumEst, 0)
	p.qdelta = Tol * scale
	p.run.settle(scale / 8)
	p.qpm, p.qbest, p.qsub, p.qbw, p.qahead = math.Inf(1), -1, false, 0, 0
	if f := p.run.firstS; !pfspWalkAlways && p.firstWins(f) {
		// The first job, always completable, has the least w: choose's
		// walk would end on it.
		p.qbest, p.qbw, p.qahead = f, p.run.nd[f].w, math.Inf(1)
	} else {
		p.choose(p.run.root)
		if p.qsub {
			p.qbest = p.run.firstW(p.qbest, p.qbw)
		}
	}
	best, bestW, bestAhead := p.run.nd[p.qbest].job, p.qbw, p.qahead
	p.served, p.servedW, p.ahead = int(best), bestW, bestAhead
	p.setNext(p.rem[best], 1)
	if bestW > 0 && bestW < p.rem[best] {
		// The estimate runs out first: the slack dynamics change then.
		p.setNext(bestW, 4)
	} else if bestW == 0 && !math.IsInf(bestAhead, 1) {
		// An exhausted estimate: serving it eats the slack of the jobs
		// ahead; re-plan when it is gone.
		p.setNext(max(bestAhead, 0), 3)
	}
}

// firstWins reports whether the first running job (slot f) is the one
// choose picks without a walk: its w is 0, or the least w of all and no
// job has w = 0 (ties go to the first).
func (p *PFSP) firstWins(f int32) bool {
	w, r := p.run.nd[f].w, &p.run.nd[p.run.root]
	return w == 0 || (r.zeros == 0 && w == r.minPosW)
}

// completable reports whether a running job with estimated remaining work
// w is completable when the least slack of the running jobs ahead of it is
// pm (+Inf: none ahead).
func (p *PFSP) completable(w, pm float64) bool {
	if w == 0 && !math.IsInf(pm, 1) {
		return pm > p.qdelta
	}
	return w <= pm+Tol*(w+math.Abs(pm))
}

// choose walks slot x's subtree of the running jobs in virtual order, with
// qpm the least slack of the running jobs before it, and makes qbest the
// completable job with the least w (ties: the first), qbw its w and
// qahead the least slack ahead of it. A subtree is skipped when none of
// its jobs can be completable and beat qbest (completability only falls
// as w grows or the slack ahead falls), and taken whole when no slack in
// it is below qpm: every job in it then has qpm as the least slack ahead,
// and its first job with its least w wins (qsub: qbest is that subtree,
// resolved to the job once the walk is over). Only subtrees with a slack
// below qpm and a possible winner are entered.
func (p *PFSP) choose(x int32) {
	if x < 0 {
		return
	}
	t := &p.run
	n := &t.nd[x]
	pm := p.qpm
	mn := n.mn + t.off
	zero := n.zeros > 0 && (p.qbest < 0 || p.qbw > 0) && p.completable(0, pm)
	wp := n.minPosW
	pos := wp < math.Inf(1) && (p.qbest < 0 || wp < p.qbw) && p.completable(wp, pm)
	if !zero && !pos {
		if mn < pm {
			p.qpm = mn
		}
		return
	}
	if pm <= mn {
		target := wp
		if zero {
			target = 0
		}
		// The first job of x with that w: found at the end, if it stays
		// the best.
		p.qbest, p.qsub, p.qbw, p.qahead = x, true, target, pm
		return
	}
	t.push(x)
	p.choose(n.left)
	pm = p.qpm
	if w := n.w; (p.qbest < 0 || w < p.qbw) && p.completable(w, pm) {
		p.qbest, p.qsub, p.qbw, p.qahead = x, false, w, pm
	}
	if s := n.s + t.off; s < pm {
		p.qpm = s
	}
	p.choose(n.right)
}

// setNext makes the event of the given kind, after the server has done
// work more, the next one if it comes first.
func (p *PFSP) setNext(work float64, kind int) {
	if work < p.work {
		p.work, p.kind = work, kind
	}
}

func (p *PFSP) Next() float64 { return p.nextT }

func (p *PFSP) Advance(t float64, done func(int)) {
	if p.kind < 0 {
		p.now = t
		return
	}
	// At the event the server has done the work planned for it, even if
	// the event's time rounds to now (a clock far from 0, a tiny slack):
	// every event makes progress.
	work := (t - p.now) * p.c
	if t >= p.nextT {
		work = p.work
	}
	if m := p.run.size() + p.done.size(); m > 0 {
		p.vt += work / float64(m)
	}
	// The virtual PS does work more: every slack falls by it.
	p.run.addAll(-work)
	if p.served >= 0 {
		p.rem[p.served] -= work
	} else if n := p.lateQ.len(); n > 0 {
		p.vLate += work / float64(n)
	}
	// A virtual completion of jobs done for real changes no slack (their
	// v is 0) and no w: the choice stays (see below).
	virt := t >= p.nextT && p.kind == 0
	if t >= p.nextT {
		switch p.kind {
		case 0:
			if _, vt, _ := p.front(); vt > p.vt {
				// The snap is work too: m·(its virtual time).
				p.run.addAll(-float64(p.run.size()+p.done.size()) * (vt - p.vt))
				p.vt = vt
			}
		case 1:
			p.rem[p.served] = 0
		case 2:
			p.vLate = max(p.vLate, p.lateQ.min().key)
		case 4:
			j := p.served
			p.rem[j] = min(p.rem[j], p.jobs[j].Size-p.est(p.jobs, int(j)))
		}
	}
	p.now = t
	keep := false // the served job stays, with w > 0
	if s := p.served; s >= 0 {
		// The served job's w fell: the slacks from it on rise by as much
		// (flush, before the slack tree is next read). If it finished,
		// the slacks after it gain the w the tree has for it.
		fin := p.rem[s] <= Tol*p.jobs[s].Size
		if fin {
			// Finished for real: from the running jobs to the treap of
			// jobs still in the virtual PS.
			p.run.removeAdd(int32(s), p.servedW)
			p.pend = false
			p.rem[s] = -1
			p.sumEst -= p.est(p.jobs, int(s))
			p.done.insert(s)
			done(s)
		} else {
			p.curW = p.w(int32(s))
			p.pend = p.curW != p.servedW
			keep = p.curW > 0
		}
	}
	for p.lateQ.len() > 0 {
		e := p.lateQ.min()
		if e.key-p.vLate > Tol*p.jobs[e.j].Size {
			break
		}
		p.lateQ.pop()
		p.rem[e.j] = -1
		p.sumEst -= p.est(p.jobs, int(e.j))
		done(int(e.j))
	}
	if p.lateQ.len() == 0 {
		p.vLate = 0
	}
	for {
		j, tj, fin := p.front()
		if j < 0 {
			break
		}
		// Still ahead by more than Tol of its estimate? Reached (d ≤ 0,
		// as after a virtual completion's snap) or a margin above Tol·tag
		// (the estimate is at most the tag, vt ≥ 0) settles it without
		// the look-up of the estimate.
		if d := tj - p.vt; d > 0 && (d > Tol*tj || d > Tol*p.est(p.jobs, int(j))) {
			break
		}
		// Leaving the virtual PS, j takes its v (about 0) from every
		// slack, and if still running its w out of them.
		v := tj - p.vt
		if !fin {
			// Finished virtually, not really: late.
			p.flush()
			keep = false
			w := p.run.remove(j)
			p.run.addAll(w - v)
			p.lateQ.push(p.vLate+p.rem[j], int(j))
		} else {
			p.done.popMin()
			p.run.addAll(-v)
		}
		p.sumTag -= tj
	}
	if p.run.size()+p.done.size() == 0 {
		p.vt, p.sumTag = 0, 0
	}
	if virt && keep && !pfspWalkAlways {
		// Only jobs done for real left the virtual PS, each taking its
		// v (0, up to Tol) from every slack, and the served job, with w
		// > 0, is still running and not late: between events the slacks
		// ahead of the served job fall as fast as its w (and those of
		// the others ahead of it too), so no other job became
		// completable with a lesser w, and the choice stands. Its w
		// reaches the slack tree with the next event that reads it.
		if pfspCheckKept != nil {
			kept := p.served
			p.flush()
			p.plan()
			pfspCheckKept(kept, p.served)
			return
		}
		p.planServed()
		return
	}
	p.flush()
	p.plan()
}

// pfspWalkAlways, set by tests, turns off PFSP's shortcuts (firstWins,
// the kept choice): every event plans in full, with choose's walk.
var pfspWalkAlways bool

// pfspCheckKept, when set (by tests), makes PFSP plan in full where it
// keeps its choice, and is told the job kept and the job chosen.
var pfspCheckKept func(kept, chosen int)

// flush gives the slack tree the served job's w (curW), which fell since
// the tree last had it (servedW): the slacks from it on rise by as much.
func (p *PFSP) flush() {
	if !p.pend {
		return
	}
	s, w := int32(p.served), p.curW
	if s == p.run.firstJ {
		p.run.serveFirst(w, p.servedW-w)
	} else {
		p.run.serve(s, w, p.servedW-w)
	}
	p.servedW, p.pend = w, false
}

// planServed is plan when the served job stays the choice, its w (curW)
// positive: the next virtual completion, its real completion and the end
// of its estimate.
func (p *PFSP) planServed() {
	p.work, p.kind = math.Inf(1), -1
	if m := p.run.size() + p.done.size(); m > 0 {
		_, ft, _ := p.front()
		p.setNext((ft-p.vt)*float64(m), 0)
	}
	s := p.served
	p.setNext(p.rem[s], 1)
	if w := p.curW; w < p.rem[s] {
		p.setNext(w, 4)
	}
	p.nextT = p.now + perCapacity(p.work, p.c)
}
