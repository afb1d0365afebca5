package bundle

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/schedplan/schedplan/cluster/sim"
	"github.com/schedplan/schedplan/cluster/yarn"
	"github.com/schedplan/schedplan/internal/lazyre"
	"github.com/schedplan/schedplan/pipeline/tuner"
)

// This file renders a Bundle as YARN scheduler configuration:
// capacity-scheduler.xml (Capacity Scheduler with node labels) and
// fair-scheduler.xml (a Fair Scheduler allocation file), and checks both
// with cluster/yarn, which applies Hadoop's own load-time rules.

var yarnNameRe = lazyre.New(`[^0-9A-Za-z_-]`)

// YARNName turns s into a valid YARN node-label (and Capacity Scheduler
// queue) name: letters, digits, '-' and '_', starting with a letter or digit
// (NodeLabelUtil's rule; '.' separates queue path components and is never
// allowed in a name).
func YARNName(s string) string {
	n := yarnNameRe().ReplaceAllString(s, "_")
	if n == "" || n[0] == '_' || n[0] == '-' {
		n = "q" + n
	}
	return n
}

// Percentages splits total hundredths of a percent in proportion to w by
// largest-remainder rounding, so that the parts sum to exactly total; then
// every positive weight that rounded to 0 takes one hundredth from the
// largest part (a queue with a positive share never gets capacity 0), when
// total allows it. Weights that are not finite and positive count as 0;
// all-zero (or empty) weights split evenly. Only integers decide the loop
// bounds, and the weights are scaled by their maximum first, so no product
// or sum overflows (1e308 weights included).
func Percentages(w []float64, total int) []int {
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

// CapacityLayoutVersion changes when the capacity-scheduler.xml layout
// changes, so that older stamps of the emit stage are stale (3: demotion
// thresholds in held container-seconds, demote-after-held-container-seconds;
// 4: the container size they assume, schedplan.container-mb; 5: routing by
// what a cluster knows (the log's queues, users mapped to their class),
// capacities by the work routed to each queue, LAS_MQ levels as sibling
// leaves of the queue applications land in, application limits from the
// log's peak concurrency); 6: the log's queues at their paths, under
// parent queues, instead of flattened to their last component).
const CapacityLayoutVersion = 6

// MinQueueShare is the least guaranteed capacity (hundredths of a percent
// of root) of a queue that receives no work by the routing (a class queue
// no user is mapped to, a default queue every application bypasses), so
// that an application naming it still runs; all such floors together take
// at most MaxFloorShare, so the queues that receive the work keep at least
// 90% of the cluster.
const (
	MinQueueShare = 100
	MaxFloorShare = 1000
)

// MinLevelShare is the least share of its queue's capacity a LAS_MQ level
// gets, as a fraction of the queue's weights (zero decay gives the levels
// after the first weight 0): a leaf with capacity 0 gets no
// user-limit-factor that lets a user grow, and whether its applications
// get any user limit at all differs between Hadoop versions.
const MinLevelShare = 0.01

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
	defaultQueue
	logQueue    // a queue of the log's queue column
	parentQueue // a parent of the log's queues (root.dev of root.dev.adhoc)
)

// csQueue is a queue being rendered: a queue applications land in (a
// class's or default under root, the log's at its path) and, with LAS_MQ,
// each of its levels, its siblings; or a parent of the log's queues.
type csQueue struct {
	role       int
	name, path string
	parent     *csQueue       // nil: root
	share      map[string]int // partition ("" = default) → capacity, hundredths of the parent's
	labels     []string       // accessible labels, in type order
	defLabel   string
	work       float64 // share of the offered work routed here (top level)
	level      int     // LAS_MQ level: 0 is the queue applications land in
	next       *csQueue
	threshold  float64 // demotion threshold to next, in held container-seconds
	desc       string
	coshh      string // the class's COSHH allocation, when not expressed as labels
}

// csPlan is the queue tree of a bundle.
type csPlan struct {
	labels []string   // one per machine type; nil: no node labels
	why    string     // why there are (no) node labels
	queues []*csQueue // where applications land: classes (or the log's queues), then default
	leaves []*csQueue // every leaf, each queue of queues followed by its lower levels
	inner  []*csQueue // the parents of the log's queues, parents first
	unit   string     // threshold unit of the bundle
	held   float64    // held container-seconds per unit (Bundle.HeldPerUnit)
	// kids are every queue's children in the file's order (nil: root's),
	// each queue of queues followed by its lower levels.
	kids map[*csQueue][]*csQueue
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
	if err := topQueues(b, p); err != nil {
		return nil, err
	}
	for _, sib := range p.kids {
		work := make([]float64, len(sib))
		for i, q := range sib {
			work[i] = q.work
		}
		for i, v := range flooredPercentages(work, 10000) {
			sib[i].share[yarn.NoLabel] = v
		}
	}
	def := p.queues[len(p.queues)-1]
	classTotal := 10000 - def.share[yarn.NoLabel]
	nc := 0
	if len(b.Queues) == 0 {
		nc = len(b.Classes)
	}
	var safe bool
	if safe, p.why = labelsSafe(b, labels); safe {
		p.labels = labels
		classWork := make([]float64, nc)
		for i, c := range b.Classes[:nc] {
			classWork[i] = c.Alpha * c.MeanSize
		}
		planLabels(b, p, classWork, classTotal, bestType)
	} else {
		for i, q := range p.queues[:nc] {
			q.coshh = coshhAllocation(b, i, labels)
		}
	}
	if p.labels != nil {
		def.desc = "the largest machine type"
		def.labels = append(def.labels, p.labels...)
		for _, l := range p.labels {
			def.share[l] = 10000 - classTotal
		}
		def.defLabel = p.labels[bestType]
	}
	l := b.LASMQ
	if l == nil || l.K <= 1 {
		p.leaves = p.queues
		return p, nil
	}
	levelsOf := map[*csQueue][]*csQueue{}
	var err error
	if p.unit, _, err = b.ThresholdUnit(); err != nil {
		return nil, err
	}
	if p.held, err = b.HeldPerUnit(); err != nil {
		return nil, err
	}
	taken := map[string]bool{}
	for _, q := range append(p.inner, p.queues...) {
		taken[q.name] = true
	}
	for _, q := range p.queues {
		levels, err := addLevels(q, l, p.held, taken)
		if err != nil {
			return nil, err
		}
		p.leaves = append(p.leaves, levels...)
		levelsOf[q] = levels[1:]
	}
	for parent, sib := range p.kids {
		var with []*csQueue
		for _, q := range sib {
			with = append(append(with, q), levelsOf[q]...)
		}
		p.kids[parent] = with
	}
	return p, nil
}

// absolute returns the queue's capacity on a partition as a fraction of
// root's: its share of its parent's times its parent's.
func (q *csQueue) absolute(part string) float64 {
	a := 1.0
	for ; q != nil; q = q.parent {
		a *= float64(q.share[part]) / 10000
	}
	return a
}

// topQueues decides the queues applications land in and the share of the
// offered work routed to each (see routing.go): the log's queues at their
// paths when it has them (logQueueTree), else one per class (the work of
// the users mapped to it); and default (the work of everyone else, or of
// the log's jobs that named no queue). A bundle written before the users'
// work was recorded takes their share of the jobs instead (userWork); one
// without jobs either routes each class's work (α × mean size) to its
// queue.
func topQueues(b *Bundle, p *csPlan) error {
	seen := map[string]bool{}
	p.kids = map[*csQueue][]*csQueue{}
	add := func(role int, name string, work float64) error {
		if seen[name] {
			return fmt.Errorf("queue name %q is taken", name)
		}
		seen[name] = true
		q := &csQueue{role: role, name: name, path: "root." + name, share: map[string]int{}, work: work}
		p.queues = append(p.queues, q)
		p.kids[nil] = append(p.kids[nil], q)
		return nil
	}
	if len(b.Queues) > 0 {
		defWork, err := logQueueTree(b.Queues, p)
		if err != nil {
			return err
		}
		return add(defaultQueue, "default", defWork)
	}
	defWork := 0.0
	seen["default"] = true
	byClass := map[string]int{}
	for i, c := range b.Classes {
		if err := add(classQueue, YARNName(c.Name), 0); err != nil {
			return fmt.Errorf("class %q: %w", c.Name, err)
		}
		byClass[c.Name] = i
	}
	work := userWork(b.Users)
	for k, u := range b.Users {
		if i, ok := byClass[u.Class]; ok && mappable(u.Name) {
			p.queues[i].work += work[k]
		} else {
			defWork += work[k]
		}
	}
	if work == nil {
		for i, c := range b.Classes {
			p.queues[i].work = c.Alpha * c.MeanSize
		}
	}
	delete(seen, "default")
	return add(defaultQueue, "default", defWork)
}

// logQueueTree adds the log's queues to p at their paths (LogQueuePath of
// QueueConfig.Name; a bundle written when the names were short reads
// "prod" as root.prod), each leaf under its parents, whose work is their
// leaves' (the Capacity Scheduler's hierarchy: a parent's children split
// its capacity, AbstractParentQueue.setChildQueues). It returns the work
// of the log's root.default, which the caller's default queue takes. A
// queue the log's applications ran in that is also the parent of another
// is refused (CapacityScheduler.addApplication refuses a parent queue,
// so the log cannot come from one cluster), and so are two leaves of one
// name (CapacityScheduler.addQueue refuses them in 2.x; CSQueueStore
// makes the short name ambiguous in 3.x).
func logQueueTree(queues []QueueConfig, p *csPlan) (float64, error) {
	byPath := map[string]*csQueue{}
	leafPath := map[string]string{"default": "root.default"}
	defWork := 0.0
	for _, lq := range queues {
		path := LogQueuePath(lq.Name)
		if path == "root.default" {
			defWork += lq.Work
			continue
		}
		parts := strings.Split(path, ".")[1:]
		var parent *csQueue
		for k, name := range parts {
			at := "root." + strings.Join(parts[:k+1], ".")
			q := byPath[at]
			leaf := k == len(parts)-1
			switch {
			case q == nil:
				q = &csQueue{role: parentQueue, name: name, path: at, parent: parent, share: map[string]int{}}
				byPath[at] = q
				p.kids[parent] = append(p.kids[parent], q)
				if !leaf {
					p.inner = append(p.inner, q)
				}
			case leaf == (q.role == parentQueue):
				return 0, fmt.Errorf("the log's queue %s: applications ran in it and in its child queues; YARN admits none to a parent queue (CapacityScheduler.addApplication)", at)
			case leaf:
				return 0, fmt.Errorf("the log's queue %s: listed twice", at)
			}
			q.work += lq.Work
			parent = q
		}
		parent.role = logQueue
		if other, dup := leafPath[parent.name]; dup {
			return 0, fmt.Errorf("the log's queues %s and %s: two leaves named %s (Hadoop 2.x refuses the file, CapacityScheduler.addQueue; 3.x refuses an application naming %q as ambiguous, CSQueueStore.isAmbiguous)", other, path, parent.name, parent.name)
		}
		leafPath[parent.name] = path
		p.queues = append(p.queues, parent)
	}
	return defWork, nil
}

// userWork returns every user's share of the offered work: UserConfig.Work,
// or, in a bundle written before it was recorded, the user's share of the
// jobs; nil when neither is known.
func userWork(users []UserConfig) []float64 {
	work, jobs := 0.0, 0
	for _, u := range users {
		work += u.Work
		jobs += u.Jobs
	}
	if !(work > 0) && jobs == 0 {
		return nil
	}
	out := make([]float64, len(users))
	for k, u := range users {
		out[k] = u.Work
		if !(work > 0) {
			out[k] = float64(u.Jobs) / float64(jobs)
		}
	}
	return out
}

// mappable reports whether a queue mapping can name the user (its name has
// no ',', ':' or space: CapacitySchedulerConfiguration.getQueueMappings
// splits on them).
func mappable(user string) bool {
	return user != "" && !strings.ContainsAny(user, ",: \t\n")
}

// flooredPercentages splits total hundredths among queues in proportion to
// the work routed to them: every queue first gets a floor, MinQueueShare
// but at most MaxFloorShare/len(w) (so the floors together take at most
// MaxFloorShare), and the rest is split by percentages. With no positive
// work at all the queues split total evenly.
func flooredPercentages(w []float64, total int) []int {
	n := len(w)
	if n == 0 {
		return nil
	}
	floor := min(MinQueueShare, MaxFloorShare/n, total/n)
	out := Percentages(w, total-floor*n)
	for i := range out {
		out[i] += floor
	}
	return out
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
		for i, v := range Percentages(alloc, classTotal) {
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
// the queue of a class that holds all of their jobs (ClassShare 1; else
// their jobs of other classes, or all of them, run on one type that is not
// theirs), and the top level is the classes (not the log's queues).
// Otherwise the file names no labels: every machine is in the
// default partition, and the classes share it by their capacities. The
// second result says why, for the file's description.
func labelsSafe(b *Bundle, labels []string) (bool, string) {
	const none = "no node labels: deploy with every machine in the default partition (no yarn.node-labels); "
	switch {
	case len(labels) < 2:
		return false, none + "the cluster has one machine type"
	case b.Capacity == nil:
		return false, none + "the bundle has no COSHH allocation"
	case len(b.Queues) > 0:
		return false, none + "the log's own queues are the top level (applications name them), not the classes COSHH allocates machines to"
	}
	for _, u := range b.Users {
		if u.Jobs > 0 && (u.Class == "" || (u.ClassShare > 0 && u.ClassShare < 1)) {
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

// addLevels returns a queue's LAS_MQ levels as leaves under its parent:
// the queue itself is level 0 (applications land in it, by name or
// mapping) and q.name_l1 … its lower levels, to which the controller
// demotes (each level's next sibling: yarn.Demotions). The levels are
// siblings, not children, so that the queue stays a leaf that accepts
// submissions (CapacityScheduler.addApplication refuses a parent queue)
// and keeps its path. On every partition the levels split the queue's
// capacity by the queue weights, each level at least MinLevelShare of
// them; a demotion threshold is the tuned one × held (held
// container-seconds per unit of the thresholds, HeldPerUnit).
func addLevels(q *csQueue, l *tuner.LASMQConfig, held float64, taken map[string]bool) ([]*csQueue, error) {
	levels := []*csQueue{q}
	for k := 1; k < l.K; k++ {
		name := fmt.Sprintf("%s_l%d", q.name, k)
		if taken[name] {
			return nil, fmt.Errorf("queue %s: the name of its LAS_MQ level %d, %s, is taken", q.path, k, name)
		}
		taken[name] = true
		levels = append(levels, &csQueue{role: q.role, name: name, path: strings.TrimSuffix(q.path, q.name) + name, parent: q.parent, share: map[string]int{}, labels: q.labels,
			defLabel: q.defLabel, level: k, desc: fmt.Sprintf("as %s, whose LAS_MQ level %d this is", q.path, k)})
	}
	for k, lv := range levels {
		if k < len(l.Thresholds) && k+1 < len(levels) {
			lv.threshold = l.Thresholds[k] * held
			lv.next = levels[k+1]
		}
	}
	w := levelWeights(l.Weights, l.K)
	shares := map[string][]int{}
	for part, s := range q.share {
		shares[part] = make([]int, l.K)
		if s > 0 {
			shares[part] = Percentages(w, s)
		}
	}
	for part, split := range shares {
		for k, v := range split {
			levels[k].share[part] = v
		}
	}
	return levels, nil
}

// levelWeights returns k LAS_MQ queue weights, each at least
// MinLevelShare of their sum (all equal when none is positive).
func levelWeights(w []float64, k int) []float64 {
	out := make([]float64, k)
	sum := 0.0
	for i := range out {
		if i < len(w) && w[i] > 0 && !math.IsInf(w[i], 0) {
			out[i] = w[i]
			sum += w[i]
		}
	}
	if !(sum > 0) {
		for i := range out {
			out[i] = 1
		}
		return out
	}
	for i := range out {
		out[i] = max(out[i], MinLevelShare*sum)
	}
	return out
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
//   - the leaves are where applications land (see routing.go): the log's
//     own queues at their paths when the log has a queue column
//     (applications name them, as they did; root.dev.adhoc is a leaf adhoc
//     under a parent dev, whose children's capacities sum to 100), else
//     one top-level queue per job class, to which each user
//     whose jobs are mostly (UserClassShare) of that class is mapped; and
//     "default", where every other application lands (it names no queue
//     and matches no mapping);
//   - each queue's capacity on the default partition is the share of
//     its parent's offered work routed to it (Bundle.Users[].Work,
//     Bundle.Queues[].Work); a queue that receives none keeps a floor
//     (MinQueueShare, all floors together at most MaxFloorShare), so the
//     queues that receive the work hold at least 90% and no queue has
//     capacity 0;
//   - node labels only where confining classes to machine types is safe
//     (labelsSafe: class queues, every class's load fits its default
//     type's COSHH allocation with room, and every user is mapped to a
//     class; a request names one partition, so a labelled job runs on one
//     type). Then every machine type is a node label (YARNName of its
//     name), a class queue's capacity on label t is its share of the COSHH
//     allocation of type t, it may access the labels where that share is
//     positive (a type the LP leaves unused is split by work share), and
//     its default-node-label-expression is the type that carries most of
//     its throughput (default: the largest type). Otherwise the file names
//     no label (every machine in the default partition) and documents each
//     class's COSHH allocation in schedplan.coshh.<class>.allocation;
//     schedplan.node-labels says which and why;
//   - with LAS_MQ, each top-level queue is its level 0 and has sibling
//     leaves <queue>_l1 … for the lower levels (addLevels: a queue that
//     stays a leaf accepts submissions by its name); the levels split the
//     queue's capacity by the queue weights (each at least MinLevelShare);
//     the demotion thresholds are written beside them as
//     yarn.DemoteAfterKey properties (YARN ignores them; `schedplan
//     yarn-controller` reads them and moves applications to the next
//     level through the ResourceManager's REST API); each leaf's
//     ordering-policy is the tuned order inside a level (fifo; fair for
//     ps; fifo plus a schedplan.las-mq.<leaf>.order property for
//     remaining, which YARN lacks and nothing applies). Without LAS_MQ,
//     default and the log's queues have the fair ordering-policy;
//   - every leaf has a user-limit-factor that lets one user use idle
//     capacity up to the queue's maximum (100%),
//     minimum-user-limit-percent LeafMinUserLimitPercent (active users
//     split it evenly) and a maximum-applications that admits, per user,
//     at least twice the log's peak concurrent applications of one user
//     (leafApplications);
//   - yarn.scheduler.capacity.queue-mappings maps each user whose jobs are
//     mostly of one class to that class's queue (UserConfig.Class).
//
// Root's label settings are left to Hadoop (it ignores root's
// accessible-node-labels: root always accesses every label at 100%).
// Sibling capacities sum to exactly 100 on every partition
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
	top := "one queue per job class (schedplan's COSHH classes), and default for applications that name no queue and match no mapping"
	if len(b.Queues) > 0 {
		top = "the log's own queues at their paths (applications name them, as they did), and default for applications that name no queue"
	}
	if len(p.leaves) > len(p.queues) {
		top += "; each is its LAS_MQ level 0, followed by its lower levels <queue>_l1 …"
	}
	add("root.queues", childNames(p.kids[nil]), top)
	for _, q := range p.inner {
		add(q.path+".queues", childNames(p.kids[q]), "the log's queues under "+q.path)
		add(q.path+".capacity", fmtPercent(q.share[yarn.NoLabel]), "share of the offered work routed to the log's queues under "+q.path+" (their capacities split this queue's, summing to 100)")
		add(q.path+".maximum-capacity", "100", "")
		add(q.path+".accessible-node-labels", " ", "no machine type: this queue runs only on nodes without a label")
	}
	conf.Add("schedplan.node-labels", strconv.FormatBool(p.labels != nil), p.why)
	mappings, mapDesc := queueMappings(b, p)
	if len(mappings) > 0 {
		add("queue-mappings", strings.Join(mappings, ","), mapDesc)
	} else {
		conf.Add("schedplan.queue-mappings", "none", mapDesc+"; YARN ignores this property")
	}
	lim := leafApplications(b)
	if lim.system > defaultMaxApplications {
		add("maximum-applications", strconv.Itoa(lim.system), fmt.Sprintf("maximum-system-applications: twice the sum of the log's peak concurrent applications of each user (%d); YARN's default is %d", lim.system/2, defaultMaxApplications))
	}
	demotes := false // a level has a demote-after threshold
	levels := len(p.leaves) > len(p.queues)
	policy, policyDesc, order := "", "", ""
	if levels {
		policy, policyDesc, order = levelOrdering(b.LASMQ.Order)
	}
	for _, q := range p.leaves {
		pre := q.path + "."
		abs := map[string]float64{}
		for part := range q.share {
			abs[part] = q.absolute(part)
		}
		capDesc, lvlDesc := "share of the offered work routed here (the work of the applications that land in this queue)", "share of the COSHH allocation of this machine type"
		switch {
		case q.parent != nil && q.level == 0 && q.work > 0:
			capDesc = "share of the offered work routed to " + q.parent.path + " that lands in this queue"
		case q.level > 0:
			capDesc = fmt.Sprintf("LAS_MQ level %d: the queue weight's share of %s", q.level, strings.TrimSuffix(q.path, fmt.Sprintf("_l%d", q.level)))
			lvlDesc = capDesc
		case q.work == 0:
			capDesc = "no work is routed here: a floor, so that applications naming this queue run"
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
		writeLeaf(add, pre, abs, lim)
		switch {
		case levels:
			add(pre+"ordering-policy", policy, policyDesc)
			if order != "" {
				conf.Add("schedplan.las-mq."+q.path+".order", order,
					"the tuned order inside this level is by estimated remaining work (seed 000 §3.3), least first; neither YARN nor schedplan yarn-controller applies it: YARN serves the level FIFO, which is how schedplan's validation simulates this file")
			}
		case q.role != classQueue:
			add(pre+"ordering-policy", yarn.FairOrdering, "applications share the queue (FairOrderingPolicy: the one holding the fewest containers is served first), as the Fair Scheduler shares a pool; fifo would let one large job hold every container")
		}
		if q.next != nil {
			demotes = true
			conf.Add(yarn.DemoteAfterKey(q.path), strconv.FormatFloat(q.threshold, 'g', 10, 64),
				fmt.Sprintf("the controller moves an application from %s to %s once its attained service, in held container-seconds (containers × seconds held: memorySeconds / --container-mb), reaches this value (= the tuned threshold %s %s × %s held container-seconds per %s: the cluster's containers / the capacity it was tuned at); YARN ignores this property; `schedplan yarn-controller` applies it",
					q.path, q.next.path, strconv.FormatFloat(q.threshold/p.held, 'g', 10, 64), p.unit, strconv.FormatFloat(p.held, 'g', 10, 64), strings.TrimSuffix(p.unit, "s")))
		}
	}
	if containerMB > 0 && demotes {
		conf.Add(yarn.ContainerMBKey, strconv.Itoa(containerMB),
			"the memory of one container, MB, that the demote-after-held-container-seconds thresholds assume: schedplan yarn-controller counts an application's held container-seconds as memorySeconds / this (and refuses a different --container-mb); YARN ignores this property")
	}
	return conf.Marshal("capacity-scheduler.xml: generated by schedplan")
}

// defaultMaxApplications is Hadoop's maximum-system-applications default
// (CapacitySchedulerConfiguration.DEFAULT_MAXIMUM_SYSTEM_APPLICATIIONS).
const defaultMaxApplications = 10000

// appLimits are the application limits the leaves must admit.
type appLimits struct {
	perUser int // applications of one user in one leaf
	system  int // applications in the system (and in one leaf)
}

// leafApplications derives the application limits from the log's peak
// concurrency (UserConfig.PeakApps: a fluid replay of the tuned LAS_MQ;
// a user's applications may all be in one level): twice the largest peak
// of one user, and twice the sum of the users' peaks (at least
// defaultMaxApplications). Twice: the task level's and YARN's applications
// run longer than the fluid replay's.
func leafApplications(b *Bundle) appLimits {
	peak, sum := 0, 0
	for _, u := range b.Users {
		peak = max(peak, u.PeakApps)
		sum += u.PeakApps
	}
	return appLimits{perUser: max(2*peak, 1), system: max(2*sum, defaultMaxApplications)}
}

// writeLeaf writes a leaf's user and application limits:
// user-limit-factor and minimum-user-limit-percent (a user may use idle
// capacity up to the queue's maximum; active users split the leaf evenly)
// and maximum-applications, so that Hadoop's per-user application limit,
// min(maximum-applications, ⌊maximum-applications ×
// minimum-user-limit-percent/100 × user-limit-factor⌋)
// (AbstractLeafQueue.setupQueueConfigs, Hadoop 3.4; LeafQueue in 2.x),
// admits lim.perUser: a move (the controller's demotion) or submission
// beyond it is refused.
func writeLeaf(add func(name, value, desc string), pre string, abs map[string]float64, lim appLimits) {
	ulf, ok := userLimitFactor(abs)
	if ok {
		add(pre+"user-limit-factor", strconv.FormatFloat(ulf, 'f', -1, 64),
			"lets one user use idle capacity up to the queue's maximum capacity (YARN's default 1 holds a user to the queue's guaranteed capacity)")
	} else {
		ulf = 1
	}
	add(pre+"minimum-user-limit-percent", strconv.Itoa(LeafMinUserLimitPercent),
		"active users split the queue evenly, each up to the average of their containers (YARN's default 100 serves users in submission order)")
	need := int(math.Ceil(float64(lim.perUser)*100/(LeafMinUserLimitPercent*ulf))) + 1
	apps := max(lim.system, need)
	// Hadoop's limit, in its float arithmetic (AbstractLeafQueue.setupQueueConfigs).
	admitted := min(apps, int(float32(apps)*(float32(LeafMinUserLimitPercent)/100)*float32(ulf)))
	add(pre+"maximum-applications", strconv.Itoa(apps),
		fmt.Sprintf("admits %d applications of one user (min(maximum-applications, maximum-applications × minimum-user-limit-percent/100 × user-limit-factor), AbstractLeafQueue.setupQueueConfigs): at least twice the log's peak concurrent applications of one user (%d); YARN's default is maximum-system-applications × the queue's absolute capacity", admitted, lim.perUser/2))
}

// queueMappings maps every user whose jobs are mostly of one class
// (UserConfig.Class) to that class's queue, and says where everyone else
// lands.
func queueMappings(b *Bundle, p *csPlan) ([]string, string) {
	if len(b.Queues) > 0 {
		return nil, "no user is mapped: every application names its queue, as in the log; applications that name none run in root.default"
	}
	class := map[string]bool{}
	for _, q := range p.queues {
		if q.role == classQueue {
			class[q.name] = true
		}
	}
	var maps, spanning, unmappable []string
	for _, u := range b.Users {
		if u.Jobs == 0 {
			continue
		}
		switch target := YARNName(u.Class); {
		case u.Class == "" || !class[target]:
			spanning = append(spanning, u.Name)
		case !mappable(u.Name):
			unmappable = append(unmappable, u.Name)
		default:
			maps = append(maps, "u:"+u.Name+":"+target)
		}
	}
	share := strconv.FormatFloat(100*UserClassShare, 'g', -1, 64) + "%"
	desc := "user → queue: each user at least " + share + " of whose jobs fell into one class is sent to that class's queue when an application names no queue"
	if len(maps) == 0 {
		desc = "no user has at least " + share + " of their jobs in one class, so no user is mapped"
	}
	if len(spanning) > 0 {
		desc += fmt.Sprintf("; the jobs of %s span several classes: their applications run in root.default, guaranteed the share of the offered work they bring", listNames(spanning))
	}
	if len(unmappable) > 0 {
		desc += fmt.Sprintf("; %s cannot be mapped (a ',', ':' or space in the name) and run in root.default", listNames(unmappable))
	}
	return maps, desc
}

// childNames joins the names of a parent's children for its queues
// property.
func childNames(kids []*csQueue) string {
	names := make([]string, len(kids))
	for i, q := range kids {
		names[i] = q.name
	}
	return strings.Join(names, ",")
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
	// PoolPolicy is every pool's schedulingPolicy: "fair" (the default:
	// a pool's applications share it) or "fifo" (served in submission
	// order, FifoPolicy).
	PoolPolicy string
	// Knobs are a tuned file's pool weights and maxRunningApps (nil: the
	// plain file's; fairtuned.go).
	Knobs *FairKnobs
}

// withDefaults fills the options left at 0 (or below) with their defaults.
func (o FairSchedulerOptions) withDefaults() FairSchedulerOptions {
	if o.ContainerMB <= 0 {
		o.ContainerMB = 1024
	}
	if o.ContainerVCores <= 0 {
		o.ContainerVCores = 1
	}
	if o.PoolPolicy == "" {
		o.PoolPolicy = "fair"
	}
	return o
}

// FairSchedulerXML renders the bundle's users as a Fair Scheduler allocation
// file: a queue per user under root, named as the Fair Scheduler's user
// placement rule looks for it (yarn.CleanName: alice.smith → alice_dot_smith),
// with the user's weight and, when it has a min share, minResources (min
// share containers × container size; users with jobs only, scaled to fit
// the cluster: fairMinShares); a default queue for everyone else;
// opt.PoolPolicy inside queues (default fair); placement by the queue the
// application
// names, else its user's queue (not created on the fly), else default.
func FairSchedulerXML(b *Bundle, opt FairSchedulerOptions) ([]byte, error) {
	opt = opt.withDefaults()
	root := yarn.NewFSQueue("root")
	root.SchedulingPolicy = "fair"
	seen := map[string]string{}
	minShare := fairMinShares(b)
	if err := opt.Knobs.check("fair-scheduler.xml: fair_knobs"); err != nil {
		return nil, err
	}
	if opt.Knobs != nil && opt.Knobs.Layout == FairLayoutQueues {
		return fairQueuesXML(b, opt)
	}
	weights, maxApps := opt.Knobs.fairPools(b.Users)
	for i, u := range b.Users {
		name, err := yarn.UserQueueName(u.Name)
		if err != nil {
			return nil, fmt.Errorf("fair-scheduler.xml: %w", err)
		}
		if other, dup := seen[name]; dup {
			return nil, fmt.Errorf("fair-scheduler.xml: users %q and %q map to one queue name %q", other, u.Name, name)
		}
		seen[name] = u.Name
		q := root.Add(yarn.NewFSQueue(name))
		q.SchedulingPolicy = opt.PoolPolicy
		setPool(q, weights[i], maxApps[i])
		if minShare[i] > 0 {
			c := float64(minShare[i])
			mb, vc := c*float64(opt.ContainerMB), c*float64(opt.ContainerVCores)
			if mb > math.MaxInt32 || vc > math.MaxInt32 {
				return nil, fmt.Errorf("fair-scheduler.xml: user %q: min_share %v containers × %d MB is more memory than YARN can express (%d MB)", u.Name, u.MinShare, opt.ContainerMB, math.MaxInt32)
			}
			q.MinResources = &yarn.Resource{MemoryMB: int64(mb), VCores: int64(vc)}
		}
	}
	if seen["default"] == "" {
		q := root.Add(yarn.NewFSQueue("default"))
		q.SchedulingPolicy = opt.PoolPolicy
	}
	fs := yarn.NewFairScheduler(root)
	fs.PlacementConfigured, fs.Placement = true, fairPlacement()
	return fs.Marshal("fair-scheduler.xml: generated by schedplan")
}

// fairMinShares returns every user's minResources in containers: the
// spec's min_share rounded up, for users with jobs in the log only (a spec
// user without jobs gets none: a guarantee to nobody only shrinks the
// others'), and scaled down (rounding down) when together they exceed the
// cluster's containers, so that Σ minResources fits the cluster (the Fair
// Scheduler grants min shares first, and a sum above the cluster leaves
// them unmet in proportion anyway). A bundle without job counts (every
// user 0) keeps every user's min_share.
func fairMinShares(b *Bundle) []int {
	out := make([]int, len(b.Users))
	withJobs := false
	for _, u := range b.Users {
		withJobs = withJobs || u.Jobs > 0
	}
	sum := 0
	for i, u := range b.Users {
		if u.MinShare > 0 && (u.Jobs > 0 || !withJobs) {
			out[i] = int(min(math.Ceil(u.MinShare), math.MaxInt32))
			sum += out[i]
		}
	}
	if total := b.Cluster.Containers(); total > 0 && sum > total {
		for i := range out {
			out[i] = int(float64(out[i]) * float64(total) / float64(sum))
		}
	}
	return out
}

// CheckCapacitySchedulerXML parses a capacity-scheduler.xml and applies
// Hadoop's load-time rules (cluster/yarn); any problem, error or warning, is
// an error.
func CheckCapacitySchedulerXML(data []byte) error {
	return CheckCS(data, yarn.CSCheckOptions{})
}

// CheckCS checks a capacity-scheduler.xml with opt (YARN's load-time
// rules, package cluster/yarn).
func CheckCS(data []byte, opt yarn.CSCheckOptions) error {
	_, err := ParseCS(data, opt)
	return err
}

// ParseCS parses a capacity-scheduler.xml and checks it as CheckCS does,
// returning the parse it checked (for a caller that also reads the file,
// the task-level replay).
func ParseCS(data []byte, opt yarn.CSCheckOptions) (*yarn.CapacityScheduler, error) {
	cs, err := yarn.ParseCapacityScheduler(data)
	if err != nil {
		return nil, fmt.Errorf("capacity-scheduler.xml: %w", err)
	}
	if err := cs.Check(opt).Err("capacity-scheduler.xml"); err != nil {
		return nil, err
	}
	return cs, nil
}

// CheckFairSchedulerXML parses a Fair Scheduler allocation file and applies
// Hadoop's load-time rules (cluster/yarn); any problem is an error.
func CheckFairSchedulerXML(data []byte) error {
	return checkFS(data, yarn.FSCheckOptions{})
}

// CheckFairSchedulerReplay is CheckFairSchedulerXML for a file the
// task-level replay runs (fair:file=, --current-config): the replay models
// a queue's maxRunningApps 0 itself (a job placed under it is refused, by
// queue), so a drained queue no job goes to does not refuse the file.
func CheckFairSchedulerReplay(data []byte) error {
	fs, err := yarn.ParseFairScheduler(data)
	if err != nil {
		return fmt.Errorf("fair-scheduler.xml: %w", err)
	}
	var ps yarn.Problems
	for _, p := range fs.Check(yarn.FSCheckOptions{}) {
		if p.Rule != yarn.RuleMaxAppsZero || strings.HasPrefix(p.Where, "user ") {
			ps = append(ps, p)
		}
	}
	return ps.Err("fair-scheduler.xml")
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
	if err := CheckCS(cs, CapacityCheckOptions(b, parsed)); err != nil {
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

// CapacityCheckOptions describes the cluster an emitted
// capacity-scheduler.xml is for: when the file names node labels, every
// machine type of the bundle is labelled with its YARNName and no node is
// unlabelled; when it names none, the cluster has no labels.
func CapacityCheckOptions(b *Bundle, cs *yarn.CapacityScheduler) yarn.CSCheckOptions {
	opt := yarn.CSCheckOptions{ClusterLabels: []string{}}
	if NamesLabels(cs) {
		for _, r := range b.Cluster.Resources {
			opt.ClusterLabels = append(opt.ClusterLabels, YARNName(r.Name))
		}
		opt.NoUnlabelledNodes = true
	}
	return opt
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
	case sim.OrderContainers:
		return "fifo", "YARN's closest policy to the tuned order by remaining containers (recorded in schedplan.las-mq.<leaf>.order, which nothing applies)", string(o)
	}
	return "fifo", "LAS_MQ level served in order of entry (the tuned order fifo)", ""
}
