package pipeline

import (
	"fmt"
	"math"

	"github.com/schedplan/schedplan/cluster/yarn"
)

// fairUserLimits are an allocation file's per-user application limits as
// task.Fair takes them (UserMaxApps, UserMaxAppsDefault; 0: none).
type fairUserLimits struct {
	named map[string]int
	def   int
}

// userLimitsOf reads the <user> elements' maxRunningApps and
// userMaxAppsDefault of a parsed allocation file
// (AllocationConfiguration.getUserMaxApps: the user's own limit, else the
// default; Integer.MAX_VALUE when neither is set). A limit of 0 or below
// would never let the users' applications run: it is refused.
func userLimitsOf(fs *yarn.FairScheduler) (fairUserLimits, error) {
	var out fairUserLimits
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
