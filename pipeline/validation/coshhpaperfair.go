package validation

import (
	"fmt"
	"math"
	"strings"

	"github.com/schedplan/schedplan/cluster"
	"github.com/schedplan/schedplan/cluster/task"
)

// COSHHPaperBaseline returns baseline name as seed 003 §5.3 describes the
// Fair sharing COSHH was compared with, where that differs from
// COSHHBaseline's Hadoop 1 reading. FIFO is COSHHBaseline's. Fair keeps
// one pool per user but gives each pool the user's min share and weight
// from spec (Table 5; the weight is the priority unless set,
// cluster.User.EffectiveWeight): §5.3 explains Fair's long completion
// times by "the Fair sharing algorithm first satisfies the minimum
// shares". And Fair has no delay scheduling: §5.3 and §6.2.1 say it "has
// the sticky slot problem" (a freed slot goes back to the job below its
// share, wherever that job's data is), which delay scheduling removes, and
// §8 cites delay scheduling [12] as "a complementary algorithm for Fair
// sharing", not as part of the Fair sharing of [1] it compares with. The
// chosen job still takes a node-local map first (coshh.COSHHBlocks.Take,
// Hadoop's JobInProgress.obtainNewMapTask). A min share must be a whole
// number of slots.
func COSHHPaperBaseline(name string, spec *cluster.Spec, nodes int) (task.Policy, error) {
	p, err := COSHHBaseline(name, nodes)
	if err != nil {
		return nil, err
	}
	f, ok := p.(*task.Fair)
	if !ok {
		return p, nil
	}
	f.LocalityDelay = 0
	f.Placement = task.PlaceByUser
	for _, u := range spec.Users {
		if u.MinShare != math.Trunc(u.MinShare) || u.MinShare > math.MaxInt32 {
			return nil, fmt.Errorf("coshh paper baseline: user %q: min_share %v is not a whole number of slots", u.Name, u.MinShare)
		}
		f.Root.Children = append(f.Root.Children, task.FairQueue{
			Name:     strings.ReplaceAll(u.Name, ".", "_dot_"), // as Fair's placement names a user's pool
			MinShare: int(u.MinShare),
			Weight:   u.EffectiveWeight(),
		})
	}
	if err := f.Root.Check(); err != nil {
		return nil, fmt.Errorf("coshh paper baseline: %v", err)
	}
	return f, nil
}
