package yarn

import (
	"fmt"
	"math"
	"strings"

	"github.com/schedplan/schedplan/internal/lazyre"
)

// CSCheckOptions describe the cluster a capacity-scheduler.xml is meant
// for; the zero value checks the file alone.
type CSCheckOptions struct {
	// ClusterLabels, when not nil, are the cluster's node labels: a default
	// node label expression naming another label fails every request that
	// relies on it (SchedulerUtils.checkQueueLabelInLabelManager).
	ClusterLabels []string
	// NoUnlabelledNodes says every node carries a label: an application in
	// a leaf queue without a default node label expression then gets no
	// container unless it names a label itself.
	NoUnlabelledNodes bool
}

// Check applies Hadoop's rules to the configuration (see the package
// documentation and Problem). The problems are in queue order.
func (cs *CapacityScheduler) Check(opt CSCheckOptions) Problems {
	c := &collector{list: append(Problems(nil), cs.problems...)}
	for _, q := range cs.Queues {
		cs.checkLabels(c, q, opt)
		cs.checkAbsolute(c, q)
		if !q.IsLeaf() && cs.LegacyQueueMode {
			checkChildren(c, q)
		}
	}
	checkLeafNames(c, cs)
	cs.checkMappings(c)
	return c.list
}

// checkLabels applies QueueNodeLabelsSettings.validateNodeLabels and the
// request-time checks of a leaf's default node label expression.
func (cs *CapacityScheduler) checkLabels(c *collector, q *CSQueue, opt CSCheckOptions) {
	where := CSPrefix + q.Path + "." + accessibleLabels
	if q.Parent != nil && !contains(q.Parent.AccessibleNodeLabels, AnyLabel) {
		if contains(q.AccessibleNodeLabels, AnyLabel) {
			c.add(Error, "cs-labels-subset", where, "QueueNodeLabelsSettings.validateNodeLabels",
				"Parent's accessible queue is not ANY(*), but child's accessible queue is *")
		} else if diff := minus(q.AccessibleNodeLabels, q.Parent.AccessibleNodeLabels); len(diff) > 0 {
			c.add(Error, "cs-labels-subset", where, "QueueNodeLabelsSettings.validateNodeLabels",
				"Some labels of child queue is not a subset of parent queue, these labels=[%s]", strings.Join(diff, ","))
		}
	}
	if !q.IsLeaf() {
		return
	}
	checkLeafUsers(c, q)
	where = CSPrefix + q.Path + ".default-node-label-expression"
	e := q.DefaultNodeLabelExpression
	switch {
	case e == "":
		if opt.NoUnlabelledNodes {
			c.add(Error, "cs-default-label", where, "SchedulerUtils.normalizeNodeLabelExpressionInRequest",
				"leaf queue %s has no default node label expression: an application that names no label asks for nodes without a label, and this cluster has none", q.Path)
		}
	case strings.Contains(e, "&&"):
		c.add(Error, "cs-default-label", where, "SchedulerUtils.validateResourceRequest",
			"default node label expression %q names more than one label: every request relying on it is refused", e)
	case !q.CanAccess(e):
		c.add(Error, "cs-default-label", where, "SchedulerUtils.checkQueueLabelExpression",
			"default node label expression %q is not among the queue's accessible labels [%s]: every request relying on it is refused", e, strings.Join(q.AccessibleNodeLabels, ","))
	case opt.ClusterLabels != nil && !contains(opt.ClusterLabels, e):
		c.add(Error, "cs-default-label", where, "SchedulerUtils.checkQueueLabelInLabelManager",
			"default node label expression %q is not a label of the cluster: every request relying on it is refused", e)
	}
}

// checkLeafUsers applies CapacitySchedulerConfiguration.getAppOrderingPolicy
// to a leaf: an ordering-policy other than fifo or fair is loaded as a
// class, and a value that cannot name one throws ("Unable to construct
// ordering policy").
func checkLeafUsers(c *collector, q *CSQueue) {
	switch p := q.OrderingPolicy; {
	case p == FIFOOrdering, p == FairOrdering:
	case !javaClassName().MatchString(p):
		c.add(Error, "cs-ordering-policy", CSPrefix+q.Path+".ordering-policy", "CapacitySchedulerConfiguration.getAppOrderingPolicy",
			"Unable to construct ordering policy for: %s (not fifo, fair or a class name)", p)
	}
}

// javaClassName matches a fully qualified Java class name.
var javaClassName = lazyre.New(`^[A-Za-z_$][A-Za-z0-9_$]*(\.[A-Za-z_$][A-Za-z0-9_$]*)+$`)

func minus(a, b []string) []string {
	var out []string
	for _, v := range a {
		if !contains(b, v) {
			out = append(out, v)
		}
	}
	return out
}

// epsilon is CSQueueUtils.EPSILON.
const epsilon = 0.001

// checkAbsolute applies CSQueueUtils.checkAbsoluteCapacity: a queue's
// absolute capacity may not exceed its absolute maximum capacity (Hadoop 2.x
// refuses such a file at load).
func (cs *CapacityScheduler) checkAbsolute(c *collector, q *CSQueue) {
	for _, l := range q.Labels {
		p := q.Partitions[l]
		if p.AbsoluteMaximumCapacity < p.AbsoluteCapacity-epsilon {
			key := CSPrefix + q.Path + ".maximum-capacity"
			if l != NoLabel {
				key = CSPrefix + q.Path + "." + accessibleLabels + "." + l + ".maximum-capacity"
			}
			c.add(Error, "cs-max-below-capacity", key, "CSQueueUtils.checkAbsoluteCapacity (Hadoop 2.x refuses at load)",
				"Queue '%s' has an absolute capacity (%v) greater than its absolute maximumCapacity (%v)%s",
				q.Path, float32(p.AbsoluteCapacity), float32(p.AbsoluteMaximumCapacity), labelSuffix(l))
		}
	}
}

func labelSuffix(l string) string {
	if l == NoLabel {
		return ""
	}
	return " on label " + l
}

// precision is AbstractParentQueue.PRECISION.
const precision = float32(0.0005)

// queueCapacities returns QueueCapacities.getCapacity and getWeight of q on
// label l: capacity as a fraction (float, as Hadoop keeps it), weight −1 when
// unset.
func queueCapacities(q *CSQueue, l string) (capacity float32, weight float64, absolute bool) {
	p := q.Partitions[l]
	if p == nil {
		return 0, -1, false
	}
	return float32(p.Capacity.Percent) / 100, p.Capacity.Weight, p.Capacity.Kind == Absolute
}

// capacityType is AbstractParentQueue.getCapacityConfigurationTypeForQueues
// over the parent's configured labels. mixed describes a mix Hadoop refuses.
func capacityType(queues []*CSQueue, labels []string) (typ CapacityKind, mixed string) {
	var pct, wt, abs bool
	var diag []string
	for _, q := range queues {
		for _, l := range labels {
			capacity, weight, absolute := queueCapacities(q, l)
			if capacity > 0 {
				pct = true
			}
			if weight >= 0 {
				wt = true
				diag = append(diag, fmt.Sprintf("{Queue=%s, label=%s uses weight mode}", q.Path, l))
			}
			if absolute {
				abs = true
				pct = false // Hadoop's special case: absolute capacities reset the percentage flag
				diag = append(diag, fmt.Sprintf("{Queue=%s, label=%s uses absolute mode}", q.Path, l))
			}
			if pct {
				diag = append(diag, fmt.Sprintf("{Queue=%s, label=%s uses percentage mode}", q.Path, l))
			}
		}
	}
	n := 0
	for _, b := range []bool{pct, wt, abs} {
		if b {
			n++
		}
	}
	if len(queues) > 0 && queues[0].Parent != nil && n > 1 {
		mixed = strings.Join(diag, " ")
	}
	switch {
	case wt || len(queues) == 0:
		return Weight, mixed
	case abs:
		return Absolute, mixed
	}
	return Percent, mixed
}

// checkChildren is AbstractParentQueue.setChildQueues (legacy queue mode):
// the children's capacities on every partition the parent configures sum to
// 100% or 0%, 0% only under a parent with capacity 0 on it (or
// allow-zero-capacity-sum), and 100% only under a parent with a positive
// capacity on it.
func checkChildren(c *collector, q *CSQueue) {
	where := CSPrefix + q.Path + ".queues"
	childType, mixed := capacityType(q.Children, q.Labels)
	if mixed != "" {
		c.add(Error, "cs-mixed-mode", where, "AbstractParentQueue.getCapacityConfigurationTypeForQueues",
			"Parent queue '%s' have children queue used mixed of  weight mode, percentage and absolute mode, it is not allowed, please double check, details:%s", q.Path, mixed)
	}
	parentType, _ := capacityType([]*CSQueue{q}, q.Labels)
	if childType == Absolute || parentType == Absolute {
		if childType != parentType && q.Parent != nil {
			c.add(Error, "cs-mixed-mode", where, "AbstractParentQueue.setChildQueues",
				"Parent=%s: When absolute minResource is used, we must make sure both parent and child all use absolute minResource", q.Path)
		} else {
			c.add(Warning, "cs-absolute", where, "AbstractParentQueue.setChildQueues",
				"absolute-resource capacities are not checked against the parent's (that needs the cluster's resources)")
		}
	}
	if childType != Percent {
		return
	}
	for _, l := range q.Labels {
		var sum float32
		for _, ch := range q.Children {
			capacity, _, _ := queueCapacities(ch, l)
			sum += capacity
		}
		parentCap, _, _ := queueCapacities(q, l)
		label := l // NoLabel prints as Hadoop prints it: empty
		if float32(math.Abs(float64(1-sum))) > precision {
			if float32(math.Abs(float64(sum))) > precision {
				c.add(Error, "cs-children-sum", where, "AbstractParentQueue.setChildQueues",
					"Illegal capacity sum of %v for children of queue %s for label=%s. It should be either 0 or 1.0", sum, q.Name, label)
			} else if parentType == Percent && float32(math.Abs(float64(parentCap))) > precision && !q.AllowZeroCapacitySum {
				c.add(Error, "cs-children-zero-sum", where, "AbstractParentQueue.setChildQueues",
					"Illegal capacity sum of %v for children of queue %s for label=%s. It is set to 0, but parent percent != 0, and doesn't allow children capacity to set to 0", sum, q.Name, label)
			}
		} else if parentType == Percent && float32(math.Abs(float64(parentCap))) <= 0 && !q.AllowZeroCapacitySum {
			c.add(Error, "cs-zero-parent", where, "AbstractParentQueue.setChildQueues",
				"Illegal capacity sum of %v for children of queue %s for label=%s. queue=%s has zero capacity, but child queues have positive capacities", sum, q.Name, label, q.Name)
		}
	}
}

// checkLeafNames: Hadoop 2.x refuses two leaf queues with one short name
// ("Leaf queue names must be distinct"); 3.x loads the file but refuses an
// application submitted to the short name as ambiguous.
func checkLeafNames(c *collector, cs *CapacityScheduler) {
	paths := map[string][]string{}
	var names []string
	for _, q := range cs.Queues {
		if q.IsLeaf() && q.Parent != nil {
			if paths[q.Name] == nil {
				names = append(names, q.Name)
			}
			paths[q.Name] = append(paths[q.Name], q.Path)
		}
	}
	for _, n := range names {
		if ps := paths[n]; len(ps) > 1 {
			c.add(Error, "cs-leaf-names", strings.Join(ps, ", "), "CapacityScheduler.addQueue (2.x); CSQueueStore.isAmbiguous, CapacityScheduler.addApplication (3.x)",
				"Two leaf queues were named %s. Leaf queue names must be distinct (Hadoop 2.x refuses the file; 3.x refuses applications submitted to %q as an ambiguous queue)", n, n)
		}
	}
}

// resolve finds the queue a name refers to the way CSQueueStore.get does: a
// full path, or a short name that only one queue has.
func (cs *CapacityScheduler) resolve(name string) (*CSQueue, error) {
	if q := cs.byPath[name]; q != nil {
		return q, nil
	}
	if strings.Contains(name, ".") {
		if q := cs.byPath["root."+name]; q != nil && !strings.HasPrefix(name, "root.") {
			return q, nil
		}
		return nil, fmt.Errorf("unknown queue: %s", name)
	}
	var found []*CSQueue
	for _, q := range cs.Queues {
		if q.Name == name {
			found = append(found, q)
		}
	}
	switch len(found) {
	case 0:
		return nil, fmt.Errorf("unknown queue: %s", name)
	case 1:
		return found[0], nil
	}
	return nil, fmt.Errorf("ambiguous queue: %s (please use the full queue path)", name)
}

// checkMappings checks that every static queue mapping names one leaf
// queue: an application mapped elsewhere is refused
// (CapacityScheduler.addApplication: unknown, ambiguous or non-leaf queue).
func (cs *CapacityScheduler) checkMappings(c *collector) {
	for _, m := range cs.Mappings {
		if strings.Contains(m.Queue, "%") {
			continue // resolved per application
		}
		q, err := cs.resolve(m.Queue)
		if err == nil && !q.IsLeaf() {
			err = fmt.Errorf("non-leaf queue: %s", q.Path)
		}
		if err != nil {
			c.add(Error, "cs-mapping-target", QueueMappingsKey, "CapacityScheduler.addApplication",
				"mapping %s: every application it places is refused: %v", m, err)
		}
	}
}

// Place returns the leaf queue an application of user (in groups, the
// first being the primary group) lands in when it asks for queue requested
// ("" or "default": no queue named): the queue mappings apply when it named
// none, or always with queue-mappings-override.enable; then the queue is
// resolved like CSQueueStore.get. It fails like
// CapacityScheduler.addApplication: unknown, ambiguous, non-leaf or stopped
// queue.
func (cs *CapacityScheduler) Place(user string, groups []string, requested string) (*CSQueue, error) {
	if requested == "" {
		requested = "default"
	}
	target := requested
	if requested == "default" || cs.MappingOverride {
		if t, ok := cs.mapped(user, groups); ok {
			target = t
		}
	}
	q, err := cs.resolve(target)
	if err != nil {
		return nil, fmt.Errorf("%w: application of user %s submitted to %s", ErrRejected, user, err)
	}
	if !q.IsLeaf() {
		return nil, fmt.Errorf("%w: application of user %s submitted to non-leaf queue %s", ErrRejected, user, q.Path)
	}
	for a := q; a != nil; a = a.Parent {
		if a.State != Running {
			return nil, fmt.Errorf("%w: queue %s is %s and cannot accept submissions", ErrRejected, a.Path, a.State)
		}
	}
	return q, nil
}

// mapped returns the queue the first matching mapping gives.
func (cs *CapacityScheduler) mapped(user string, groups []string) (string, bool) {
	primary := ""
	if len(groups) > 0 {
		primary = groups[0]
	}
	for _, m := range cs.Mappings {
		match := false
		switch m.Type {
		case UserMapping:
			match = m.Source == user || m.Source == "%user"
		case GroupMapping:
			match = contains(groups, m.Source)
		}
		if !match {
			continue
		}
		q := strings.ReplaceAll(m.Queue, "%user", user)
		q = strings.ReplaceAll(q, "%primary_group", primary)
		return q, true
	}
	return "", false
}
