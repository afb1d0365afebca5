package task

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// FairQueue is a queue (pool) of the Hadoop Fair Scheduler, as an
// allocation file (fair-scheduler.xml) declares it. Resources are in
// containers.
type FairQueue struct {
	Name string
	// Weight is the queue's share weight (≤ 0 means 1).
	Weight float64
	// MinShare (minResources) is the containers the queue is guaranteed
	// while it has demand; MaxShare (maxResources) the most it may hold
	// (0: no limit).
	MinShare, MaxShare int
	// MaxRunningApps limits the running jobs in the queue's subtree (0: no
	// limit); the others wait, in submission order. NoRunningApps (any
	// negative value) is Hadoop's maxRunningApps 0: no job of the subtree
	// ever runs (MaxRunningAppsEnforcer.canAppBeRunnable refuses while the
	// runnable count ≥ the limit), so Start refuses a job placed there.
	MaxRunningApps int
	// FIFO orders the queue's jobs by submission (schedulingPolicy fifo);
	// otherwise they share fairly by weight (fair; drf is the same with
	// one resource).
	FIFO bool
	// Preemption settings (see Fair.Preemption): seconds a leaf may stay
	// below its min share, or below FairSharePreemptionThreshold × its
	// fair share, before tasks are preempted for it; 0 inherits the
	// parent's (the root's 0: never, threshold 0.5).
	MinSharePreemptionTimeout, FairSharePreemptionTimeout float64
	FairSharePreemptionThreshold                          float64
	Children                                              []FairQueue
}

// NoRunningApps is FairQueue.MaxRunningApps for an allocation file's
// maxRunningApps 0 (or below), which lets no application of the queue's
// subtree run.
const NoRunningApps = -1

// Fair is the Hadoop Fair Scheduler at task level: a tree of queues (Root
// is the root queue; its Name is ignored). At each decision the scheduler
// walks from the root to a leaf, choosing at every level the child first
// in FairSharePolicy's order, then the leaf's first job:
//
//  1. children below their min share (usage < min(MinShare, demand)) come
//     first, by smallest usage / min(MinShare, demand) — the largest
//     deficit ratio;
//  2. then by smallest usage / weight;
//  3. then by name (jobs: by submission). FairSharePolicy's
//     FairShareComparator breaks ties by start time, which is 0 for every
//     queue (FSQueue.getStartTime), then by Schedulable.getName, the
//     queue's full name; siblings therefore go in name order (String's
//     compareTo, byte order for the ASCII of queue names), not in the
//     allocation file's order.
//
// Demand is containers held plus containers the ready tasks of the runnable
// jobs need. A child whose chosen task would push it or an ancestor above
// MaxShare is skipped (FairScheduler.fitsInMaxShare). Jobs within a leaf
// are ordered by containers held / job weight (fair) or by submission
// (FIFO). Jobs map to leaves by Job.Queue: a path such as "root.a.b" or
// "a.b"; empty, it is root.<user> with UserQueues (userAsDefaultQueue,
// "." in user names becomes "_dot_") or root.default (see Placement for
// one pool per user or a single pool); a queue missing from the tree is
// created with weight 1 and no limits (placement rules with
// create="true"). Preemption, off by default, is in fairpreempt.go.
//
// Each parent keeps its eligible children (ready tasks, below MaxShare) in
// a heap and each leaf its jobs with ready tasks in a heap: a decision
// costs O(d log Q + log n) for depth d and Q queues, and so does every
// task start or end (the keys along the job's path change).
type Fair struct {
	Base
	Root FairQueue
	// Placement maps jobs to leaves (default: by Job.Queue).
	Placement Placement
	// UserQueues sends a job without a queue to root.<user> rather than
	// root.default (userAsDefaultQueue), with PlaceByQueue.
	UserQueues bool
	// DefaultFIFO makes the queues created for jobs order their jobs by
	// submission (defaultQueueSchedulingPolicy fifo).
	DefaultFIFO bool
	// Preemption kills tasks for starved queues (fairpreempt.go).
	Preemption bool
	// UserMaxApps limits the runnable jobs of the users it names, across
	// queues (the allocation file's <user><maxRunningApps>), and
	// UserMaxAppsDefault those of every other user (userMaxAppsDefault;
	// 0: no limit); see fairapps.go.
	UserMaxApps        map[string]int
	UserMaxAppsDefault int
	// QueueMaxAppsDefault is the maxRunningApps of the queues created for
	// jobs (queueMaxAppsDefault, which Hadoop applies to every queue
	// without its own: AllocationConfiguration.getQueueMaxApps; 0: none).
	QueueMaxAppsDefault int
	// LocalityDelay > 0 turns on delay scheduling (Zaharia et al., EuroSys
	// 2010, Alg. 2, as Hadoop's Fair Scheduler does it) when the run gives
	// a LocalityOracle (SetLocality): a job whose next task is a map with
	// no block on the offered node is passed over, up to LocalityDelay
	// times in a row, before it may start a non-local map; starting a
	// local map resets its count. The policy is then not work-conserving
	// (a node may idle while jobs wait for locality) and declines nodes
	// one by one (PerNode). 0: off.
	LocalityDelay int
	loc           LocalityOracle
	skips         []int32 // per job: times passed over for locality in a row
	node          int     // the node of the current Pick

	s      *State
	qs     []fq
	qk     heapKeys // queue keys (child order within the parent)
	ak     heapKeys // job keys (order within the leaf)
	leafOf []int32  // per job
	run    []bool   // per job: runnable
	cUse   []int64  // per job: containers held, as added to the tree
	cRC    []int64  // per job: ready containers, as added
	cRN    []int32  // per job: ready tasks, as added
	skipQ  []int32
	skipA  []int32
	active []int32
	wc     bool
	users  appLimits
}

// Placement is how Fair maps jobs to leaf queues.
type Placement int

const (
	PlaceByQueue   Placement = iota // Job.Queue (see Fair)
	PlaceByUser                     // root.<user>: one pool per user
	PlaceInDefault                  // root.default: one pool
)

// fq is a queue's configuration and state.
type fq struct {
	name     string
	parent   int32
	children []int32
	weight   float64
	minShare int64
	maxShare int64 // 0: none
	maxApps  int   // 0: none
	fifo     bool
	leaf     bool

	usage   int64 // containers held
	readyC  int64 // containers of ready tasks of runnable jobs
	readyN  int   // ready tasks of runnable jobs
	apps    int   // runnable, unfinished jobs in the subtree
	kids    iheap // eligible children (parents)
	jobs    iheap // runnable jobs with ready tasks (leaves)
	waiting []int32
	cfg     preemptCfg
	pre     preemptState
}

type preemptCfg struct{ minTO, fairTO, thr float64 }

func (*Fair) Name() string { return "fair" }

// WorkConserving is true when no queue has a MaxShare (jobs held back by
// MaxRunningApps are not eligible).
func (f *Fair) WorkConserving() bool { return f.wc && !f.delaying() }

// SetLocality gives the policy the run's block placement (LocalityDelay).
func (f *Fair) SetLocality(l LocalityOracle) { f.loc = l }

// PerNode is true with delay scheduling: a node passed over for locality
// says nothing of the others of its type.
func (f *Fair) PerNode() bool { return f.delaying() }

func (f *Fair) delaying() bool { return f.LocalityDelay > 0 && f.loc != nil }

// localOK is delay scheduling's test for job x whose next task is of
// stage st on the current node: a task of a later stage, a map with a
// local block (its count reset), or a map of a job passed over
// LocalityDelay times; otherwise the job is passed over once more.
func (f *Fair) localOK(x int32, st int) bool {
	if st != 0 {
		return true
	}
	if f.loc.HasLocal(int(x), f.node) {
		f.skips[x] = 0
		return true
	}
	if int(f.skips[x]) >= f.LocalityDelay {
		return true
	}
	f.skips[x]++
	return false
}

// Eligible reports whether job j is runnable (MaxRunningApps).
func (f *Fair) Eligible(j int) bool { return f.run[j] }

func (f *Fair) Start(s *State) error {
	f.s = s
	f.qs = f.qs[:0]
	f.wc = true
	if err := f.add(f.Root, -1, "root"); err != nil {
		return err
	}
	jobs := s.Jobs()
	n := len(jobs)
	f.leafOf = resize(f.leafOf, n)
	// A job's leaf follows from its queue and user alone (place only adds
	// queues), so each pair is placed once: 286,000 jobs of a few users
	// walked their paths in 0.2 CPU-s.
	type placed struct{ queue, user string }
	leaves := map[placed]int32{}
	for j := range jobs {
		k := placed{s.QueueName(j), jobs[j].User}
		l, ok := leaves[k]
		if !ok {
			var err error
			if l, err = f.place(k.queue, k.user); err != nil {
				return fmt.Errorf("job %d: %v", j+1, err)
			}
			leaves[k] = l
		}
		for q := l; q >= 0; q = f.qs[q].parent {
			if f.qs[q].maxApps < 0 {
				return fmt.Errorf("fair: job %d: queue %s has maxRunningApps 0: Hadoop never runs its applications (MaxRunningAppsEnforcer.canAppBeRunnable)", j+1, f.qs[q].name)
			}
		}
		f.leafOf[j] = l
	}
	f.qk.reset(len(f.qs))
	f.qk.rank = nameRanks(f.qk.rank, f.qs)
	f.ak.reset(n)
	for i := range f.qs {
		f.qs[i].kids.init(&f.qk)
		f.qs[i].jobs.init(&f.ak)
	}
	f.run = resizeBool(f.run, n)
	f.cUse = resize(f.cUse, n)
	f.cRC = resize(f.cRC, n)
	f.cRN = resize(f.cRN, n)
	clear(f.cUse)
	clear(f.cRC)
	clear(f.cRN)
	if f.LocalityDelay > 0 {
		f.skips = resize(f.skips, n)
		clear(f.skips)
	}
	if err := f.users.setup(jobs, f.UserMaxApps, f.UserMaxAppsDefault); err != nil {
		return err
	}
	if f.QueueMaxAppsDefault < 0 {
		return fmt.Errorf("fair: queueMaxAppsDefault %d is negative", f.QueueMaxAppsDefault)
	}
	return f.setupPreempt()
}

// Check applies the rules Start applies to the queue tree rooted at q (a
// finite weight, shares and limits that are not negative, a min share not
// above the max share, children with distinct names free of '.'), so that
// a caller can refuse an allocation file before it simulates anything.
func (q FairQueue) Check() error { return q.check("root") }

func (q FairQueue) check(name string) error {
	if err := q.checkOwn(name); err != nil {
		return err
	}
	if err := checkChildren(name, len(q.Children), func(k int) string { return q.Children[k].Name }); err != nil {
		return err
	}
	for _, ch := range q.Children {
		if err := ch.check(name + "." + ch.Name); err != nil {
			return err
		}
	}
	return nil
}

// checkOwn checks the queue's own settings (not its children's).
func (q FairQueue) checkOwn(name string) error {
	switch {
	case math.IsNaN(q.Weight) || math.IsInf(q.Weight, 0):
		return fmt.Errorf("fair: queue %s: weight %v is not finite", name, q.Weight)
	case q.MinShare < 0 || q.MaxShare < 0:
		return fmt.Errorf("fair: queue %s: negative minShare or maxShare", name)
	case q.MaxShare > 0 && q.MinShare > q.MaxShare:
		return fmt.Errorf("fair: queue %s: min share %d above max share %d", name, q.MinShare, q.MaxShare)
	}
	return nil
}

func (f *Fair) add(c FairQueue, parent int32, name string) error {
	if err := c.checkOwn(name); err != nil {
		return err
	}
	w := c.Weight
	if w <= 0 {
		w = 1
	}
	i := int32(len(f.qs))
	f.qs = append(f.qs, fq{name: name, parent: parent, weight: w, minShare: int64(c.MinShare),
		maxShare: int64(c.MaxShare), maxApps: c.MaxRunningApps, fifo: c.FIFO, leaf: len(c.Children) == 0,
		cfg: preemptCfg{c.MinSharePreemptionTimeout, c.FairSharePreemptionTimeout, c.FairSharePreemptionThreshold}})
	if c.MaxShare > 0 {
		f.wc = false
	}
	if parent >= 0 {
		f.qs[parent].children = append(f.qs[parent].children, i)
	}
	if err := checkChildren(name, len(c.Children), func(k int) string { return c.Children[k].Name }); err != nil {
		return err
	}
	for _, ch := range c.Children {
		if err := f.add(ch, i, name+"."+ch.Name); err != nil {
			return err
		}
	}
	return nil
}

// nameRanks returns every queue's rank in the order of their full names
// (reusing buf): the tie-break of FairSharePolicy's comparator.
func nameRanks(buf []int32, qs []fq) []int32 {
	order := make([]int32, len(qs))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(x, y int32) int { return strings.Compare(qs[x].name, qs[y].name) })
	buf = resize(buf, len(qs))
	for r, q := range order {
		buf[q] = int32(r)
	}
	return buf
}

// checkChildren checks the names of a queue's children: non-empty,
// without '.', distinct.
func checkChildren(parent string, n int, name func(int) string) error {
	seen := map[string]bool{}
	for k := range n {
		c := name(k)
		if c == "" || strings.Contains(c, ".") {
			return fmt.Errorf("queue %s: child name %q is empty or contains '.'", parent, c)
		}
		if seen[c] {
			return fmt.Errorf("queue %s: two children named %q", parent, c)
		}
		seen[c] = true
	}
	return nil
}

// place returns the leaf of a job of user that names queue, creating
// missing queues.
func (f *Fair) place(queue, user string) (int32, error) {
	path := strings.TrimSpace(queue)
	switch f.Placement {
	case PlaceByUser:
		path = strings.ReplaceAll(user, ".", "_dot_")
		if path == "" {
			path = "default"
		}
	case PlaceInDefault:
		path = "default"
	}
	if path == "" {
		if f.UserQueues && user != "" {
			path = strings.ReplaceAll(user, ".", "_dot_")
		} else {
			path = "default"
		}
	}
	path = strings.TrimPrefix(path, "root.")
	if path == "root" {
		return -1, fmt.Errorf("jobs cannot be submitted to the root queue")
	}
	q := int32(0)
	for _, part := range strings.Split(path, ".") {
		if part == "" {
			return -1, fmt.Errorf("queue %q has an empty name part", queue)
		}
		next := int32(-1)
		for _, c := range f.qs[q].children {
			if f.qs[c].name == f.qs[q].name+"."+part {
				next = c
				break
			}
		}
		if next < 0 {
			if f.qs[q].leaf && q != 0 {
				return -1, fmt.Errorf("cannot create queue %s.%s under leaf queue %s", f.qs[q].name, part, f.qs[q].name)
			}
			next = int32(len(f.qs))
			f.qs = append(f.qs, fq{name: f.qs[q].name + "." + part, parent: q, weight: 1, leaf: true, fifo: f.DefaultFIFO, maxApps: max(0, f.QueueMaxAppsDefault)})
			f.qs[q].children = append(f.qs[q].children, next)
			f.qs[q].leaf = false
		}
		q = next
	}
	if !f.qs[q].leaf {
		return -1, fmt.Errorf("queue %s is a parent queue; jobs go to leaf queues", f.qs[q].name)
	}
	return q, nil
}

// canRun reports whether a job of leaf l may run (MaxRunningApps on its
// path).
func (f *Fair) canRun(l int32) bool {
	for q := l; q >= 0; q = f.qs[q].parent {
		if m := f.qs[q].maxApps; m > 0 && f.qs[q].apps >= m {
			return false
		}
	}
	return true
}

func (f *Fair) Arrive(j int) {
	l := f.leafOf[j]
	if f.canRun(l) && f.users.canRun(int32(j)) {
		f.makeRunnable(int32(j))
		return
	}
	f.qs[l].waiting = append(f.qs[l].waiting, int32(j))
	f.users.wait(int32(j))
}

func (f *Fair) makeRunnable(j int32) {
	f.run[j] = true
	f.users.started(j)
	for q := f.leafOf[j]; q >= 0; q = f.qs[q].parent {
		f.qs[q].apps++
	}
	f.sync(j)
}

func (f *Fair) Released(j, _ int) { f.sync(int32(j)) }
func (f *Fair) Started(t TaskRef) {
	f.sync(int32(t.Job))
	if f.Preemption {
		f.trackStart(t)
	}
}

func (f *Fair) Ended(t TaskRef) {
	f.sync(int32(t.Job))
	if f.Preemption {
		f.qs[f.leafOf[t.Job]].pre.live--
	}
}

func (f *Fair) Done(j int) {
	jj := int32(j)
	l := f.leafOf[jj]
	if !f.run[jj] {
		// A job without tasks completes on arrival, even if it waits (it
		// leaves the waiting lists lazily).
		f.users.waits[jj] = false
		return
	}
	f.sync(jj)
	if f.ak.in(jj) {
		f.qs[l].jobs.remove(jj)
	}
	top := int32(-1)
	for q := l; q >= 0; q = f.qs[q].parent {
		if m := f.qs[q].maxApps; m > 0 && f.qs[q].apps == m {
			top = q
		}
		f.qs[q].apps--
	}
	f.run[jj] = false
	if userFreed := f.users.ended(jj); top >= 0 || userFreed {
		f.admit(top, f.users.user[jj], userFreed)
	}
}

// sync brings job j's contribution to its path (containers held, ready
// containers and tasks) up to date and fixes the keys along the path.
func (f *Fair) sync(j int32) {
	if !f.run[j] {
		return
	}
	s := f.s
	use, rc, rn := int64(s.Running(int(j))), s.ReadyContainers(int(j)), int32(s.Ready(int(j)))
	du, dc, dn := use-f.cUse[j], rc-f.cRC[j], rn-f.cRN[j]
	f.cUse[j], f.cRC[j], f.cRN[j] = use, rc, rn
	l := f.leafOf[j]
	leaf := &f.qs[l]
	if rn > 0 {
		k := key{}
		if !leaf.fifo {
			w := s.jobs[j].Weight
			if !(w > 0) {
				w = 1
			}
			k.a = float64(use) / w
		}
		leaf.jobs.set(j, k)
	} else if f.ak.in(j) {
		leaf.jobs.remove(j)
	}
	for q := l; q >= 0; {
		c := &f.qs[q]
		c.usage += du
		c.readyC += dc
		c.readyN += int(dn)
		p := c.parent
		if p < 0 {
			break
		}
		if c.readyN > 0 && (c.maxShare == 0 || c.usage < c.maxShare) {
			f.qs[p].kids.set(q, f.queueKey(c))
		} else if f.qk.in(q) {
			f.qs[p].kids.remove(q)
		}
		q = p
	}
}

// queueKey is FairSharePolicy's order: needy queues first by usage /
// min share, then by usage / weight.
func (f *Fair) queueKey(c *fq) key {
	minS := min(c.minShare, c.usage+c.readyC)
	if c.usage < minS {
		return key{0, float64(c.usage) / float64(max(minS, 1))}
	}
	return key{1, float64(c.usage) / c.weight}
}

func (f *Fair) Pick(n Node) (int, int) {
	f.node = n.Index
	j, st := f.assign(0, math.MaxInt64, n.Free)
	return int(j), st
}

// assign walks from queue q; head is the most containers the path above
// allows (MaxShare).
func (f *Fair) assign(q int32, head int64, free int) (j int32, st int) {
	c := &f.qs[q]
	if c.maxShare > 0 {
		head = min(head, c.maxShare-c.usage)
	}
	j, st = -1, -1
	if head <= 0 {
		return j, st
	}
	if c.leaf {
		// The first job whose next task stays within head.
		j = c.jobs.first(&f.skipA, func(x int32) bool {
			var need int
			st, need = nextTask(f.s, int(x), free)
			return int64(need) <= head && (!f.delaying() || f.localOK(x, st))
		})
		if j < 0 {
			st = -1
		}
		return j, st
	}
	c.kids.first(&f.skipQ, func(ch int32) bool {
		j, st = f.assign(ch, head, free)
		return j >= 0
	})
	return j, st
}

// nextTask returns the stage the simulator would start a task of job j
// from on a machine with free containers, and that task's containers: the
// next stage when Options.ReduceRampup lets its task start first and it
// fits, else the earliest ready stage whose next task fits, else the
// earliest ready stage.
func nextTask(s *State, j, free int) (stage, need int) {
	if g := s.rampStage(int32(j)); g >= 0 {
		st := int(s.ss[g].idx)
		if k := s.NextContainers(j, st); k <= free {
			return st, k
		}
	}
	stage = -1
	for st := s.CurrentStage(j); st < s.Stages(j); st++ {
		k := s.NextContainers(j, st)
		if k == 0 {
			if !s.StageReleased(j, st) {
				break
			}
			continue
		}
		if k <= free {
			return st, k
		}
		if stage < 0 {
			stage, need = st, k
		}
	}
	return stage, need
}
