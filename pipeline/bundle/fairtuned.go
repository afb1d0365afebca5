package bundle

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/schedplan/schedplan/cluster/yarn"
)

// Weight rules of a tuned fair-scheduler.xml (FairKnobs.Weights): every
// user's pool weight from the user's share of the offered work
// (UserConfig.Work), relative to an equal split among the users with
// work, clamped to [FairWeightMin, FairWeightMax].
const (
	// FairWeightsSpec keeps the cluster spec's weights (the plain file's).
	FairWeightsSpec = ""
	// FairWeightsWork makes weights proportional to work: a user with
	// twice the equal split's work weighs 2.
	FairWeightsWork = "work"
	// FairWeightsInverse makes weights inversely proportional to work: the
	// users with little work (small jobs) are served first, as LAS across
	// users.
	FairWeightsInverse = "inverse-work"
)

// Pool layouts of a tuned fair-scheduler.xml (FairKnobs.Layout).
const (
	// FairLayoutUsers is one pool per user, as the plain file.
	FairLayoutUsers = ""
	// FairLayoutQueues is one pool per queue of the log (Bundle.Queues),
	// where the applications that name it land; the others go to their
	// user's pool if the file has one, else default. Only for a log with a
	// queue column; without maxRunningApps (the peaks are per user).
	FairLayoutQueues = "queues"
)

// FairWeightMin and FairWeightMax bound a tuned pool weight.
const (
	FairWeightMin = 0.1
	FairWeightMax = 10
)

// The fair-tuned candidates' grid (FairTunedGrid): schedulingPolicy inside
// the pools × (user pools: weight rule × maxRunningApps per pool, a
// multiple of the user's peak concurrent applications (UserConfig.PeakApps;
// 0: no limit) — the point with spec weights and no limit is the plain
// file, not tuned; and, for a log with queues, pools per log queue × weight
// rule).
var (
	FairTunedPolicies    = []string{"fair", "fifo"}
	FairTunedWeights     = []string{FairWeightsSpec, FairWeightsWork, FairWeightsInverse}
	FairTunedAppsPerPeak = []float64{0, 1, 4}
)

// FairKnobs are the settings a tuned fair-scheduler.xml adds to the plain
// one (one pool per user, the users' placement): every one derived from
// the bundle's users, so that emit renders the same file from
// schedplan.yaml's deploy section. The zero value is the plain file.
type FairKnobs struct {
	// Layout is the pools' layout (FairLayoutUsers, FairLayoutQueues).
	Layout string `yaml:"layout,omitempty" json:"layout,omitempty"`
	// Weights is the pools' weight rule (FairWeightsSpec, FairWeightsWork,
	// FairWeightsInverse).
	Weights string `yaml:"weights,omitempty" json:"weights,omitempty"`
	// AppsPerPeak > 0 sets every pool's maxRunningApps to
	// ceil(AppsPerPeak × the user's PeakApps), at least 1: the user's
	// further applications wait and start in order of submission
	// (MaxRunningAppsEnforcer). Pools of users without a peak get none.
	AppsPerPeak float64 `yaml:"apps_per_peak,omitempty" json:"apps_per_peak,omitempty"`
}

// FairTunedGrid is how many fair-tuned candidates deployCandidates lists
// at most (byte-identical files once): it does not grow with the log.
func FairTunedGrid() int {
	return len(FairTunedPolicies) * (len(FairTunedWeights)*len(FairTunedAppsPerPeak) - 1 + len(FairTunedWeights))
}

// FairTunedKnobs lists the grid's knobs other than the plain file's; the
// log-queue layout when the log has queues.
func FairTunedKnobs(logQueues bool) []FairKnobs {
	var out []FairKnobs
	for _, w := range FairTunedWeights {
		for _, a := range FairTunedAppsPerPeak {
			if k := (FairKnobs{Weights: w, AppsPerPeak: a}); !k.Plain() {
				out = append(out, k)
			}
		}
	}
	if logQueues {
		for _, w := range FairTunedWeights {
			out = append(out, FairKnobs{Layout: FairLayoutQueues, Weights: w})
		}
	}
	return out
}

func (k *FairKnobs) Plain() bool { return k == nil || *k == FairKnobs{} }

// check rejects knobs the renderer does not know; field names the YAML
// field.
func (k *FairKnobs) check(field string) error {
	if k == nil {
		return nil
	}
	if k.Layout != FairLayoutUsers && k.Layout != FairLayoutQueues {
		return fmt.Errorf("%s.layout: %q is not %q (one pool per log queue) or empty (one per user)", field, k.Layout, FairLayoutQueues)
	}
	if k.Layout == FairLayoutQueues && k.AppsPerPeak != 0 {
		return fmt.Errorf("%s.apps_per_peak: %v: pools per log queue take no maxRunningApps", field, k.AppsPerPeak)
	}
	if !slices.Contains(FairTunedWeights, k.Weights) {
		return fmt.Errorf("%s.weights: %q is not one of %q", field, k.Weights, FairTunedWeights)
	}
	if !(k.AppsPerPeak >= 0 && k.AppsPerPeak <= 1e6) {
		return fmt.Errorf("%s.apps_per_peak: %v: want 0 (no limit) to 1e6", field, k.AppsPerPeak)
	}
	return nil
}

// String describes the knobs as candidate names and reports show them.
func (k *FairKnobs) String() string {
	if k.Plain() {
		return "spec weights, no maxRunningApps"
	}
	w := map[string]string{FairWeightsSpec: "spec weights", FairWeightsWork: "weights ∝ work", FairWeightsInverse: "weights ∝ 1/work"}[k.Weights]
	switch {
	case k.Layout == FairLayoutQueues && k.Weights == FairWeightsSpec:
		return "a pool per log queue, weights 1"
	case k.Layout == FairLayoutQueues:
		return "a pool per log queue, " + w
	case k.AppsPerPeak > 0:
		return fmt.Sprintf("%s, maxRunningApps %g × peak apps", w, k.AppsPerPeak)
	}
	return w + ", no maxRunningApps"
}

// fairPools returns every user's pool weight and maxRunningApps (−1: none)
// under the knobs; nil knobs leave the spec's weights and no limits.
func (k *FairKnobs) fairPools(users []UserConfig) (weights []float64, maxApps []int64) {
	weights, maxApps = make([]float64, len(users)), make([]int64, len(users))
	for i, u := range users {
		weights[i], maxApps[i] = u.Weight, -1
	}
	if k.Plain() {
		return weights, maxApps
	}
	if k.Weights != FairWeightsSpec {
		k.weigh(weights, userWork(users))
	}
	if k.AppsPerPeak > 0 {
		for i, u := range users {
			if u.PeakApps > 0 {
				maxApps[i] = int64(min(math.MaxInt32, math.Max(1, math.Ceil(k.AppsPerPeak*float64(u.PeakApps)))))
			}
		}
	}
	return weights, maxApps
}

// weigh sets weights[i] by the knobs' rule from work[i], the shares of
// the offered work (left as they are where the share is 0).
func (k *FairKnobs) weigh(weights, work []float64) {
	active := 0
	for _, w := range work {
		if w > 0 {
			active++
		}
	}
	for i, w := range work {
		if !(w > 0) {
			continue
		}
		r := w * float64(active)
		if k.Weights == FairWeightsInverse {
			r = 1 / r
		}
		weights[i] = math.Min(FairWeightMax, math.Max(FairWeightMin, r))
	}
}

// fairQueuesXML renders the log-queue layout (FairLayoutQueues): a pool
// per queue of the log (Bundle.Queues) at its path (LogQueuePath: nested
// <queue> elements, root.dev.adhoc a pool adhoc inside a parent dev, as
// the Fair Scheduler's specified rule looks an application's queue up by
// its full path, QueueManager.getLeafQueue), each weighted by the knobs'
// rule from its share of the work among its siblings (a parent's work is
// its pools'), a default pool, opt.PoolPolicy inside them, and the plain
// file's placement.
func fairQueuesXML(b *Bundle, opt FairSchedulerOptions) ([]byte, error) {
	if len(b.Queues) == 0 {
		return nil, fmt.Errorf("fair-scheduler.xml: fair_knobs.layout %s: the bundle has no log queues", FairLayoutQueues)
	}
	root := yarn.NewFSQueue("root")
	root.SchedulingPolicy = "fair"
	byPath := map[string]*yarn.FSQueue{"root": root}
	work := map[*yarn.FSQueue]float64{}
	leaf := map[string]bool{}
	for _, lq := range b.Queues {
		path := LogQueuePath(lq.Name)
		if leaf[path] {
			return nil, fmt.Errorf("fair-scheduler.xml: log queue %q twice", path)
		}
		leaf[path] = true
		parent := root
		parts := strings.Split(path, ".")
		for k := 1; k < len(parts); k++ {
			at := strings.Join(parts[:k+1], ".")
			q := byPath[at]
			if q == nil {
				q = parent.Add(yarn.NewFSQueue(parts[k]))
				byPath[at] = q
			} else if leaf[at] && k < len(parts)-1 {
				return nil, fmt.Errorf("fair-scheduler.xml: log queue %s: applications ran in it and in its child queues; the Fair Scheduler places none in a parent queue (QueueManager.getLeafQueue)", at)
			}
			work[q] += lq.Work
			parent = q
		}
		if len(parent.Children) > 0 {
			return nil, fmt.Errorf("fair-scheduler.xml: log queue %s: applications ran in it and in its child queues; the Fair Scheduler places none in a parent queue (QueueManager.getLeafQueue)", path)
		}
	}
	if byPath["root.default"] == nil {
		root.Add(yarn.NewFSQueue("default"))
	}
	var weigh func(q *yarn.FSQueue)
	weigh = func(q *yarn.FSQueue) {
		weights, shares := make([]float64, len(q.Children)), make([]float64, len(q.Children))
		for i, c := range q.Children {
			weights[i], shares[i] = 1, work[c]
		}
		if opt.Knobs.Weights != FairWeightsSpec {
			opt.Knobs.weigh(weights, shares)
		}
		for i, c := range q.Children {
			c.Weight = weights[i]
			if c.IsLeaf() {
				c.SchedulingPolicy = opt.PoolPolicy
			} else {
				c.SchedulingPolicy = "fair"
				weigh(c)
			}
		}
	}
	weigh(root)
	fs := yarn.NewFairScheduler(root)
	fs.PlacementConfigured, fs.Placement = true, fairPlacement()
	return fs.Marshal("fair-scheduler.xml: generated by schedplan")
}

// fairPlacement is the placement of schedplan's fair-scheduler.xml: the
// queue the application names if the file has it, else its user's pool if
// the file has one, else root.default.
func fairPlacement() []yarn.PlacementRule {
	return []yarn.PlacementRule{
		{Name: "specified", Create: false},
		{Name: "user", Create: false},
		{Name: "default", Create: true, Queue: "root.default"},
	}
}

// setPool applies a user's tuned weight and maxRunningApps to its queue.
func setPool(q *yarn.FSQueue, weight float64, maxApps int64) {
	if weight > 0 {
		q.Weight = weight
	}
	q.MaxRunningApps = maxApps
}
