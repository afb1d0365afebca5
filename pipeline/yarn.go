package pipeline

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/cluster/yarn"
)

// This file renders a Bundle as YARN scheduler configuration:
// capacity-scheduler.xml (Capacity Scheduler with node labels) and
// fair-scheduler.xml (a Fair Scheduler allocation file), and checks both
// with cluster/yarn, which applies Hadoop's own load-time rules.

var yarnNameRe = regexp.MustCompile(`[^0-9A-Za-z_-]`)

// YARNName turns s into a valid YARN node-label (and Capacity Scheduler
// queue) name: letters, digits, '-' and '_', starting with a letter or digit
// (NodeLabelUtil's rule; '.' separates queue path components and is never
// allowed in a name).
func YARNName(s string) string {
	n := yarnNameRe.ReplaceAllString(s, "_")
	if n == "" || n[0] == '_' || n[0] == '-' {
		n = "q" + n
	}
	return n
}

// percentages splits total hundredths of a percent in proportion to w by
// largest-remainder rounding, so that the parts sum to exactly total; then
// every positive weight that rounded to 0 takes one hundredth from the
// largest part (a queue with a positive share never gets capacity 0), when
// total allows it. Weights that are not finite and positive count as 0;
// all-zero (or empty) weights split evenly. Only integers decide the loop
// bounds, and the weights are scaled by their maximum first, so no product
// or sum overflows (1e308 weights included).
func percentages(w []float64, total int) []int {
	n := len(w)
	out := make([]int, n)
	if n == 0 || total <= 0 {
		return out
	}
	top := 0.0
	var pos []int
	for i, v := range w {
		if v > 0 && !math.IsInf(v, 0) {
			top = math.Max(top, v)
			pos = append(pos, i)
		}
	}
	scaled := make([]float64, n) // in (0, 1]
	if len(pos) == 0 {
		pos = make([]int, n)
		for i := range pos {
			pos[i] = i
			scaled[i] = 1
		}
	} else {
		for _, i := range pos {
			scaled[i] = w[i] / top
		}
	}
	sum := 0.0 // ≤ n
	for _, i := range pos {
		sum += scaled[i]
	}
	type rem struct {
		i int
		r float64
	}
	rems := make([]rem, 0, len(pos))
	given := 0
	for _, i := range pos {
		exact := float64(total) * (scaled[i] / sum) // in [0, total]
		out[i] = max(0, min(int(math.Floor(exact)), total))
		given += out[i]
		rems = append(rems, rem{i, exact - float64(out[i])})
	}
	sort.SliceStable(rems, func(a, b int) bool { return rems[a].r > rems[b].r })
	// Each floor loses less than one unit, so 0 ≤ deficit < len(pos).
	for k := 0; k < total-given && k < len(rems); k++ {
		out[rems[k].i]++
	}
	if len(pos) > total {
		return out
	}
	for _, i := range pos {
		if out[i] > 0 {
			continue
		}
		big := pos[0]
		for _, j := range pos {
			if out[j] > out[big] {
				big = j
			}
		}
		out[big]--
		out[i]++
	}
	return out
}

func fmtPercent(hundredths int) string {
	return strconv.FormatFloat(float64(hundredths)/100, 'f', -1, 64)
}

// capacityLayoutVersion changes when the capacity-scheduler.xml layout
// changes, so that older stamps of the emit stage are stale (3: demotion
// thresholds in held container-seconds, demote-after-held-container-seconds;
// 4: the container size they assume, schedplan.container-mb).
const capacityLayoutVersion = 4

// DefaultQueueShare is the share (hundredths of a percent) of every
// partition the Capacity Scheduler's default queue is guaranteed: enough
// for applications that name no queue and match no mapping to run.
const DefaultQueueShare = 100

// LabelHeadroom is the most of a machine type's COSHH allocation to a class
// that the class's offered load may use for the class to be confined to
// that type by a node label (utilisation 0.8: below it, a class alone on
// its type queues little).
const LabelHeadroom = 0.8

// LeafMinUserLimitPercent is every leaf's minimum-user-limit-percent: 1
// (the smallest integer, as Hadoop 2.x reads it) lets n active users of a
// leaf split it evenly (each may hold the average of the active users'
// containers, UsersManager.computeUserLimit), as the Fair Scheduler splits
// a pool, instead of YARN's default 100, which serves a leaf's users in
// submission order.
const LeafMinUserLimitPercent = 1

// Roles of the queues of a rendered capacity-scheduler.xml.
const (
	classQueue = iota
	levelQueue
	defaultQueue
)

// csQueue is a queue being rendered.
type csQueue struct {
	role       int
	name, path string
	share      map[string]int // partition ("" = default) → capacity, hundredths of its parent's
	labels     []string       // accessible labels, in type order
	defLabel   string
	levels     []*csQueue
	threshold  float64 // LAS_MQ level: demotion threshold in held container-seconds (0: last level)
	desc       string
	coshh      string // the class's COSHH allocation, when not expressed as labels
}

// csPlan is the queue tree of a bundle.
type csPlan struct {
	labels []string // one per machine type; nil: no node labels
	why    string   // why there are (no) node labels
	queues []*csQueue
	unit   string  // threshold unit of the bundle
	held   float64 // held container-seconds per unit (Bundle.HeldPerUnit)
}

// planCapacityScheduler decides the queues and their capacities.
func planCapacityScheduler(b *Bundle) (*csPlan, error) {
	p := &csPlan{}
	seenLabel := map[string]string{}
	bestType := -1
	var labels []string
	for t, r := range b.Cluster.Resources {
		l := YARNName(r.Name)
		if other, dup := seenLabel[l]; dup {
			return nil, fmt.Errorf("machine types %q and %q map to one node label %q", other, r.Name, l)
		}
		seenLabel[l] = r.Name
		labels = append(labels, l)
		if bestType < 0 || typeCapacity(r) > typeCapacity(b.Cluster.Resources[bestType]) {
			bestType = t
		}
	}
	nc := len(b.Classes)
	classTotal := 10000
	if nc > 0 {
		classTotal -= DefaultQueueShare
	}
	work := make([]float64, nc)
	seen := map[string]bool{"default": true}
	for i, c := range b.Classes {
		work[i] = c.Alpha * c.MeanSize
		name := YARNName(c.Name)
		if seen[name] {
			return nil, fmt.Errorf("class %q: queue name %q is taken", c.Name, name)
		}
		seen[name] = true
		p.queues = append(p.queues, &csQueue{role: classQueue, name: name, path: "root." + name, share: map[string]int{}})
	}
	for i, v := range percentages(work, classTotal) {
		p.queues[i].share[yarn.NoLabel] = v
	}
	var safe bool
	if safe, p.why = labelsSafe(b, labels); safe {
		p.labels = labels
		planLabels(b, p, work, classTotal, bestType)
	} else {
		for i, q := range p.queues {
			q.coshh = coshhAllocation(b, i, labels)
		}
	}
	def := &csQueue{role: defaultQueue, name: "default", path: "root.default", share: map[string]int{yarn.NoLabel: 10000 - classTotal}}
	if p.labels != nil {
		def.desc = "the largest machine type"
		def.labels = append(def.labels, p.labels...)
		for _, l := range p.labels {
			def.share[l] = 10000 - classTotal
		}
		def.defLabel = p.labels[bestType]
	}
	p.queues = append(p.queues, def)
	if l := b.LASMQ; l != nil && l.K > 1 && nc > 0 {
		var err error
		if p.unit, _, err = b.ThresholdUnit(); err != nil {
			return nil, err
		}
		if p.held, err = b.HeldPerUnit(); err != nil {
			return nil, err
		}
		for _, q := range p.queues {
			addLevels(q, l, p.held)
		}
	}
	return p, nil
}

// planLabels gives every class queue its capacity on every machine type's
// label (its share of the COSHH allocation of the type) and its default
// label.
func planLabels(b *Bundle, p *csPlan, work []float64, classTotal, bestType int) {
	nc := len(work)
	for t, l := range p.labels {
		alloc := make([]float64, nc)
		used := 0.0
		if cp := b.Capacity; cp != nil && t < len(cp.Allocation) {
			for i := range alloc {
				if i < len(cp.Allocation[t]) && cp.Allocation[t][i] > 0 {
					alloc[i] = cp.Allocation[t][i]
					used += alloc[i]
				}
			}
		}
		if !(used > 0) {
			copy(alloc, work) // a type the LP leaves unused is split by work
		}
		for i, v := range percentages(alloc, classTotal) {
			if alloc[i] > 0 {
				p.queues[i].share[l] = v
				p.queues[i].labels = append(p.queues[i].labels, l)
			}
		}
	}
	for i, q := range p.queues[:nc] {
		t, desc := classType(b, i, len(p.labels), bestType)
		if t < 0 {
			continue
		}
		q.defLabel, q.desc = p.labels[t], desc
		if len(q.labels) == 0 {
			q.labels = []string{q.defLabel} // no allocation: idle capacity only
			q.share[q.defLabel] = 0
		}
	}
}

// labelsSafe decides whether the machine types become node labels. A
// request names one partition, so a job of a class whose queue defaults to
// a label runs on that machine type alone, and a job that lands in the
// default queue on the default queue's; labels are exclusive (the YARN
// default), so no other job uses their idle machines. That is safe only
// when the cluster has more than one machine type, every class's load fits
// within LabelHeadroom of the COSHH allocation of its default type alone
// (α ≤ LabelHeadroom × machines × μ), and every user with jobs is mapped to
// a class queue (else all of their jobs share the default queue's one
// type). Otherwise the file names no labels: every machine is in the
// default partition, and the classes share it by their capacities. The
// second result says why, for the file's description.
func labelsSafe(b *Bundle, labels []string) (bool, string) {
	const none = "no node labels: deploy with every machine in the default partition (no yarn.node-labels); "
	switch {
	case len(labels) < 2:
		return false, none + "the cluster has one machine type"
	case b.Capacity == nil:
		return false, none + "the bundle has no COSHH allocation"
	}
	for _, u := range b.Users {
		if u.Jobs > 0 && u.Class == "" {
			return false, none + fmt.Sprintf("the jobs of user %s span classes, and a job of theirs that names no queue would run on one machine type (a request names one partition); COSHH's allocation is documented per class (schedplan.coshh.<class>.allocation) and not enforced", u.Name)
		}
	}
	for i, c := range b.Classes {
		t, _ := classType(b, i, len(labels), -1)
		if !(c.Alpha > 0) {
			continue
		}
		if t < 0 {
			return false, none + fmt.Sprintf("COSHH allocates no machine to class %s", c.Name)
		}
		carried := b.Capacity.Allocation[t][i]
		if t < len(c.Mu) {
			carried *= c.Mu[t]
		}
		if !(c.Alpha <= LabelHeadroom*carried) {
			return false, none + fmt.Sprintf("confined to machine type %s, class %s would use %.3g of its COSHH allocation there (arrivals %.3g jobs/s against %.3g), above %.2g; COSHH's allocation is documented per class (schedplan.coshh.<class>.allocation) and not enforced",
				b.Cluster.Resources[t].Name, c.Name, c.Alpha/carried, c.Alpha, carried, LabelHeadroom)
		}
	}
	return true, "every machine type is an exclusive node label (yarn rmadmin -addToClusterNodeLabels with each type's name, then -replaceLabelsOnNode): every class's load fits within " + strconv.FormatFloat(LabelHeadroom, 'g', -1, 64) + " of the COSHH allocation of its default type, and every user is mapped to its class"
}

// coshhAllocation renders class i's COSHH allocation, machines of each
// type, for the file's documentation ("" without one).
func coshhAllocation(b *Bundle, i int, labels []string) string {
	cp := b.Capacity
	if cp == nil {
		return ""
	}
	var parts []string
	for t, l := range labels {
		if t < len(cp.Allocation) && i < len(cp.Allocation[t]) && cp.Allocation[t][i] > 0 {
			parts = append(parts, l+"="+strconv.FormatFloat(cp.Allocation[t][i], 'g', 4, 64))
		}
	}
	return strings.Join(parts, ",")
}

func typeCapacity(r ResourceInfo) float64 { return float64(r.Count) * float64(r.Slots) * r.ExecRate }

// classType picks class i's default machine type: the type that carries
// the most of its throughput in the COSHH allocation (allocation × μ), or
// bestType when the allocation gives it none (−1: none).
func classType(b *Bundle, i, types, bestType int) (int, string) {
	best, bestV := -1, 0.0
	if cp := b.Capacity; cp != nil {
		for t := range types {
			if t >= len(cp.Allocation) || i >= len(cp.Allocation[t]) {
				continue
			}
			mu := 1.0
			if t < len(b.Classes[i].Mu) {
				mu = b.Classes[i].Mu[t]
			}
			if v := cp.Allocation[t][i] * mu; v > bestV {
				best, bestV = t, v
			}
		}
	}
	if best >= 0 {
		return best, "the machine type carrying most of this class's throughput in the COSHH allocation"
	}
	return bestType, "the largest machine type (the COSHH allocation gives this class no machines: it runs on idle capacity only)"
}

// addLevels gives a class queue one leaf per LAS_MQ level, l0 the highest
// priority: on every partition the class has capacity on, the levels split
// it by the queue weights; its demotion threshold is the tuned one × held
// (held container-seconds per unit of the thresholds, HeldPerUnit).
func addLevels(q *csQueue, l *LASMQConfig, held float64) {
	for k := 0; k < l.K; k++ {
		lv := &csQueue{role: levelQueue, name: fmt.Sprintf("%s_l%d", q.name, k), share: map[string]int{}, labels: q.labels,
			defLabel: q.defLabel, desc: "as its class queue " + q.path}
		lv.path = q.path + "." + lv.name
		if k < len(l.Thresholds) {
			lv.threshold = l.Thresholds[k] * held
		}
		q.levels = append(q.levels, lv)
	}
	for part, s := range q.share {
		split := make([]int, l.K)
		if s > 0 {
			split = percentages(l.Weights, 10000)
		}
		for k, v := range split {
			q.levels[k].share[part] = v
		}
	}
}

// userLimitFactor returns a factor that lets one user grow to the whole of
// a leaf's maximum capacity (100%) on every partition where the leaf has a
// guarantee: 1 / the smallest positive absolute capacity, rounded up.
func userLimitFactor(abs map[string]float64) (float64, bool) {
	smallest := math.Inf(1)
	for _, a := range abs {
		if a > 0 {
			smallest = math.Min(smallest, a)
		}
	}
	if math.IsInf(smallest, 1) {
		return 0, false
	}
	return math.Max(1, math.Ceil(1/smallest-1e-9)), true
}

// CapacitySchedulerXML renders the bundle as a capacity-scheduler.xml:
//   - node labels only where confining classes to machine types is safe
//     (labelsSafe: every class's load fits its default type's COSHH
//     allocation with room, and every user is mapped to a class; a request
//     names one partition, so a labelled job runs on one type). Then every
//     machine type is a node label (YARNName of its name), a class queue's
//     capacity on label t is its share of the COSHH allocation of type t,
//     it may access the labels where that share is positive (a type the LP
//     leaves unused is split by work share), and its
//     default-node-label-expression is the type that carries most of its
//     throughput (default: the largest type). Otherwise the file names no
//     label (every machine in the default partition) and documents each
//     class's COSHH allocation in schedplan.coshh.<class>.allocation;
//     schedplan.node-labels says which and why;
//   - every job class is a queue under root; its capacity on the default
//     partition is its share of the offered work (α × mean size). Every
//     positive share is at least 0.01%;
//   - a queue "default" is guaranteed DefaultQueueShare of every partition:
//     applications that name no queue and match no user mapping run there;
//   - with LAS_MQ, each class queue and default have one leaf per level
//     (<queue>_l0 is the highest priority; leaf names are unique, as Hadoop
//     2.x requires and 3.x needs for short-name submission) whose
//     capacities are the queue weights; the demotion thresholds are
//     written beside them as yarn.DemoteAfterKey properties (YARN ignores
//     them; `schedplan yarn-controller` reads them and moves applications
//     between levels through the ResourceManager's REST API);
//     each leaf's ordering-policy is the tuned order inside a level (fifo;
//     fair for ps; fifo plus a schedplan.las-mq.<leaf>.order property for
//     remaining, which YARN lacks and nothing applies). Without
//     LAS_MQ, default is a leaf with the fair ordering-policy;
//   - every leaf has a user-limit-factor that lets one user use idle
//     capacity up to the queue's maximum (100%), minimum-user-limit-percent
//     LeafMinUserLimitPercent (active users split it evenly) and
//     maximum-applications 10000;
//   - yarn.scheduler.capacity.queue-mappings sends each user whose jobs all
//     fell into one class to that class's first leaf (UserConfig.Class),
//     and, with LAS_MQ, every other user to default's first level.
//
// Root's label settings are left to Hadoop (it ignores root's
// accessible-node-labels: root always accesses every label at 100%).
// Sibling capacities sum to exactly 100 on every partition, and a queue
// with capacity 0 on a partition has children with capacity 0 there
// (AbstractParentQueue.setChildQueues).
func CapacitySchedulerXML(b *Bundle) ([]byte, error) { return capacitySchedulerXML(b, 0) }

// capacitySchedulerXML is CapacitySchedulerXML; a containerMB > 0 (emit's
// --container-mb) is recorded as yarn.ContainerMBKey when the file has
// LAS_MQ demotions, so that yarn-controller converts memorySeconds to held
// container-seconds with the container size the file was emitted for.
func capacitySchedulerXML(b *Bundle, containerMB int) ([]byte, error) {
	p, err := planCapacityScheduler(b)
	if err != nil {
		return nil, fmt.Errorf("capacity-scheduler.xml: %w", err)
	}
	conf := &yarn.Configuration{}
	add := func(name, value, desc string) { conf.Add(yarn.CSPrefix+name, value, desc) }
	names := make([]string, len(p.queues))
	for i, q := range p.queues {
		names[i] = q.name
	}
	add("root.queues", strings.Join(names, ","), "one queue per job class (schedplan's COSHH classes), and default for applications that name no queue and match no mapping")
	conf.Add("schedplan.node-labels", strconv.FormatBool(p.labels != nil), p.why)
	mappings, mapDesc := queueMappings(b, p)
	add("queue-mappings", strings.Join(mappings, ","), mapDesc)
	demotes := false // a level has a demote-after threshold
	var write func(q *csQueue, parentAbs map[string]float64)
	write = func(q *csQueue, parentAbs map[string]float64) {
		pre := q.path + "."
		abs := map[string]float64{}
		for part, s := range q.share {
			abs[part] = float64(s) / 10000 * parentAbs[part]
		}
		capDesc, lvlDesc := "share of the offered work (α × mean job size)", "share of the COSHH allocation of this machine type"
		switch q.role {
		case defaultQueue:
			capDesc = "guaranteed to applications that name no queue and match no mapping"
			lvlDesc = capDesc
		case levelQueue:
			capDesc = "LAS_MQ queue weight (share of the class queue)"
			lvlDesc = capDesc
		}
		add(pre+"capacity", fmtPercent(q.share[yarn.NoLabel]), capDesc)
		add(pre+"maximum-capacity", "100", "")
		if len(q.labels) == 0 {
			add(pre+"accessible-node-labels", " ", "no machine type: this queue runs only on nodes without a label")
		} else {
			add(pre+"accessible-node-labels", strings.Join(q.labels, ","), "machine types this queue may use")
		}
		for _, l := range q.labels {
			add(pre+"accessible-node-labels."+l+".capacity", fmtPercent(q.share[l]), lvlDesc)
			add(pre+"accessible-node-labels."+l+".maximum-capacity", "100", "")
		}
		if q.defLabel != "" {
			add(pre+"default-node-label-expression", q.defLabel, "label given to requests that name none: "+q.desc)
		}
		if q.coshh != "" {
			conf.Add("schedplan.coshh."+q.path+".allocation", q.coshh, "COSHH's allocation to this class, machines of each type (not enforced: see schedplan.node-labels); YARN ignores this property")
		}
		if len(q.levels) == 0 {
			writeLeaf(add, pre, q, abs)
			return
		}
		lv := make([]string, len(q.levels))
		for k, c := range q.levels {
			lv[k] = c.name
		}
		add(pre+"queues", strings.Join(lv, ","), "LAS_MQ levels: "+lv[0]+" is the highest priority")
		policy, policyDesc, order := levelOrdering(b.LASMQ.Order)
		for k, c := range q.levels {
			write(c, abs)
			add(c.path+".ordering-policy", policy, policyDesc)
			if order != "" {
				conf.Add("schedplan.las-mq."+c.path+".order", order,
					"the tuned order inside this level is by estimated remaining work (seed 000 §3.3), least first; neither YARN nor schedplan yarn-controller applies it: YARN serves the level FIFO, which is how schedplan's validation simulates this file")
			}
			if k+1 < len(q.levels) {
				demotes = true
				conf.Add(yarn.DemoteAfterKey(c.path), strconv.FormatFloat(c.threshold, 'g', 10, 64),
					fmt.Sprintf("the controller moves an application from %s to %s once its attained service, in held container-seconds (containers × seconds held: memorySeconds / --container-mb), reaches this value (= the tuned threshold %s %s × %s held container-seconds per %s: the cluster's containers / the capacity it was tuned at); YARN ignores this property; `schedplan yarn-controller` applies it",
						c.path, q.levels[k+1].path, strconv.FormatFloat(c.threshold/p.held, 'g', 10, 64), p.unit, strconv.FormatFloat(p.held, 'g', 10, 64), strings.TrimSuffix(p.unit, "s")))
			}
		}
	}
	rootAbs := map[string]float64{yarn.NoLabel: 1}
	for _, l := range p.labels {
		rootAbs[l] = 1
	}
	for _, q := range p.queues {
		write(q, rootAbs)
	}
	if containerMB > 0 && demotes {
		conf.Add(yarn.ContainerMBKey, strconv.Itoa(containerMB),
			"the memory of one container, MB, that the demote-after-held-container-seconds thresholds assume: schedplan yarn-controller counts an application's held container-seconds as memorySeconds / this (and refuses a different --container-mb); YARN ignores this property")
	}
	return conf.Marshal("capacity-scheduler.xml: generated by schedplan")
}

// writeLeaf writes a leaf's application settings: user-limit-factor and
// minimum-user-limit-percent (a user may use idle capacity up to the
// queue's maximum; active users split the leaf evenly), maximum-applications,
// and, for the default queue, the fair ordering-policy (level leaves take
// LAS_MQ's order, written by their class queue).
func writeLeaf(add func(name, value, desc string), pre string, q *csQueue, abs map[string]float64) {
	if f, ok := userLimitFactor(abs); ok {
		add(pre+"user-limit-factor", strconv.FormatFloat(f, 'f', -1, 64),
			"lets one user use idle capacity up to the queue's maximum capacity (YARN's default 1 holds a user to the queue's guaranteed capacity)")
	}
	add(pre+"minimum-user-limit-percent", strconv.Itoa(LeafMinUserLimitPercent),
		"active users split the queue evenly, each up to the average of their containers (YARN's default 100 serves users in submission order)")
	add(pre+"maximum-applications", strconv.Itoa(maxApplications),
		"YARN's default is yarn.scheduler.capacity.maximum-system-applications × the queue's absolute capacity, which refuses every application of a queue with a small or zero guarantee")
	if q.role == defaultQueue {
		add(pre+"ordering-policy", yarn.FairOrdering, "applications share the queue (FairOrderingPolicy: the one holding the fewest containers is served first), as the Fair Scheduler shares a pool; fifo would let one large job hold every container")
	}
}

// maxApplications is every leaf's maximum-applications: Hadoop's
// maximum-system-applications default.
const maxApplications = 10000

// queueMappings maps every user whose jobs all fell into one class to that
// class's first leaf, and documents the others.
func queueMappings(b *Bundle, p *csPlan) ([]string, string) {
	leaf := map[string]string{}
	for _, q := range p.queues {
		if len(q.levels) > 0 {
			leaf[q.name] = q.levels[0].name
		} else {
			leaf[q.name] = q.name
		}
	}
	other := "root.default"
	if leaf["default"] != "default" {
		other = "root.default's LAS_MQ levels"
	}
	var maps, spanning, unmappable []string
	for _, u := range b.Users {
		if u.Jobs == 0 {
			continue
		}
		target, ok := leaf[YARNName(u.Class)]
		switch {
		case u.Class == "" || !ok:
			spanning = append(spanning, u.Name)
		case strings.ContainsAny(u.Name, ",: \t\n") || u.Name == "":
			unmappable = append(unmappable, u.Name)
		default:
			maps = append(maps, "u:"+u.Name+":"+target)
		}
	}
	desc := "user → queue: each user whose jobs all fell into one class is sent to that class's first leaf when an application names no queue"
	if len(maps) == 0 {
		desc = "no user's jobs all fell into one class, so no user is mapped"
	}
	if len(spanning) > 0 {
		desc += fmt.Sprintf("; the jobs of %s span several classes: their applications should name their class's queue (e.g. mapreduce.job.queuename=<class>_l0), otherwise they run in %s", listNames(spanning), other)
	}
	if len(unmappable) > 0 {
		desc += fmt.Sprintf("; %s cannot be mapped (a ',', ':' or space in the name)", listNames(unmappable))
	}
	if l := leaf["default"]; l != "default" {
		maps = append(maps, "u:%user:"+l)
		desc += "; last, every other user's applications that name no queue (or default) go to " + l + ", the first LAS_MQ level of root.default (default is a parent queue: its levels demote as a class's do)"
	}
	return maps, desc
}

func listNames(names []string) string {
	const show = 10
	switch {
	case len(names) == 1:
		return "user " + names[0]
	case len(names) <= show:
		return "users " + strings.Join(names, ", ")
	}
	return fmt.Sprintf("users %s and %d more", strings.Join(names[:show], ", "), len(names)-show)
}

// FairSchedulerOptions set how containers translate to YARN resources.
type FairSchedulerOptions struct {
	ContainerMB     int // memory of one container; default 1024
	ContainerVCores int // vcores of one container; default 1
}

// withDefaults fills the options left at 0 (or below) with their defaults.
func (o FairSchedulerOptions) withDefaults() FairSchedulerOptions {
	if o.ContainerMB <= 0 {
		o.ContainerMB = 1024
	}
	if o.ContainerVCores <= 0 {
		o.ContainerVCores = 1
	}
	return o
}

// FairSchedulerXML renders the bundle's users as a Fair Scheduler allocation
// file: a queue per user under root, named as the Fair Scheduler's user
// placement rule looks for it (yarn.CleanName: alice.smith → alice_dot_smith),
// with the user's weight and, when it has a min share, minResources (min
// share containers × container size); a default queue for everyone else;
// fair scheduling inside queues; placement by the queue the application
// names, else its user's queue (not created on the fly), else default.
func FairSchedulerXML(b *Bundle, opt FairSchedulerOptions) ([]byte, error) {
	opt = opt.withDefaults()
	root := yarn.NewFSQueue("root")
	root.SchedulingPolicy = "fair"
	seen := map[string]string{}
	for _, u := range b.Users {
		name, err := yarn.UserQueueName(u.Name)
		if err != nil {
			return nil, fmt.Errorf("fair-scheduler.xml: %w", err)
		}
		if other, dup := seen[name]; dup {
			return nil, fmt.Errorf("fair-scheduler.xml: users %q and %q map to one queue name %q", other, u.Name, name)
		}
		seen[name] = u.Name
		q := root.Add(yarn.NewFSQueue(name))
		q.SchedulingPolicy = "fair"
		if u.Weight > 0 {
			q.Weight = u.Weight
		}
		if u.MinShare > 0 {
			c := math.Ceil(u.MinShare)
			mb, vc := c*float64(opt.ContainerMB), c*float64(opt.ContainerVCores)
			if mb > math.MaxInt32 || vc > math.MaxInt32 {
				return nil, fmt.Errorf("fair-scheduler.xml: user %q: min_share %v containers × %d MB is more memory than YARN can express (%d MB)", u.Name, u.MinShare, opt.ContainerMB, math.MaxInt32)
			}
			q.MinResources = &yarn.Resource{MemoryMB: int64(mb), VCores: int64(vc)}
		}
	}
	if seen["default"] == "" {
		q := root.Add(yarn.NewFSQueue("default"))
		q.SchedulingPolicy = "fair"
	}
	fs := &yarn.FairScheduler{
		Root: root, DefaultQueueSchedulingPolicy: "fair", PlacementConfigured: true,
		Placement: []yarn.PlacementRule{
			{Name: "specified", Create: false},
			{Name: "user", Create: false},
			{Name: "default", Create: true, Queue: "root.default"},
		},
	}
	return fs.Marshal("fair-scheduler.xml: generated by schedplan")
}

// CheckCapacitySchedulerXML parses a capacity-scheduler.xml and applies
// Hadoop's load-time rules (cluster/yarn); any problem, error or warning, is
// an error.
func CheckCapacitySchedulerXML(data []byte) error {
	return checkCS(data, yarn.CSCheckOptions{})
}

func checkCS(data []byte, opt yarn.CSCheckOptions) error {
	cs, err := yarn.ParseCapacityScheduler(data)
	if err != nil {
		return fmt.Errorf("capacity-scheduler.xml: %w", err)
	}
	return cs.Check(opt).Err("capacity-scheduler.xml")
}

// CheckFairSchedulerXML parses a Fair Scheduler allocation file and applies
// Hadoop's load-time rules (cluster/yarn); any problem is an error.
func CheckFairSchedulerXML(data []byte) error {
	return checkFS(data, yarn.FSCheckOptions{})
}

func checkFS(data []byte, opt yarn.FSCheckOptions) error {
	fs, err := yarn.ParseFairScheduler(data)
	if err != nil {
		return fmt.Errorf("fair-scheduler.xml: %w", err)
	}
	return fs.Check(opt).Err("fair-scheduler.xml")
}

// RenderYARN renders both YARN files of a bundle (keyed by file name) and
// checks each with Hadoop's rules for the cluster the bundle describes:
// when the capacity-scheduler.xml names node labels, every machine type is
// a label and no node is unlabelled; when it names none, no node has a
// label; and every user of the bundle lands in their own Fair Scheduler
// queue.
func RenderYARN(b *Bundle, opt FairSchedulerOptions) (map[string][]byte, error) {
	opt = opt.withDefaults()
	cs, err := capacitySchedulerXML(b, opt.ContainerMB)
	if err != nil {
		return nil, err
	}
	parsed, err := yarn.ParseCapacityScheduler(cs)
	if err != nil {
		return nil, fmt.Errorf("the generated capacity-scheduler.xml: %w", err)
	}
	if err := checkCS(cs, capacityCheckOptions(b, parsed)); err != nil {
		return nil, fmt.Errorf("the generated file breaks YARN's rules: %w", err)
	}
	fs, err := FairSchedulerXML(b, opt)
	if err != nil {
		return nil, err
	}
	users := make([]string, len(b.Users))
	for i, u := range b.Users {
		users[i] = u.Name
	}
	if err := checkFS(fs, yarn.FSCheckOptions{Users: users}); err != nil {
		return nil, fmt.Errorf("the generated file breaks YARN's rules: %w", err)
	}
	return map[string][]byte{"capacity-scheduler.xml": cs, "fair-scheduler.xml": fs}, nil
}

// capacityCheckOptions describes the cluster an emitted
// capacity-scheduler.xml is for: when the file names node labels, every
// machine type of the bundle is labelled with its YARNName and no node is
// unlabelled; when it names none, the cluster has no labels.
func capacityCheckOptions(b *Bundle, cs *yarn.CapacityScheduler) yarn.CSCheckOptions {
	opt := yarn.CSCheckOptions{ClusterLabels: []string{}}
	if namesLabels(cs) {
		for _, r := range b.Cluster.Resources {
			opt.ClusterLabels = append(opt.ClusterLabels, YARNName(r.Name))
		}
		opt.NoUnlabelledNodes = true
	}
	return opt
}

// AssignUserClasses records in b.Users[*].Class the class that holds all of
// a user's jobs, when there is one (the capacity-scheduler.xml queue
// mappings send such users to their class's queue). users are the names of
// the users of the jobs classified, userOfRow the user of every row of the
// jobs table, and rows/assign the classification (rows nil: every row, in
// order; assign[q] the class of row rows[q]). Users whose jobs span classes
// keep Class empty.
func AssignUserClasses(b *Bundle, users []string, userOfRow []int32, rows []int, assign []int32) error {
	class := make([]int32, len(users))
	for i := range class {
		class[i] = -1
	}
	const spans = -2
	for q, c := range assign {
		row := q
		if rows != nil {
			if q >= len(rows) {
				return errors.New("classification: more assignments than rows")
			}
			row = rows[q]
		}
		if row < 0 || row >= len(userOfRow) || int(userOfRow[row]) >= len(users) || userOfRow[row] < 0 {
			return fmt.Errorf("classification: row %d has no user", row)
		}
		if c < 0 || int(c) >= len(b.Classes) {
			return fmt.Errorf("classification: row %d is in class %d of %d", row, c, len(b.Classes))
		}
		u := userOfRow[row]
		switch class[u] {
		case -1:
			class[u] = c
		case c, spans:
		default:
			class[u] = spans
		}
	}
	byName := map[string]int32{}
	for i, n := range users {
		byName[n] = class[i]
	}
	for i := range b.Users {
		b.Users[i].Class = ""
		if c, ok := byName[b.Users[i].Name]; ok && c >= 0 {
			b.Users[i].Class = b.Classes[c].Name
		}
	}
	return nil
}

// levelOrdering maps LAS_MQ's order inside a level to the leaf's YARN
// ordering-policy (CapacitySchedulerConfiguration.getAppOrderingPolicy:
// "fifo" or "fair"), its description, and the order the controller applies
// where YARN has no policy for it ("" when YARN's policy is the order).
func levelOrdering(o sim.LevelOrder) (policy, desc, controller string) {
	switch o {
	case sim.OrderPS:
		return "fair", "LAS_MQ level shared among its applications (FairOrderingPolicy; the tuned order ps)", ""
	case sim.OrderRemaining:
		return "fifo", "YARN's closest policy to the tuned order by remaining work (recorded in schedplan.las-mq.<leaf>.order, which nothing applies)", string(o)
	}
	return "fifo", "LAS_MQ level served in order of entry (the tuned order fifo)", ""
}
