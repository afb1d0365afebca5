package pipeline

import (
	"fmt"
	"math"
	"slices"

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

// FairWeightMin and FairWeightMax bound a tuned pool weight.
const (
	FairWeightMin = 0.1
	FairWeightMax = 10
)

// The fair-tuned candidates' grid (FairTunedGrid): schedulingPolicy inside
// the pools × weight rule × maxRunningApps per pool, a multiple of the
// user's peak concurrent applications (UserConfig.PeakApps; 0: no limit).
// The point with spec weights and no limit is the plain file, not tuned.
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
	return len(FairTunedPolicies) * (len(FairTunedWeights)*len(FairTunedAppsPerPeak) - 1)
}

// fairTunedKnobs lists the grid's knobs other than the plain file's.
func fairTunedKnobs() []FairKnobs {
	var out []FairKnobs
	for _, w := range FairTunedWeights {
		for _, a := range FairTunedAppsPerPeak {
			if k := (FairKnobs{Weights: w, AppsPerPeak: a}); !k.plain() {
				out = append(out, k)
			}
		}
	}
	return out
}

func (k *FairKnobs) plain() bool { return k == nil || *k == FairKnobs{} }

// check rejects knobs the renderer does not know; field names the YAML
// field.
func (k *FairKnobs) check(field string) error {
	if k == nil {
		return nil
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
	if k.plain() {
		return "spec weights, no maxRunningApps"
	}
	w := map[string]string{FairWeightsSpec: "spec weights", FairWeightsWork: "weights ∝ work", FairWeightsInverse: "weights ∝ 1/work"}[k.Weights]
	if k.AppsPerPeak > 0 {
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
	if k.plain() {
		return weights, maxApps
	}
	if k.Weights != FairWeightsSpec {
		work := userWork(users)
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
	if k.AppsPerPeak > 0 {
		for i, u := range users {
			if u.PeakApps > 0 {
				maxApps[i] = int64(min(math.MaxInt32, math.Max(1, math.Ceil(k.AppsPerPeak*float64(u.PeakApps)))))
			}
		}
	}
	return weights, maxApps
}

// setPool applies a user's tuned weight and maxRunningApps to its queue.
func setPool(q *yarn.FSQueue, weight float64, maxApps int64) {
	if weight > 0 {
		q.Weight = weight
	}
	q.MaxRunningApps = maxApps
}
