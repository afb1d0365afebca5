package tasklevel

import (
	"fmt"
	"math"

	"github.com/schedplan/schedplan/cluster/yarn"
)

// fairAppLimits are an allocation file's application limits that
// task.Fair takes beside its queue tree: per user (UserMaxApps,
// UserMaxAppsDefault) and of the queues created for jobs
// (QueueMaxAppsDefault); 0: none.
type fairAppLimits struct {
	named    map[string]int
	def      int
	queueDef int
}

// userLimitsOf reads the <user> elements' maxRunningApps and
// userMaxAppsDefault of a parsed allocation file
// (AllocationConfiguration.getUserMaxApps: the user's own limit, else the
// default; Integer.MAX_VALUE when neither is set) and queueMaxAppsDefault.
// A default or user limit of 0 or below would never let the applications
// run: it is refused.
func userLimitsOf(fs *yarn.FairScheduler) (fairAppLimits, error) {
	var out fairAppLimits
	if d := fs.QueueMaxAppsDefault; d < math.MaxInt32 {
		if d <= 0 {
			return out, fmt.Errorf("queueMaxAppsDefault %d: no application of a queue without maxRunningApps would run", d)
		}
		out.queueDef = int(d)
	}
	if d := fs.UserMaxAppsDefault; d < math.MaxInt32 {
		if d <= 0 {
			return out, fmt.Errorf("userMaxAppsDefault %d: no application of a user without a <user> element would run", d)
		}
		out.def = int(d)
	}
	for u, m := range fs.UserMaxApps {
		if m <= 0 {
			return out, fmt.Errorf("user %s: maxRunningApps %d: none of their applications would run", u, m)
		}
		if out.named == nil {
			out.named = map[string]int{}
		}
		out.named[u] = int(min(m, math.MaxInt32))
	}
	return out, nil
}
