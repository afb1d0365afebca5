package bundle

import (
	"github.com/schedplan/schedplan/cluster/yarn"
)

// NamesLabels reports whether any queue of the file has settings for,
// access to, or a default expression naming a node label. Access to any
// label ("*", what a queue inherits from root when the file says nothing:
// QueueNodeLabelsSettings.initializeAccessibleLabels) names none: Hadoop's
// stock file is for machines without labels.
func NamesLabels(cs *yarn.CapacityScheduler) bool {
	for _, q := range cs.Queues {
		if q.Parent == nil {
			continue // root accesses every label (*) whatever the file says
		}
		if len(q.Labels) > 1 || q.DefaultNodeLabelExpression != "" {
			return true
		}
		for _, l := range q.AccessibleNodeLabels {
			if l != yarn.NoLabel && l != yarn.AnyLabel {
				return true
			}
		}
	}
	return false
}
