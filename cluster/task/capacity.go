package task

import (
	"fmt"
	"math"
	"strings"
)

// CapacityQueue is a queue of the YARN Capacity Scheduler, as
// capacity-scheduler.xml declares it. Capacities are percentages of the
// parent's, per partition (node label).
type CapacityQueue struct {
	Name string
	// Capacity and MaxCapacity (0 means 100) on the default partition
	// (machines without a label).
	Capacity, MaxCapacity float64
	// Labels gives the capacities on labelled partitions
	// (accessible-node-labels.<label>.capacity and .maximum-capacity); a
	// queue without an entry for a label cannot use it.
	Labels map[string]LabelCapacity
	// DefaultLabel is the partition its jobs' tasks run on
	// (default-node-label-expression); "" inherits the parent's (the
	// root's is the default partition).
	DefaultLabel string
	// UserLimitFactor caps one user at this multiple of the queue's
	// capacity (0 means 1; −1: no cap below the maximum capacity);
	// MinUserLimitPercent is minimum-user-limit-percent (0 means 100).
	UserLimitFactor     float64
	MinUserLimitPercent float64
	// FairOrder is ordering-policy fair (FairOrderingPolicy): a leaf's jobs
	// are tried by the containers they hold, fewest first (then by
	// submission); false is fifo, by submission.
	FairOrder bool
	// DemoteAfter, on a leaf, is a controller's demotion threshold: a job
	// whose service (containers × time held, State.Service) reaches it
	// moves to the leaf DemoteTo (a sibling's short name, or a path), as
	// schedplan's LAS_MQ controller moves YARN applications between level
	// queues (moveApplication). 0: no demotion.
	DemoteAfter float64
	DemoteTo    string
	Children    []CapacityQueue
}

// LabelCapacity is a queue's share of one labelled partition, in percent
// of its parent's (MaxCapacity 0 means 100).
type LabelCapacity struct{ Capacity, MaxCapacity float64 }

// Capacity is the YARN Capacity Scheduler at task level. Root is the root
// queue (its Name, capacities and label settings are ignored: it has all
// of every partition). A machine's label (MachineType.Label) is its
// partition; labels are exclusive, so a machine serves only the leaves
// whose jobs request its partition. At each decision the scheduler walks
// from the root to a leaf:
//
//   - children with ready tasks on the machine's partition are tried in
//     PriorityUtilizationQueueOrderingPolicy's order on that partition
//     (childKey): those with a positive absolute capacity first, by used
//     / max(guaranteed, 1 container), least first; those with none after
//     them, by used / the partition's containers; ties go to the larger
//     absolute capacity, then to configuration order (a stable sort);
//   - a queue may grow beyond its capacity (elasticity: idle capacity is
//     lent out) but not beyond its maximum capacity: a task is placed only
//     if every queue on its path keeps used + task ≤ absolute maximum
//     capacity × partition containers (canAssignToThisQueue);
//   - within a leaf, jobs are FIFO (by submission; with FairOrder, by the
//     containers they hold, fewest first, then by submission), skipping users above
//     the user limit (UsersManager.computeUserLimit): limit = ⌈min(max((used
//     by active users + 1) / active users, current × MinUserLimitPercent/100),
//     capacity × UserLimitFactor)⌉ containers, where current is the
//     leaf's capacity (at least 1) while its usage is below it, else its
//     usage + 1, and a user with ready tasks is active; a user gets a
//     container while its usage ≤ the limit (a "> limit" check, so one
//     container over, as YARN). The first job within its user's limit
//     whose next task would take the path past a maximum capacity ends
//     the leaf's turn (the queue limit, not a reason to try later jobs).
//
// Jobs go to the leaf named by Job.Queue (short name, or path
// "root.a.b"); an empty queue means "default". A job in a leaf with
// DemoteAfter moves to its DemoteTo leaf (at the next decision after its
// service crosses the threshold; the crossing times sit in a heap) and
// keeps its place by submission there. Preemption, application
// limits (maximum-applications, AM resource percent) and non-exclusive
// labels are not modelled. Each decision costs O(Σ c²) at worst over the
// children c of the queues on the walked path plus O(log n) in the leaf
// (users in a heap by their first job; skipped users are set aside and
// restored); each task start or end O(d + log n) for depth d.
type Capacity struct {
	Base
	Root CapacityQueue

	s      *State
	np     int              // partitions
	part   []int32          // per machine type: partition
	pIdx   map[string]int32 // label → partition
	pRes   []float64        // per partition: containers
	qs     []cq
	leafOf []int32 // per job
	userOf []int32 // per job: index into us
	us     []cuser
	uk     heapKeys // user keys
	jk     heapKeys // job keys
	cUse   []int64
	cRN    []int32
	dk     heapKeys   // job keys: demotion times
	dem    iheap      // jobs by the time their service reaches their leaf's DemoteAfter
	cand   []int32    // candidate children on the walked path (a stack)
	ckey   []childKey // their ordering keys
	skipU  []int32
}

type cq struct {
	name, short string
	parent      int32
	children    []int32
	leaf        bool
	label       string
	part        int32     // leaf: partition its jobs request
	rel         []float64 // per partition: configured capacity (fraction of the parent's)
	has         []bool    // per partition: configured (the default partition always)
	absCap      []float64 // per partition
	absMax      []float64
	g, m        []float64 // per partition: guaranteed and maximum containers
	ulf, mulp   float64
	fair        bool    // leaf: ordering-policy fair
	demote      float64 // leaf: DemoteAfter
	demoteTo    string
	next        int32   // leaf: the leaf its jobs move to, −1 none
	used        []int64 // per partition
	readyN      []int   // per partition: ready tasks of its jobs
	users       iheap   // leaf: active users by their first ready job
	sumActive   int64   // leaf: containers held by active users
	userIdx     map[string]int32
}

type cuser struct {
	leaf  int32
	used  int64
	jobs  iheap // jobs with ready tasks, FIFO
	ready int
}

func (*Capacity) Name() string { return "capacity" }

func (c *Capacity) Start(s *State) error {
	c.s = s
	cl := s.Cluster()
	c.pIdx = map[string]int32{"": 0}
	c.part = c.part[:0]
	for _, t := range cl.Types {
		if _, ok := c.pIdx[t.Label]; !ok {
			c.pIdx[t.Label] = int32(len(c.pIdx))
		}
		c.part = append(c.part, c.pIdx[t.Label])
	}
	c.np = len(c.pIdx)
	c.pRes = append(c.pRes[:0], make([]float64, c.np)...)
	for ti, t := range cl.Types {
		c.pRes[c.part[ti]] += float64(t.Count * t.Containers)
	}
	c.qs = c.qs[:0]
	if err := c.add(c.Root, -1, "root", ""); err != nil {
		return err
	}
	if err := c.validate(); err != nil {
		return err
	}
	jobs := s.Jobs()
	n := len(jobs)
	c.leafOf = resize(c.leafOf, n)
	c.userOf = resize(c.userOf, n)
	c.us = c.us[:0]
	short := map[string]int32{}
	for i := range c.qs {
		if c.qs[i].leaf {
			if _, dup := short[c.qs[i].short]; dup {
				short[c.qs[i].short] = -1
			} else {
				short[c.qs[i].short] = int32(i)
			}
		}
	}
	if err := c.demotions(short); err != nil {
		return err
	}
	for j := range jobs {
		l, err := c.find(s.QueueName(j), short)
		if err != nil {
			return fmt.Errorf("job %d: %v", j+1, err)
		}
		c.leafOf[j] = l
		c.userOf[j] = c.user(l, jobs[j].User)
		for q := c.qs[l].next; q >= 0; q = c.qs[q].next {
			c.user(q, jobs[j].User) // where demotion takes the job
		}
	}
	c.dk.reset(n)
	c.dem.init(&c.dk)
	c.uk.reset(len(c.us))
	c.jk.reset(n)
	clear(c.jk.k) // FIFO leaves order by submission alone: key 0
	for i := range c.qs {
		c.qs[i].users.init(&c.uk)
	}
	for i := range c.us {
		c.us[i].jobs.init(&c.jk)
	}
	c.cUse = resize(c.cUse, n)
	c.cRN = resize(c.cRN, n)
	clear(c.cUse)
	clear(c.cRN)
	return nil
}

// user returns the index of user name in leaf l, adding it.
func (c *Capacity) user(l int32, name string) int32 {
	q := &c.qs[l]
	u, ok := q.userIdx[name]
	if !ok {
		u = int32(len(c.us))
		q.userIdx[name] = u
		c.us = append(c.us, cuser{leaf: l})
	}
	return u
}

// demotions resolves every leaf's DemoteTo (a sibling's short name or a
// path) and refuses cycles.
func (c *Capacity) demotions(short map[string]int32) error {
	for i := range c.qs {
		q := &c.qs[i]
		if q.demoteTo == "" || q.demote == 0 || !q.leaf {
			continue
		}
		to := q.demoteTo
		if !strings.Contains(to, ".") {
			to = q.name[:strings.LastIndexByte(q.name, '.')+1] + to
		}
		l, err := c.find(to, short)
		if err != nil {
			return fmt.Errorf("queue %s: demotion: %v", q.name, err)
		}
		q.next = l
	}
	for i := range c.qs {
		steps := 0
		for q := c.qs[i].next; q >= 0; q = c.qs[q].next {
			if steps++; steps > len(c.qs) {
				return fmt.Errorf("queue %s: demotions form a cycle", c.qs[i].name)
			}
		}
	}
	return nil
}

func (c *Capacity) add(q CapacityQueue, parent int32, name, inherited string) error {
	bad := func(v float64) bool { return !(v >= 0 && v <= 100) }
	if bad(q.Capacity) || bad(q.MaxCapacity) {
		return fmt.Errorf("queue %s: capacity %v or maximum capacity %v not in [0, 100]", name, q.Capacity, q.MaxCapacity)
	}
	for l, lc := range q.Labels {
		if bad(lc.Capacity) || bad(lc.MaxCapacity) {
			return fmt.Errorf("queue %s: label %q: capacity %v or maximum capacity %v not in [0, 100]", name, l, lc.Capacity, lc.MaxCapacity)
		}
	}
	if math.IsNaN(q.UserLimitFactor) || math.IsInf(q.UserLimitFactor, 0) || (q.UserLimitFactor < 0 && q.UserLimitFactor != -1) {
		return fmt.Errorf("queue %s: user-limit-factor %v (need ≥ 0, or −1)", name, q.UserLimitFactor)
	}
	if !(q.MinUserLimitPercent >= 0 && q.MinUserLimitPercent <= 100) {
		return fmt.Errorf("queue %s: minimum-user-limit-percent %v not in [0, 100]", name, q.MinUserLimitPercent)
	}
	label := q.DefaultLabel
	if label == "" {
		label = inherited
	}
	i := int32(len(c.qs))
	x := cq{name: name, short: name[strings.LastIndexByte(name, '.')+1:], parent: parent, leaf: len(q.Children) == 0,
		label: label, ulf: q.UserLimitFactor, mulp: q.MinUserLimitPercent, fair: q.FairOrder,
		demote: q.DemoteAfter, demoteTo: q.DemoteTo, next: -1, userIdx: map[string]int32{}}
	if !(q.DemoteAfter >= 0) || math.IsInf(q.DemoteAfter, 0) {
		return fmt.Errorf("queue %s: demotion threshold %v (need a finite number ≥ 0)", name, q.DemoteAfter)
	}
	if x.ulf == 0 {
		x.ulf = 1
	}
	if x.mulp == 0 {
		x.mulp = 100
	}
	x.rel, x.has = make([]float64, c.np), make([]bool, c.np)
	x.absCap, x.absMax = make([]float64, c.np), make([]float64, c.np)
	x.g, x.m = make([]float64, c.np), make([]float64, c.np)
	x.used, x.readyN = make([]int64, c.np), make([]int, c.np)
	for l, p := range c.pIdx {
		capP, maxP := 0.0, 0.0
		switch {
		case parent < 0:
			capP, maxP = 1, 1
			x.has[p] = true
		case l == "":
			capP, maxP = q.Capacity/100, orHundred(q.MaxCapacity)/100
			x.has[p] = true
		default:
			if lc, ok := q.Labels[l]; ok {
				capP, maxP = lc.Capacity/100, orHundred(lc.MaxCapacity)/100
				x.has[p] = true
			}
		}
		x.rel[p] = capP
		if maxP < capP {
			return fmt.Errorf("queue %s: maximum capacity %v%% below capacity %v%% (label %q)", name, 100*maxP, 100*capP, l)
		}
		pc, pm := 1.0, 1.0
		if parent >= 0 {
			pc, pm = c.qs[parent].absCap[p], c.qs[parent].absMax[p]
		}
		// CSQueueUtils.updateAbsoluteCapacitiesByNodeLabels.
		x.absCap[p], x.absMax[p] = capP*pc, maxP*pm
		x.g[p], x.m[p] = x.absCap[p]*c.pRes[p], x.absMax[p]*c.pRes[p]
	}
	c.qs = append(c.qs, x)
	if parent >= 0 {
		c.qs[parent].children = append(c.qs[parent].children, i)
	}
	if err := checkChildren(name, len(q.Children), func(k int) string { return q.Children[k].Name }); err != nil {
		return err
	}
	for _, ch := range q.Children {
		if err := c.add(ch, i, name+"."+ch.Name, label); err != nil {
			return err
		}
	}
	return nil
}

func orHundred(v float64) float64 {
	if v == 0 {
		return 100
	}
	return v
}

// validate applies AbstractParentQueue.setChildQueues' rule (children's
// capacities sum to 100% of a parent with positive capacity on a
// partition, to 0 when it has none) and checks that every leaf's
// partition exists and can run something.
func (c *Capacity) validate() error {
	labels := make([]string, c.np)
	for l, p := range c.pIdx {
		labels[p] = l
	}
	for i := range c.qs {
		q := &c.qs[i]
		if q.leaf {
			p, ok := c.pIdx[q.label]
			if !ok || c.pRes[p] == 0 {
				return fmt.Errorf("queue %s: its jobs request label %q, which no machine has", q.name, q.label)
			}
			if q.m[p] < 1 {
				return fmt.Errorf("queue %s: maximum capacity on label %q is %.3g containers: its jobs could never run", q.name, q.label, q.m[p])
			}
			q.part = p
			continue
		}
		for p := range c.np {
			sum, any := 0.0, false
			for _, ch := range q.children {
				sum += c.qs[ch].rel[p]
				any = any || c.qs[ch].has[p]
			}
			if !q.has[p] || (q.parent < 0 && !any) {
				continue // a label the queue (or, for the root, no child) has no capacity on
			}
			want := 1.0
			if q.rel[p] == 0 {
				want = 0
			}
			if math.Abs(sum-want) > 1e-6 {
				return fmt.Errorf("queue %s: children's capacities on label %q sum to %.6g%%, need %.0f%%", q.name, labels[p], 100*sum, 100*want)
			}
		}
	}
	return nil
}

func (c *Capacity) find(name string, short map[string]int32) (int32, error) {
	if name == "" {
		name = "default"
	}
	if strings.Contains(name, ".") {
		full := name
		if !strings.HasPrefix(full, "root.") {
			full = "root." + full
		}
		for i := range c.qs {
			if c.qs[i].name == full {
				if !c.qs[i].leaf {
					return -1, fmt.Errorf("queue %s is a parent queue; jobs go to leaf queues", full)
				}
				return int32(i), nil
			}
		}
		return -1, fmt.Errorf("no queue %s", full)
	}
	l, ok := short[name]
	switch {
	case !ok:
		return -1, fmt.Errorf("no leaf queue %q", name)
	case l < 0:
		return -1, fmt.Errorf("leaf queue name %q is ambiguous: give its path", name)
	}
	return l, nil
}

func (c *Capacity) Released(j, _ int) { c.sync(int32(j)) }
func (c *Capacity) Started(t TaskRef) { c.sync(int32(t.Job)) }
func (c *Capacity) Ended(t TaskRef)   { c.sync(int32(t.Job)) }

// sync brings job j's containers held and ready tasks up to date along its
// path and in its user, and when its leaf demotes, the time its service
// reaches the threshold.
func (c *Capacity) sync(j int32) {
	s := c.s
	c.set(j, int64(s.Running(int(j))), int32(s.Ready(int(j))))
	leaf := &c.qs[c.leafOf[j]]
	if leaf.next < 0 {
		return
	}
	t := math.Inf(1)
	if s.Done(int(j)) {
		// nothing left to demote
	} else if svc := s.Service(int(j)); svc >= leaf.demote*(1-1e-9) {
		t = s.Now()
	} else if r := s.Running(int(j)); r > 0 {
		t = s.Now() + (leaf.demote-svc)/float64(r)
	}
	if t < math.Inf(1) {
		c.dem.set(j, key{t, 0})
	} else if c.dk.in(j) {
		c.dem.remove(j)
	}
}

// demote moves the jobs whose service has reached their leaf's threshold.
func (c *Capacity) demote() {
	now := c.s.Now()
	for c.dem.len() > 0 && c.dk.k[c.dem.min()].a <= now {
		j := c.dem.pop()
		use, rn := c.cUse[j], c.cRN[j]
		c.set(j, 0, 0)
		l := c.qs[c.leafOf[j]].next
		c.leafOf[j] = l
		c.userOf[j] = c.qs[l].userIdx[c.s.Jobs()[j].User]
		c.set(j, use, rn)
		c.sync(j) // the next threshold, if the new leaf demotes too
	}
}

// set makes job j hold use containers with rn ready tasks along its
// leaf's path and in its user.
func (c *Capacity) set(j int32, use int64, rn int32) {
	du, dn := use-c.cUse[j], rn-c.cRN[j]
	if du == 0 && dn == 0 {
		return
	}
	c.cUse[j], c.cRN[j] = use, rn
	l := c.leafOf[j]
	leaf := &c.qs[l]
	p := leaf.part
	for q := l; q >= 0; q = c.qs[q].parent {
		c.qs[q].used[p] += du
		c.qs[q].readyN[p] += int(dn)
	}
	ui := c.userOf[j]
	u := &c.us[ui]
	wasActive := u.ready > 0
	u.used += du
	u.ready += int(dn)
	if wasActive {
		leaf.sumActive += du
	}
	if rn > 0 {
		// FIFO: every job's key is 0, so the heap orders by submission.
		if leaf.fair {
			u.jobs.set(j, key{float64(use), 0})
		} else if !c.jk.in(j) {
			u.jobs.push(j)
		}
	} else if c.jk.in(j) {
		u.jobs.remove(j)
	}
	switch active := u.ready > 0; {
	case active && !wasActive:
		leaf.sumActive += u.used
		leaf.users.set(ui, c.userKey(u))
	case !active && wasActive:
		leaf.sumActive -= u.used
		leaf.users.remove(ui)
	case active:
		leaf.users.set(ui, c.userKey(u))
	}
}

// userKey orders a leaf's active users by their first job in the leaf's
// order: the leaf's jobs are tried in that order, user by user.
func (c *Capacity) userKey(u *cuser) key {
	m := u.jobs.min()
	return key{c.jk.k[m].a, float64(m)}
}

func (c *Capacity) Pick(n Node) (int, int) {
	c.demote()
	p := c.part[n.Type]
	j, st := c.assign(0, p, math.Inf(1), n.Free)
	return int(j), st
}

// assign walks from queue q on partition p; head is the most containers
// the path above allows.
func (c *Capacity) assign(q, p int32, head float64, free int) (int32, int) {
	x := &c.qs[q]
	head = min(head, x.m[p]-float64(x.used[p]))
	if head < 1-1e-9 || x.readyN[p] == 0 {
		return -1, -1
	}
	if x.leaf {
		return c.assignLeaf(x, head, free)
	}
	base := len(c.cand)
	c.orderChildren(x, p)
	j, st := int32(-1), -1
	for i := base; i < len(c.cand) && j < 0; i++ {
		j, st = c.assign(c.cand[i], p, head, free)
	}
	c.cand, c.ckey = c.cand[:base], c.ckey[:base]
	return j, st
}

// userLimit is UsersManager.computeUserLimit for leaf x on its partition,
// in containers.
func (c *Capacity) userLimit(x *cq) float64 {
	p := x.part
	q := max(x.g[p], 1)
	cur := q
	if used := float64(x.used[p]); used >= q {
		cur = used + 1
	}
	active := float64(max(x.users.len(), 1))
	// The active users' share counts the container being assigned
	// (resourceUsed = their usage + required, the minimum allocation).
	ul := max(float64(x.sumActive+1)/active, cur*x.mulp/100)
	maxUL := x.m[p]
	if x.ulf != -1 && x.g[p] > 0 {
		maxUL = q * x.ulf
	}
	return math.Ceil(min(ul, maxUL) - 1e-9)
}

// assignLeaf returns leaf x's first job, in its order, whose user is
// within the user limit, if its next task stays within head. Hadoop's
// AbstractLeafQueue.assignContainers skips the applications of a user
// over the limit (canAssignToUser) but ends the leaf's turn at the first
// application whose request exceeds the queue's headroom
// (RegularContainerAllocator.preCheckForNodeCandidateSet's QUEUE_SKIPPED,
// SkippedType.QUEUE_LIMIT), so a later, smaller request does not pass it.
func (c *Capacity) assignLeaf(x *cq, head float64, free int) (int32, int) {
	limit := c.userLimit(x)
	j, st, fits := int32(-1), -1, false
	found := x.users.first(&c.skipU, func(ui int32) bool {
		if float64(c.us[ui].used) > limit {
			return false
		}
		j = c.us[ui].jobs.min()
		var need int
		st, need = nextTask(c.s, int(j), free)
		fits = float64(need) <= head+1e-9
		return true
	})
	if found < 0 || !fits {
		return -1, -1
	}
	return j, st
}
