package coshh

// The decision logic of seed 003's COSHH scheduler (Rasooli and Down,
// "COSHH: A Classification and Optimization based Scheduler for
// Heterogeneous Hadoop Systems"): the queuing process (Alg. 1) that puts a
// new job in a class of each classification, re-classifying when it fits
// none, and the routing process (Alg. 2) that chooses a job for a free
// container of a machine type — first by minimum share among the classes
// the LP suggests for the type (SC_t, primary classification), then by
// fairness among SC'_t (secondary classification). It is pure bookkeeping:
// the task-level core drives it with arrivals, waiting changes, task starts
// and ends, and asks Pick for a job; the classification and the LP live
// outside (packages classify and lp), behind COSHHPlan and the Replan
// callback, so this file imports nothing of schedplan's.
//
// Cost (U users, T machine types, K classes, n jobs): Arrive O(K·d) for
// the nearest centre; Waiting O(T log U); Started and Ended O(T log U) (a
// user's share moves in the per-type heaps that hold it); Pick O(log U +
// |SC_t|) amortised (the user at the top of a heap, then the earliest
// waiting job among that user's queues of the suggested classes); a
// re-classification O(n·K·d + n·T) to re-queue every job.

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// COSHHUser is a user as COSHH's routing sees it (seed 003 §2.1).
type COSHHUser struct {
	MinShare float64 // containers the user is guaranteed (≥ 0)
	Weight   float64 // from the user's priority (> 0)
}

// COSHHClasses is one classification as the router needs it: the class
// centres (in the space of the jobs' feature vectors given to Arrive), each
// class's radius there, and the LP's suggested classes per machine type.
type COSHHClasses struct {
	// Centres[c] is class c's centre.
	Centres [][]float64
	// Radius[c] is how far from its centre a job still fits class c (the
	// largest distance of a job of the class: classify.Class.Radius); nil
	// means 0 for every class.
	Radius []float64
	// Suggested[t] is SC_t: the classes the LP gives a share of machine
	// type t (δ_ct > ε). nil (a classification without an LP) suggests
	// nothing.
	Suggested [][]int
	// Runs[c][t] says whether class c can run on type t (μ_ct > 0); the
	// fallback only hands a type jobs of classes that can run there. nil:
	// every class runs everywhere.
	Runs [][]bool
}

// COSHHPlan is what the queuing process hands the routing process (seed
// 003 Alg. 1's last line): both classifications and their suggested sets.
// Primary classifies the jobs of users with a min share (it may have no
// classes); Secondary classifies every job and needs at least one class.
type COSHHPlan struct {
	Primary, Secondary COSHHClasses
}

// COSHHReplan re-classifies the jobs seen so far and re-solves the LP (seed
// 003 Alg. 1, "else" branch) after job did not fit any class. It returns
// the new plan, or nil to keep the current one (for example to limit how
// often the LP is solved). The router re-queues every job of the run under
// the new plan, by nearest centre.
type COSHHReplan func(job int) (*COSHHPlan, error)

// DefaultCOSHHTolerance is the default of COSHHConfig.Tolerance.
const DefaultCOSHHTolerance = 0.5

// COSHHConfig configures a COSHHRouter.
type COSHHConfig struct {
	Users []COSHHUser
	// Machines[t] is the number of machines of type t; machine indices run
	// type by type (type 0's machines first), as the task core numbers
	// nodes.
	Machines []int
	Plan     *COSHHPlan
	// Tolerance τ decides when a new job fits its nearest class c in Alg.
	// 1: distance ≤ (1 + τ)·Radius[c] + τ (in the units of the feature
	// vectors, z-scores for classify's scaling). 0 means
	// DefaultCOSHHTolerance; +Inf never re-classifies.
	Tolerance float64
	// Replan, when set, is called when a job fits no class (see
	// COSHHReplan); nil never re-classifies.
	Replan COSHHReplan
	// TimeDecisions measures the wall-clock time of every Arrive and Pick
	// in Overhead (two clock reads each); re-plans are always timed.
	TimeDecisions bool
}

// COSHHStage says which stage of Alg. 2 chose a job.
type COSHHStage int8

// Stages of Alg. 2.
const (
	COSHHNone     COSHHStage = iota // no job waits that the type can run
	COSHHMinShare                   // stage 1: a user below her min share, class in SC_t
	COSHHFair                       // stage 2: the least share/weight, class in SC'_t
	COSHHFallback                   // no job of SC'_t waits: the least share/weight among all
)

func (s COSHHStage) String() string {
	return [...]string{"none", "min-share", "fair", "fallback"}[s]
}

// COSHHOverhead is the scheduler overhead of seed 003 §5.1 (item 5).
type COSHHOverhead struct {
	Arrivals int // Alg. 1 runs
	Picks    int // Alg. 2 decisions (one per free container asked)
	// ByStage counts the picks by the stage that decided (COSHHNone: no
	// job).
	ByStage [4]int
	// Replans counts re-classifications (the Replan callback returned a
	// plan); ReplanCalls counts calls, kept or not.
	Replans, ReplanCalls int
	// Wall-clock time in Alg. 1 (without the re-plans), in Alg. 2, and in
	// the Replan callback (classification and LP). Arrive and Pick are
	// only timed with COSHHConfig.TimeDecisions.
	ArriveTime, PickTime, ReplanTime time.Duration
}

// The three user heaps per machine type.
const (
	coshhMinShare = iota // users with a waiting job of a primary class in SC_t; key −(min_share − share)·weight
	coshhFair            // users with a waiting job of a secondary class in SC'_t; key share/weight
	coshhAny             // users with a waiting job of a class that runs on t; key share/weight
	coshhKinds
)

type coshhJob struct {
	user    int32
	class   [2]int32 // primary (−1: none), secondary
	seq     int64
	x       [2][]float64
	known   bool // arrived and not done
	waiting bool
	queued  [2]bool // physically in its class queue (removal is lazy)
}

// COSHHRouter is COSHH's queuing and routing state. It is not safe for
// concurrent use.
type COSHHRouter struct {
	users []COSHHUser
	types int
	tol   float64
	cfg   COSHHConfig

	plan       COSHHPlan
	k          [2]int
	typesOf    [2][][]int32 // [classification][class]: types whose SC holds the class
	runsOn     [][]int32    // secondary class: types it can run on
	runnable   [][]int      // type: secondary classes that can run on it
	share      []float64
	key        [2][]float64 // min-share key, fairness key
	jobs       []coshhJob
	seq        int64
	queues     [2][]coshhSeqHeap // [classification][user·k + class]
	count      [coshhKinds][]int32
	heaps      [coshhKinds][]coshhUserHeap
	overhead   COSHHOverhead
	replanning bool
}

// NewCOSHHRouter returns a router for the users, machine types and plan of
// cfg.
func NewCOSHHRouter(cfg COSHHConfig) (*COSHHRouter, error) {
	if len(cfg.Machines) == 0 {
		return nil, errors.New("coshh: no machine types")
	}
	for t, m := range cfg.Machines {
		if m < 0 {
			return nil, fmt.Errorf("coshh: machine type %d: %d machines", t, m)
		}
	}
	for u, us := range cfg.Users {
		if !(us.MinShare >= 0) || math.IsInf(us.MinShare, 0) || !(us.Weight > 0) || math.IsInf(us.Weight, 0) {
			return nil, fmt.Errorf("coshh: user %d: min share %v and weight %v must be finite, ≥ 0 and > 0", u, us.MinShare, us.Weight)
		}
	}
	tol := cfg.Tolerance
	if tol == 0 {
		tol = DefaultCOSHHTolerance
	}
	if !(tol >= 0) {
		return nil, fmt.Errorf("coshh: tolerance %v must be ≥ 0", cfg.Tolerance)
	}
	r := &COSHHRouter{users: cfg.Users, types: len(cfg.Machines), tol: tol, cfg: cfg}
	nu := len(cfg.Users)
	r.share = make([]float64, nu)
	r.key[0], r.key[1] = make([]float64, nu), make([]float64, nu)
	for u := range cfg.Users {
		r.setKeys(int32(u))
	}
	for k := range r.count {
		r.count[k] = make([]int32, nu*r.types)
		r.heaps[k] = make([]coshhUserHeap, r.types)
	}
	if cfg.Plan == nil {
		return nil, errors.New("coshh: no plan")
	}
	if err := r.SetPlan(cfg.Plan); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *COSHHRouter) setKeys(u int32) {
	us := r.users[u]
	r.key[0][u] = -(us.MinShare - r.share[u]) * us.Weight
	r.key[1][u] = r.share[u] / us.Weight
}

func checkClasses(name string, c *COSHHClasses, types int, need bool) error {
	k := len(c.Centres)
	if need && k == 0 {
		return fmt.Errorf("coshh: the %s classification has no classes", name)
	}
	for i, v := range c.Centres {
		if len(v) != len(c.Centres[0]) {
			return fmt.Errorf("coshh: %s class %d: centre of %d values, class 0 has %d", name, i, len(v), len(c.Centres[0]))
		}
		for _, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("coshh: %s class %d: centre %v is not finite", name, i, v)
			}
		}
	}
	if c.Radius != nil && len(c.Radius) != k {
		return fmt.Errorf("coshh: %s: %d radii for %d classes", name, len(c.Radius), k)
	}
	for i, v := range c.Radius {
		if !(v >= 0) || math.IsInf(v, 0) {
			return fmt.Errorf("coshh: %s class %d: radius %v", name, i, v)
		}
	}
	if c.Suggested != nil && len(c.Suggested) != types {
		return fmt.Errorf("coshh: %s: suggested sets for %d machine types, the cluster has %d", name, len(c.Suggested), types)
	}
	for t, sc := range c.Suggested {
		for _, i := range sc {
			if i < 0 || i >= k {
				return fmt.Errorf("coshh: %s: machine type %d suggests class %d of %d", name, t, i, k)
			}
		}
	}
	if c.Runs != nil {
		if len(c.Runs) != k {
			return fmt.Errorf("coshh: %s: runs for %d classes, want %d", name, len(c.Runs), k)
		}
		for i, row := range c.Runs {
			if len(row) != types {
				return fmt.Errorf("coshh: %s class %d: runs on %d types, want %d", name, i, len(row), types)
			}
		}
	}
	return nil
}

// SetPlan installs a new plan and re-queues every job of the run by
// nearest centre (without the tolerance test).
func (r *COSHHRouter) SetPlan(p *COSHHPlan) error {
	if err := checkClasses("primary", &p.Primary, r.types, false); err != nil {
		return err
	}
	if err := checkClasses("secondary", &p.Secondary, r.types, true); err != nil {
		return err
	}
	r.plan = *p
	nu := len(r.users)
	for s, cl := range []*COSHHClasses{&p.Primary, &p.Secondary} {
		r.k[s] = len(cl.Centres)
		r.typesOf[s] = make([][]int32, r.k[s])
		for t, sc := range cl.Suggested {
			for _, c := range sc {
				r.typesOf[s][c] = append(r.typesOf[s][c], int32(t))
			}
		}
		r.queues[s] = make([]coshhSeqHeap, nu*r.k[s])
	}
	k2 := r.k[1]
	r.runsOn = make([][]int32, k2)
	r.runnable = make([][]int, r.types)
	for c := 0; c < k2; c++ {
		for t := 0; t < r.types; t++ {
			if p.Secondary.Runs == nil || p.Secondary.Runs[c][t] {
				r.runsOn[c] = append(r.runsOn[c], int32(t))
				r.runnable[t] = append(r.runnable[t], c)
			}
		}
	}
	for k := range r.count {
		clear(r.count[k])
		for t := range r.heaps[k] {
			r.heaps[k][t].init(nu, r.key[min(k, 1)])
		}
	}
	for j := range r.jobs {
		jb := &r.jobs[j]
		if !jb.known {
			continue
		}
		jb.queued = [2]bool{}
		jb.class[0], jb.class[1] = r.nearestClasses(jb)
		if jb.waiting {
			r.enter(int32(j))
		}
	}
	return nil
}

// nearestClasses returns a job's nearest class in each classification (−1
// for the primary when the user has no min share or there are no primary
// classes), and whether each fits within the tolerance.
func (r *COSHHRouter) nearestClasses(jb *coshhJob) (c1, c2 int32) {
	c1 = -1
	if r.users[jb.user].MinShare > 0 && r.k[0] > 0 && len(jb.x[0]) == len(r.plan.Primary.Centres[0]) {
		c1, _ = NearestCentre(r.plan.Primary.Centres, jb.x[0])
	}
	c2, _ = NearestCentre(r.plan.Secondary.Centres, jb.x[1])
	return c1, c2
}

// NearestCentre returns the index of the centre nearest x (Euclidean; the
// first on a tie; 0 without centres) and the distance.
func NearestCentre(centres [][]float64, x []float64) (int32, float64) {
	best, bestD := int32(0), math.Inf(1)
	for c, m := range centres {
		d := 0.0
		for i, v := range m {
			e := x[i] - v
			d += e * e
		}
		if d < bestD {
			best, bestD = int32(c), d
		}
	}
	return best, math.Sqrt(bestD)
}

func (r *COSHHRouter) fits(cl *COSHHClasses, c int32, d float64) bool {
	rad := 0.0
	if cl.Radius != nil {
		rad = cl.Radius[c]
	}
	return d <= (1+r.tol)*rad+r.tol
}

// Arrive runs the queuing process (Alg. 1) for a new job of user: x1 is its
// feature vector in the primary classification's space (ignored, and may
// be nil, when the user has no min share or there is no primary
// classification), x2 in the secondary's. The job joins the nearest class
// of each; when it is farther than the tolerance from that class, Replan
// (if set) re-classifies and re-solves, and the job joins its nearest class
// of the new plan. The job does not wait for a container until Waiting
// says so. job numbers are the caller's (0, 1, …; any order).
func (r *COSHHRouter) Arrive(job, user int, x1, x2 []float64) error {
	var t0 time.Time
	if r.cfg.TimeDecisions {
		t0 = time.Now()
	}
	if job < 0 || job > math.MaxInt32 || user < 0 || user >= len(r.users) {
		return fmt.Errorf("coshh: job %d of user %d: out of range (%d users)", job, user, len(r.users))
	}
	for job >= len(r.jobs) {
		r.jobs = append(r.jobs, coshhJob{})
	}
	jb := &r.jobs[job]
	if jb.known {
		return fmt.Errorf("coshh: job %d arrived twice", job)
	}
	shared := r.users[user].MinShare > 0
	primary := shared && r.k[0] > 0
	if primary && len(x1) != len(r.plan.Primary.Centres[0]) {
		return fmt.Errorf("coshh: job %d: %d primary features, the classes have %d", job, len(x1), len(r.plan.Primary.Centres[0]))
	}
	if len(x2) != len(r.plan.Secondary.Centres[0]) {
		return fmt.Errorf("coshh: job %d: %d secondary features, the classes have %d", job, len(x2), len(r.plan.Secondary.Centres[0]))
	}
	for _, x := range [][]float64{x1, x2} {
		for _, v := range x {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("coshh: job %d: feature vector %v is not finite", job, x)
			}
		}
	}
	r.seq++
	*jb = coshhJob{user: int32(user), seq: r.seq, known: true,
		x: [2][]float64{append(jb.x[0][:0], x1...), append(jb.x[1][:0], x2...)}}
	if !shared {
		jb.x[0] = jb.x[0][:0] // kept for users with a min share, for later plans
	}
	fit := true
	jb.class[0] = -1
	if primary {
		c, d := NearestCentre(r.plan.Primary.Centres, jb.x[0])
		jb.class[0] = c
		fit = r.fits(&r.plan.Primary, c, d)
	}
	c, d := NearestCentre(r.plan.Secondary.Centres, jb.x[1])
	jb.class[1] = c
	fit = fit && r.fits(&r.plan.Secondary, c, d)
	r.overhead.Arrivals++
	if r.cfg.TimeDecisions {
		r.overhead.ArriveTime += time.Since(t0)
	}
	if fit || r.cfg.Replan == nil || r.replanning {
		return nil
	}
	r.replanning = true
	defer func() { r.replanning = false }()
	t1 := time.Now()
	p, err := r.cfg.Replan(job)
	r.overhead.ReplanCalls++
	if err == nil && p != nil {
		err = r.SetPlan(p)
		r.overhead.Replans++
	}
	r.overhead.ReplanTime += time.Since(t1)
	if err != nil {
		return fmt.Errorf("coshh: re-classification after job %d: %w", job, err)
	}
	return nil
}

// Class returns job's class in each classification (−1: none).
func (r *COSHHRouter) Class(job int) (primary, secondary int) {
	jb := &r.jobs[job]
	return int(jb.class[0]), int(jb.class[1])
}

// Fits reports whether job (arrived, not done) fits its nearest class of
// each classification within the tolerance (Alg. 1's test); a
// classification the job is not classified in (no primary class) fits.
// A Replan callback asks it to learn which classification the job broke.
func (r *COSHHRouter) Fits(job int) (primary, secondary bool) {
	jb := &r.jobs[job]
	primary = true
	if c := jb.class[0]; c >= 0 && r.k[0] > 0 {
		_, d := NearestCentre(r.plan.Primary.Centres, jb.x[0])
		primary = r.fits(&r.plan.Primary, c, d)
	}
	_, d := NearestCentre(r.plan.Secondary.Centres, jb.x[1])
	return primary, r.fits(&r.plan.Secondary, jb.class[1], d)
}

// Waiting says whether job has a task waiting for a container (a ready
// task): only waiting jobs are picked. The task core calls it when the
// job's ready tasks go from none to some and back.
func (r *COSHHRouter) Waiting(job int, waiting bool) {
	jb := &r.jobs[job]
	if !jb.known || jb.waiting == waiting {
		return
	}
	jb.waiting = waiting
	if waiting {
		r.enter(int32(job))
	} else {
		r.leave(int32(job))
	}
}

// Done forgets job (it completed).
func (r *COSHHRouter) Done(job int) {
	r.Waiting(job, false)
	r.jobs[job].known = false
}

func (r *COSHHRouter) enter(j int32) {
	jb := &r.jobs[j]
	u := jb.user
	if c := jb.class[0]; c >= 0 {
		if !jb.queued[0] {
			r.queues[0][int(u)*r.k[0]+int(c)].push(coshhSeqEntry{jb.seq, j})
			jb.queued[0] = true
		}
		r.countUp(coshhMinShare, u, r.typesOf[0][c])
	}
	c := jb.class[1]
	if !jb.queued[1] {
		r.queues[1][int(u)*r.k[1]+int(c)].push(coshhSeqEntry{jb.seq, j})
		jb.queued[1] = true
	}
	r.countUp(coshhFair, u, r.typesOf[1][c])
	r.countUp(coshhAny, u, r.runsOn[c])
}

func (r *COSHHRouter) leave(j int32) {
	jb := &r.jobs[j]
	u := jb.user
	if c := jb.class[0]; c >= 0 {
		r.countDown(coshhMinShare, u, r.typesOf[0][c])
	}
	c := jb.class[1]
	r.countDown(coshhFair, u, r.typesOf[1][c])
	r.countDown(coshhAny, u, r.runsOn[c])
}

func (r *COSHHRouter) countUp(kind int, u int32, types []int32) {
	cnt := r.count[kind][int(u)*r.types:]
	for _, t := range types {
		cnt[t]++
		if cnt[t] == 1 {
			r.heaps[kind][t].push(u)
		}
	}
}

func (r *COSHHRouter) countDown(kind int, u int32, types []int32) {
	cnt := r.count[kind][int(u)*r.types:]
	for _, t := range types {
		cnt[t]--
		if cnt[t] == 0 {
			r.heaps[kind][t].remove(u)
		}
	}
}

// Started records that job got containers (a task of it started): its
// user's share grows. Ended records that a task released them.
func (r *COSHHRouter) Started(job, containers int) { r.addShare(r.jobs[job].user, float64(containers)) }

// Ended records that a task of job released its containers.
func (r *COSHHRouter) Ended(job, containers int) { r.addShare(r.jobs[job].user, -float64(containers)) }

func (r *COSHHRouter) addShare(u int32, c float64) {
	r.share[u] += c
	r.setKeys(u)
	for k := range r.heaps {
		for t := range r.heaps[k] {
			r.heaps[k][t].fix(u)
		}
	}
}

// Share returns the containers user holds.
func (r *COSHHRouter) Share(user int) float64 { return r.share[user] }

// Pick runs the routing process (Alg. 2) for one free container of machine
// type t and returns the job to get it and the stage that chose it (job −1
// and COSHHNone when no waiting job can run on t). Stage 1: among users
// below their min share with a waiting job of a primary class in SC_t, the
// one with the largest (min_share − share)·weight. Stage 2: among users
// with a waiting job of a secondary class in SC'_t, the one with the least
// share/weight. Fallback: the same among users with any waiting job of a
// class that can run on t. Within the chosen user, her earliest-arrived
// job of those classes. Pick changes nothing but its overhead counters:
// the core reports the task it starts (Started) and the job's waiting
// state.
func (r *COSHHRouter) Pick(t int) (job int, stage COSHHStage) {
	var t0 time.Time
	if r.cfg.TimeDecisions {
		t0 = time.Now()
	}
	job, stage = r.pick(t)
	r.overhead.Picks++
	r.overhead.ByStage[stage]++
	if r.cfg.TimeDecisions {
		r.overhead.PickTime += time.Since(t0)
	}
	return job, stage
}

func (r *COSHHRouter) pick(t int) (int, COSHHStage) {
	if h := &r.heaps[coshhMinShare][t]; len(h.e) > 0 {
		if u := h.e[0]; r.key[0][u] < 0 { // min_share − share > 0
			return r.earliest(0, u, r.plan.Primary.Suggested[t]), COSHHMinShare
		}
	}
	if h := &r.heaps[coshhFair][t]; len(h.e) > 0 {
		return r.earliest(1, h.e[0], r.plan.Secondary.Suggested[t]), COSHHFair
	}
	if h := &r.heaps[coshhAny][t]; len(h.e) > 0 {
		return r.earliest(1, h.e[0], r.runnable[t]), COSHHFallback
	}
	return -1, COSHHNone
}

// earliest returns user u's earliest-arrived waiting job among the classes
// of classification s; the counts guarantee there is one.
func (r *COSHHRouter) earliest(s int, u int32, classes []int) int {
	best, bestSeq := int32(-1), int64(math.MaxInt64)
	base := int(u) * r.k[s]
	for _, c := range classes {
		q := &r.queues[s][base+c]
		for len(*q) > 0 {
			top := (*q)[0]
			jb := &r.jobs[top.job]
			if jb.waiting && jb.known && jb.seq == top.seq {
				if top.seq < bestSeq {
					best, bestSeq = top.job, top.seq
				}
				break
			}
			q.pop() // stopped waiting (or done): drop it lazily
			if jb.seq == top.seq {
				jb.queued[s] = false
			}
		}
	}
	return int(best)
}

// Overhead returns the scheduler overhead so far.
func (r *COSHHRouter) Overhead() COSHHOverhead { return r.overhead }

// Plan returns the plan in force.
func (r *COSHHRouter) Plan() *COSHHPlan { p := r.plan; return &p }
