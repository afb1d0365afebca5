package task

// childKey is where a child queue goes in its parent's order on one
// partition: Hadoop 3.4's PriorityUtilizationQueueOrderingPolicy (the
// default "utilization" ordering policy,
// CapacitySchedulerConfiguration.getQueueOrderingPolicy), whose
// getAssignmentIterator sorts a snapshot of the children
// (PriorityQueueResourcesForSorting) with PriorityQueueComparator.compare:
//
//  1. a child with access to a labelled partition before one without
//     (compareQueueAccessToPartition) — here only children with ready
//     tasks on the partition are sorted, and those have access;
//  2. a child with a positive absolute capacity before one with none;
//  3. both positive: the lower used capacity first, used over the
//     guaranteed resource floored at the minimum allocation
//     (CSQueueUtils.updateUsedCapacity: used / max(guaranteed, 1
//     container)); both zero: the lower absolute used capacity first
//     (used over the partition);
//  4. then the larger absolute capacity first (the configured minimum
//     resource applies only to absolute-resource configurations, which
//     schedplan does not write);
//  5. then the children's order, which the stable sort keeps:
//     CapacitySchedulerQueueManager.parseQueue builds it from the
//     parent's "queues" list in the order it names them (after a
//     refreshQueues AbstractParentQueue.reinitialize rebuilds it from a
//     HashMap; not modelled).
//
// Queue priorities (the "priority-utilization" policy) are not modelled:
// under the default policy respectPriority is false and every priority
// compares equal. Hadoop keeps these capacities as float
// (QueueCapacities), so the keys are float32: equal ratios that float64
// rounding tells apart (0.1 + 0.2 against 0.3) compare equal, as there.
// Hadoop divides memory in MB, schedplan containers.
type childKey struct {
	zero bool    // no absolute capacity on the partition
	used float32 // used capacity (absolute used capacity when zero)
	abs  float32 // absolute capacity
}

// orderChildren pushes parent x's children with ready tasks on partition
// p (the others would assign nothing) onto c.cand in the order they are
// tried; a stable insertion sort, as there are few.
func (c *Capacity) orderChildren(x *cq, p int32) {
	base := len(c.cand)
	for _, ch := range x.children {
		if c.qs[ch].readyN[p] == 0 {
			continue
		}
		ky := c.childKey(ch, p)
		k := len(c.cand)
		c.cand, c.ckey = append(c.cand, ch), append(c.ckey, ky)
		for ; k > base && ky.before(c.ckey[k-1]); k-- {
			c.cand[k], c.ckey[k] = c.cand[k-1], c.ckey[k-1]
		}
		c.cand[k], c.ckey[k] = ch, ky
	}
}

// childKey returns queue q's key on partition p.
func (c *Capacity) childKey(q, p int32) childKey {
	y := &c.qs[q]
	k := childKey{abs: float32(y.absCap[p])}
	used := float64(y.used[p])
	if k.abs > 0 {
		k.used = float32(used / max(y.g[p], 1))
	} else {
		k.zero, k.used = true, float32(used/c.pRes[p])
	}
	return k
}

// before reports whether a child with key k is tried before one with key
// o (strictly: equal keys keep their order).
func (k childKey) before(o childKey) bool {
	if k.zero != o.zero {
		return !k.zero
	}
	if k.used != o.used {
		return k.used < o.used
	}
	return k.abs > o.abs
}
